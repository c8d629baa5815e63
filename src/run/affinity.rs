//! Pins the calling thread to a CPU list (`sched_setaffinity`;
//! `SetThreadGroupAffinity` on Windows) and reads the CPUs the process may
//! use (GetProcessAffinityMask on Windows). Elsewhere pinning is refused with a clear error and no
//! CPU list is known.

use super::placement::CpuList;

/// Pins the calling thread to `cpus`.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpus: &CpuList) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data; zeroed is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus.cpus() {
        // SAFETY: `c` < MAX_CPU (= CPU_SETSIZE), checked by CpuList::parse,
        // so CPU_SET stays inside `set`.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    // SAFETY: `set` is a valid cpu_set_t of the size passed; pid 0 is the
    // calling thread.
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Windows: SetThreadGroupAffinity, in the `sys` twin with the other
/// Windows calls.
#[cfg(windows)]
pub fn pin_current_thread(cpus: &CpuList) -> std::io::Result<()> {
    super::engines::sys::pin_current_thread(cpus.cpus())
}

#[cfg(not(any(target_os = "linux", windows)))]
pub fn pin_current_thread(_cpus: &CpuList) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "pinning threads to CPUs is only supported on Linux",
    ))
}

/// The CPUs this process may run on; None when the system does not say.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Option<CpuList> {
    // SAFETY: cpu_set_t is plain data; zeroed is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid, writable cpu_set_t of the size passed.
    let rc =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        return None;
    }
    let text: Vec<String> = (0..super::placement::MAX_CPU)
        // SAFETY: `c` < CPU_SETSIZE, inside `set`.
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .map(|c| c.to_string())
        .collect();
    CpuList::parse(&text.join(",")).ok()
}

/// Windows: the process's affinity mask (its processor group's CPUs).
#[cfg(windows)]
pub fn allowed_cpus() -> Option<CpuList> {
    let cpus = super::engines::sys::allowed_cpus()?;
    let text: Vec<String> = cpus.iter().map(|c| c.to_string()).collect();
    CpuList::parse(&text.join(",")).ok()
}

#[cfg(not(any(target_os = "linux", windows)))]
pub fn allowed_cpus() -> Option<CpuList> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_runs_only_there() {
        let allowed = allowed_cpus().expect("sched_getaffinity works on Linux");
        let first = CpuList::parse(&allowed.cpus()[0].to_string()).unwrap();
        let seen = std::thread::spawn(move || {
            pin_current_thread(&first).unwrap();
            allowed_cpus().unwrap()
        })
        .join()
        .unwrap();
        assert_eq!(seen.cpus(), &allowed.cpus()[..1]);
        // This thread was not touched.
        assert_eq!(allowed_cpus().unwrap(), allowed);
    }
}

#[cfg(all(test, windows))]
mod windows_tests {
    use super::*;

    #[test]
    fn a_thread_is_pinned_within_its_group_and_a_missing_cpu_is_named() {
        let allowed = allowed_cpus().expect("GetProcessAffinityMask works");
        let first = CpuList::parse(&allowed.cpus()[0].to_string()).unwrap();
        std::thread::spawn(move || pin_current_thread(&first).unwrap())
            .join()
            .unwrap();
        let none = CpuList::parse("1000").unwrap();
        let e = pin_current_thread(&none).unwrap_err().to_string();
        assert!(e.contains("CPU 1000 does not exist"), "{e}");
    }
}
