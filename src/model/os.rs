//! Which operating system a result came from, and the family a config
//! belongs to for cross-OS findings. One inference, used by every reader:
//! the engine when it is OS-specific, a Windows device or drive path, or a
//! reader's own hint (fio's text header `os=`, Linux disk statistics).

use std::fmt;

use serde::{Deserialize, Serialize};

/// An operating system as the dataset's `os` column names it (`linux`,
/// `windows`, `unknown`). Any other name a result gives (`solaris` from
/// its engine, fio's text header `os=`) is kept as it was written, so a
/// dataset reads back as it was: in files and JSON it is that string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Os {
    Linux,
    Windows,
    /// Nothing told the OS.
    #[default]
    Unknown,
    /// A name nvcmp has no rule for, verbatim.
    Other(String),
}

impl Os {
    /// The families a config is grouped into for cross-family findings,
    /// in the order they are listed.
    pub const FAMILIES: [Os; 3] = [Os::Windows, Os::Linux, Os::Unknown];

    /// The OS a name says: `linux`, `windows`, `unknown`, else kept as is.
    pub fn parse(name: &str) -> Os {
        match name {
            "linux" => Os::Linux,
            "windows" => Os::Windows,
            "unknown" => Os::Unknown,
            other => Os::Other(other.to_string()),
        }
    }

    /// The name in the dataset's `os` column.
    pub fn as_str(&self) -> &str {
        match self {
            Os::Linux => "linux",
            Os::Windows => "windows",
            Os::Unknown => "unknown",
            Os::Other(name) => name,
        }
    }

    /// The family the OS belongs to for cross-family findings: Windows,
    /// Linux, else unknown.
    pub fn family(&self) -> Os {
        match self {
            Os::Linux => Os::Linux,
            Os::Windows => Os::Windows,
            _ => Os::Unknown,
        }
    }

    /// An OS family as people write it ("Windows", "Linux"), for tables and
    /// findings; None for one nvcmp has no name for.
    pub fn display_name(&self) -> Option<&'static str> {
        match self {
            Os::Windows => Some("Windows"),
            Os::Linux => Some("Linux"),
            _ => None,
        }
    }

    /// Its display name, else its key (`unknown`, `solaris`).
    pub fn title(&self) -> String {
        self.display_name().unwrap_or(self.as_str()).to_string()
    }
}

impl From<&str> for Os {
    fn from(name: &str) -> Os {
        Os::parse(name)
    }
}

impl From<String> for Os {
    fn from(name: String) -> Os {
        match Os::parse(&name) {
            Os::Other(_) => Os::Other(name),
            known => known,
        }
    }
}

impl From<Os> for String {
    fn from(os: Os) -> String {
        match os {
            Os::Other(name) => name,
            known => known.as_str().to_string(),
        }
    }
}

impl fmt::Display for Os {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Engines that exist on one OS only (fio's `engines/`).
pub fn of_engine(engine: &str) -> Option<Os> {
    match engine {
        "libaio" | "io_uring" | "io_uring_cmd" | "splice" | "sg" | "xnvme" => Some(Os::Linux),
        "windowsaio" => Some(Os::Windows),
        "solarisaio" => Some(Os::Other("solaris".into())),
        _ => None,
    }
}

/// `\\.\PhysicalDrive1` or `D:\file`: a Windows target.
pub fn is_windows_path(filename: &str) -> bool {
    filename.starts_with(r"\\.\")
        || (filename.len() > 2 && filename.as_bytes().get(1) == Some(&b':'))
}

/// The OS of a result: its engine, else its target path, else `hint`
/// (what the reader saw: fio's `os=`, disk statistics), else unknown.
pub fn infer(engine: &str, filename: Option<&str>, hint: Option<Os>) -> Os {
    if let Some(os) = of_engine(engine) {
        return os;
    }
    if filename.is_some_and(is_windows_path) {
        return Os::Windows;
    }
    hint.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_then_path_then_hint() {
        assert_eq!(infer("libaio", None, Some(Os::Windows)), Os::Linux);
        assert_eq!(
            infer("psync", Some(r"\\.\PhysicalDrive1"), None),
            Os::Windows
        );
        assert_eq!(infer("psync", Some("D:\\fio.dat"), None), Os::Windows);
        assert_eq!(
            infer("psync", Some("/dev/nvme0n1"), Some(Os::Linux)),
            Os::Linux
        );
        assert_eq!(infer("psync", Some("/dev/nvme0n1"), None), Os::Unknown);
        assert_eq!(infer("solarisaio", None, None).as_str(), "solaris");
        assert_eq!(Os::parse("solaris").family(), Os::Unknown);
        assert_eq!(Os::Windows.display_name(), Some("Windows"));
        assert_eq!(Os::parse("solaris").display_name(), None);
        assert_eq!(Os::parse("freebsd").title(), "freebsd");
    }

    #[test]
    fn any_name_reads_back_as_it_was_written() {
        for name in ["linux", "windows", "unknown", "freebsd", "", "Linux"] {
            let os = Os::from(name);
            assert_eq!(os.as_str(), name);
            assert_eq!(String::from(os.clone()), name);
            let json = serde_json::to_string(&os).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Os>(&json).unwrap(), os);
        }
        assert_eq!(Os::from("Linux"), Os::Other("Linux".into()));
    }
}
