//! Which operating system a result came from, and the family a config
//! belongs to for cross-OS findings. One inference, used by every reader:
//! the engine when it is OS-specific, a Windows device or drive path, or a
//! reader's own hint (fio's text header `os=`, Linux disk statistics).

/// Engines that exist on one OS only (fio's `engines/`).
pub fn of_engine(engine: &str) -> Option<&'static str> {
    match engine {
        "libaio" | "io_uring" | "io_uring_cmd" | "splice" | "sg" | "xnvme" => Some("linux"),
        "windowsaio" => Some("windows"),
        "solarisaio" => Some("solaris"),
        _ => None,
    }
}

/// `\\.\PhysicalDrive1` or `D:\file`: a Windows target.
pub fn is_windows_path(filename: &str) -> bool {
    filename.starts_with(r"\\.\")
        || (filename.len() > 2 && filename.as_bytes().get(1) == Some(&b':'))
}

/// The OS of a result: its engine, else its target path, else `hint`
/// (what the reader saw: fio's `os=`, disk statistics), else `unknown`.
pub fn infer(engine: &str, filename: Option<&str>, hint: Option<&str>) -> String {
    if let Some(os) = of_engine(engine) {
        return os.into();
    }
    if filename.is_some_and(is_windows_path) {
        return "windows".into();
    }
    hint.map_or_else(|| "unknown".into(), str::to_string)
}

/// The family a config's OS belongs to for cross-family findings:
/// `windows`, `linux`, else `unknown`.
pub fn family(os: &str) -> &'static str {
    match os {
        "windows" => "windows",
        "linux" => "linux",
        _ => "unknown",
    }
}

/// An OS family as people write it ("Windows", "Linux"), for tables and
/// findings; None for one nvcmp has no name for (the key is shown).
pub fn display_name(os: &str) -> Option<&'static str> {
    match os {
        "windows" => Some("Windows"),
        "linux" => Some("Linux"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_then_path_then_hint() {
        assert_eq!(infer("libaio", None, Some("windows")), "linux");
        assert_eq!(infer("psync", Some(r"\\.\PhysicalDrive1"), None), "windows");
        assert_eq!(infer("psync", Some("D:\\fio.dat"), None), "windows");
        assert_eq!(infer("psync", Some("/dev/nvme0n1"), Some("linux")), "linux");
        assert_eq!(infer("psync", Some("/dev/nvme0n1"), None), "unknown");
        assert_eq!(family("solaris"), "unknown");
        assert_eq!(display_name("windows"), Some("Windows"));
        assert_eq!(display_name("solaris"), None);
    }
}
