//! The AWS shared config files (`~/.aws/config`, `~/.aws/credentials`) as
//! the AWS CLI and SDKs read them, for an `s3://` history: the profile
//! named by `AWS_PROFILE` (else `default`) gives the region, the endpoint
//! (`endpoint_url`), the addressing style (`s3 =` / `addressing_style`)
//! and the credentials, static or from a `credential_process`.
//!
//! Environment variables win over the files, key by key, as in the SDKs;
//! credentials are taken as a set, from the environment when
//! `AWS_ACCESS_KEY_ID` is set there, else from the profile. A profile
//! whose credentials come from SSO or an assumed role is said, with the
//! one command that turns them into variables: nvcmp does not sign in.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One profile's settings, as found.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Profile {
    pub region: Option<String>,
    pub endpoint_url: Option<String>,
    /// `addressing_style = virtual` (true) or `path` (false).
    pub virtual_hosted: Option<bool>,
    pub credentials: Option<Credentials>,
}

/// A key pair, with the session token of temporary credentials.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
    /// Where they came from, for the message when a server refuses them
    /// ("profile `ci` in /home/u/.aws/credentials").
    pub from: String,
}

/// The keys of one profile: `s3 =` sub-keys as `s3.addressing_style`.
type Keys = HashMap<String, String>;

/// The profile the environment names, with what the files say of it;
/// None when no profile was asked for and the files say nothing.
/// `env` reads a variable (the process environment, or a test's).
pub(crate) fn load(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<Profile>, String> {
    let asked = env("AWS_PROFILE").or_else(|| env("AWS_DEFAULT_PROFILE"));
    let name = asked.clone().unwrap_or_else(|| "default".to_string());
    let home = env("HOME").or_else(|| env("USERPROFILE"));
    let file = |var: &str, leaf: &str| -> Option<PathBuf> {
        env(var)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| Path::new(h).join(".aws").join(leaf)))
    };
    let config = file("AWS_CONFIG_FILE", "config");
    let credentials = file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    let read = |path: &Option<PathBuf>, is_config: bool| -> Result<Option<Keys>, String> {
        let Some(path) = path else { return Ok(None) };
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(parse(&text, is_config).remove(&name)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    };
    let in_config = read(&config, true)?;
    let in_credentials = read(&credentials, false)?;
    if in_config.is_none() && in_credentials.is_none() {
        return match asked {
            Some(_) => Err(format!(
                "AWS_PROFILE names profile `{name}`, which is in neither {} nor {}; fix AWS_PROFILE, or unset it",
                shown(&config),
                shown(&credentials)
            )),
            None => Ok(None),
        };
    }
    // The credentials file wins over the config file, key by key.
    let mut keys = in_config.unwrap_or_default();
    let creds_from = match &in_credentials {
        Some(c) if c.contains_key("aws_access_key_id") => shown(&credentials),
        _ => shown(&config),
    };
    keys.extend(in_credentials.unwrap_or_default());
    let get = |k: &str| value(&keys, k);
    let from = format!("profile `{name}` in {creds_from}");
    let credentials = credentials_of(&keys, &name, &from)?;
    let virtual_hosted = match get("s3.addressing_style").as_deref() {
        Some("virtual") => Some(true),
        Some("path") => Some(false),
        _ => None,
    };
    Ok(Some(Profile {
        region: get("region"),
        endpoint_url: get("endpoint_url"),
        virtual_hosted,
        credentials,
    }))
}

/// A profile's credentials: its key pair, else what its
/// `credential_process` prints; a profile that signs in some other way is
/// an error saying how to export its credentials.
fn credentials_of(keys: &Keys, name: &str, from: &str) -> Result<Option<Credentials>, String> {
    let get = |k: &str| value(keys, k);
    let credentials = match (get("aws_access_key_id"), get("aws_secret_access_key")) {
        (Some(id), Some(secret)) => Some(Credentials {
            access_key_id: id,
            secret_access_key: secret,
            session_token: get("aws_session_token"),
            from: from.to_string(),
        }),
        (Some(_), None) | (None, Some(_)) => {
            return Err(format!(
                "{from} has only one of aws_access_key_id and aws_secret_access_key; give both"
            ));
        }
        (None, None) => match get("credential_process") {
            Some(command) => Some(run_process(&command, name, from)?),
            None => None,
        },
    };
    let signs_in = [
        "sso_session",
        "sso_start_url",
        "role_arn",
        "web_identity_token_file",
    ]
    .into_iter()
    .find(|k| keys.contains_key(*k));
    match (&credentials, signs_in) {
        (None, Some(how)) => Err(format!(
            "profile `{name}` gets its credentials by {how}, which nvcmp does not do; export them first: eval \"$(aws configure export-credentials --profile {name} --format env)\""
        )),
        _ => Ok(credentials),
    }
}

/// A key's value; an empty one (`region =`) is no value.
fn value(keys: &Keys, k: &str) -> Option<String> {
    keys.get(k).filter(|v| !v.is_empty()).cloned()
}

fn shown(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "~/.aws (no HOME)".to_string())
}

/// Every profile of one file: `[default]`, `[profile NAME]` in the config
/// file, `[NAME]` in the credentials file; other sections (`[sso-session
/// x]`, `[services x]`) are not profiles. Lines starting with `#` or `;`
/// are comments; an indented `key = value` under `s3 =` is `s3.key`.
pub(crate) fn parse(text: &str, is_config: bool) -> HashMap<String, Keys> {
    let mut profiles: HashMap<String, Keys> = HashMap::new();
    let mut current: Option<String> = None;
    let mut parent: Option<String> = None;
    for line in text.lines() {
        let indented = line.starts_with([' ', '\t']);
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let section = section.trim();
            current = match (is_config, section.split_once(char::is_whitespace)) {
                (true, Some(("profile", name))) => Some(name.trim().to_string()),
                (true, Some(_)) => None,
                (true, None) if section == "default" => Some(section.to_string()),
                (true, None) => None,
                (false, _) => Some(section.to_string()),
            };
            parent = None;
            continue;
        }
        let (Some(profile), Some((key, value))) = (&current, line.split_once('=')) else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().to_string();
        let key = match (&parent, indented) {
            (Some(p), true) => format!("{p}.{key}"),
            _ => {
                parent = value.is_empty().then(|| key.clone());
                key
            }
        };
        profiles
            .entry(profile.clone())
            .or_default()
            .insert(key, value);
    }
    profiles
}

/// The credentials a profile's `credential_process` prints (the JSON the
/// AWS CLI documents: `Version` 1, `AccessKeyId`, `SecretAccessKey`,
/// `SessionToken`).
///
/// Its failures name the program and how it ended, never the rest of the
/// command line nor what it printed: both may hold tokens.
fn run_process(command: &str, name: &str, from: &str) -> Result<Credentials, String> {
    let program = program_name(command);
    let failed = |why: String| format!("profile `{name}`: credential_process `{program}` {why}");
    #[cfg(windows)]
    let output = std::process::Command::new("cmd")
        .args(["/C", command])
        .output();
    #[cfg(not(windows))]
    let output = std::process::Command::new("sh")
        .args(["-c", command])
        .output();
    let output = output.map_err(|e| failed(format!("did not start: {e}")))?;
    if !output.status.success() {
        return Err(failed(format!(
            "failed ({}); run it by hand to see why",
            output.status
        )));
    }
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| failed(format!("printed no JSON: {e}")))?;
    let field = |k: &str| json.get(k).and_then(|v| v.as_str()).map(str::to_string);
    match (field("AccessKeyId"), field("SecretAccessKey")) {
        (Some(id), Some(secret)) => Ok(Credentials {
            access_key_id: id,
            secret_access_key: secret,
            session_token: field("SessionToken"),
            from: format!("{from} (credential_process)"),
        }),
        _ => Err(failed(
            "printed no AccessKeyId and SecretAccessKey".to_string(),
        )),
    }
}

/// The program a command line runs: its first word, quotes taken off
/// (`"/opt/aws sso/get-token" --token X` is `/opt/aws sso/get-token`).
fn program_name(command: &str) -> &str {
    let command = command.trim_start();
    for quote in ['"', '\''] {
        if let Some(rest) = command.strip_prefix(quote) {
            return rest.split(quote).next().unwrap_or(rest);
        }
    }
    command.split_whitespace().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of<'a>(pairs: &'a [(&'a str, String)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn config_and_credentials_sections_are_read_as_the_cli_reads_them() {
        let config = "\
# a comment
[default]
region = eu-west-1

[profile ci]
region = us-east-2
endpoint_url = http://127.0.0.1:9000
s3 =
  addressing_style = virtual
; another comment
[sso-session corp]
sso_region = us-east-1
";
        let p = parse(config, true);
        assert_eq!(p["default"]["region"], "eu-west-1");
        assert_eq!(p["ci"]["endpoint_url"], "http://127.0.0.1:9000");
        assert_eq!(p["ci"]["s3.addressing_style"], "virtual");
        assert!(!p.contains_key("corp") && !p.contains_key("sso-session corp"));
        let c = parse(
            "[ci]\naws_access_key_id = AK\naws_secret_access_key = SK\n",
            false,
        );
        assert_eq!(c["ci"]["aws_access_key_id"], "AK");
    }

    #[test]
    fn a_profile_gives_region_endpoint_style_and_keys_with_their_source() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        let creds = dir.path().join("credentials");
        std::fs::write(
            &config,
            "[profile ci]\nregion = us-east-2\nendpoint_url = http://h:1\ns3 =\n    addressing_style = path\naws_access_key_id = FROM-CONFIG\naws_secret_access_key = X\n",
        )
        .unwrap();
        std::fs::write(
            &creds,
            "[ci]\naws_access_key_id = AK\naws_secret_access_key = SK\naws_session_token = T\n",
        )
        .unwrap();
        let vars = [
            ("AWS_PROFILE", "ci".to_string()),
            ("AWS_CONFIG_FILE", config.display().to_string()),
            ("AWS_SHARED_CREDENTIALS_FILE", creds.display().to_string()),
        ];
        let p = load(&env_of(&vars)).unwrap().unwrap();
        assert_eq!(p.region.as_deref(), Some("us-east-2"));
        assert_eq!(p.endpoint_url.as_deref(), Some("http://h:1"));
        assert_eq!(p.virtual_hosted, Some(false));
        let c = p.credentials.unwrap();
        // The credentials file wins over the config file.
        assert_eq!(c.access_key_id, "AK");
        assert_eq!(c.session_token.as_deref(), Some("T"));
        assert!(c.from.contains("profile `ci`") && c.from.contains("credentials"));
    }

    #[test]
    fn a_named_profile_that_is_missing_or_signs_in_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        std::fs::write(&config, "[profile sso]\nsso_session = corp\nregion = x\n").unwrap();
        let with = |profile: &str| {
            let vars = [
                ("AWS_PROFILE", profile.to_string()),
                ("AWS_CONFIG_FILE", config.display().to_string()),
                ("HOME", dir.path().display().to_string()),
            ];
            load(&env_of(&vars))
        };
        let missing = with("nope").unwrap_err();
        assert!(
            missing.contains("`nope`") && missing.contains("AWS_PROFILE"),
            "{missing}"
        );
        let sso = with("sso").unwrap_err();
        assert!(
            sso.contains("sso_session") && sso.contains("export-credentials"),
            "{sso}"
        );
        // No profile asked for and no files: nothing, not an error.
        let none = [("HOME", dir.path().join("empty").display().to_string())];
        assert_eq!(load(&env_of(&none)).unwrap(), None);
    }

    #[cfg(unix)]
    #[test]
    fn credential_process_output_is_used_and_its_failure_said() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        std::fs::write(
            &config,
            "[default]\ncredential_process = echo '{\"Version\": 1, \"AccessKeyId\": \"PK\", \"SecretAccessKey\": \"PS\", \"SessionToken\": \"PT\"}'\n[profile bad]\ncredential_process = sh -c 'echo expired SECRET-TOKEN >&2; exit 3' --token SECRET-TOKEN\n",
        )
        .unwrap();
        let vars = [("AWS_CONFIG_FILE", config.display().to_string())];
        let c = load(&env_of(&vars)).unwrap().unwrap().credentials.unwrap();
        assert_eq!(
            (c.access_key_id.as_str(), c.session_token.as_deref()),
            ("PK", Some("PT"))
        );
        let vars = [
            ("AWS_CONFIG_FILE", config.display().to_string()),
            ("AWS_PROFILE", "bad".to_string()),
        ];
        let e = load(&env_of(&vars)).unwrap_err();
        assert!(
            e.contains("credential_process `sh` failed (exit status: 3)"),
            "{e}"
        );
        assert!(!e.contains("SECRET") && !e.contains("expired"), "{e}");
        assert_eq!(program_name(" \"/opt/a b/t\" --k s"), "/opt/a b/t");
    }
}
