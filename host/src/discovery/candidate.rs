//! A discovered browser: the `Candidate` type, its stable id and its JSON.

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// Where a debugging port came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortSource {
    /// `--remote-debugging-port=N` with N > 0.
    Flag,
    /// The profile's `DevToolsActivePort` file (port 0, or no flag at all).
    PortFile,
}

impl PortSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PortSource::Flag => "flag",
            PortSource::PortFile => "port_file",
        }
    }
}

/// The debugging state of a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Debugging {
    Off,
    Port {
        port: u16,
        ws_path: Option<String>,
        source: PortSource,
    },
    /// `--remote-debugging-pipe`: only the launcher holds the pipe.
    Pipe,
    /// `--remote-debugging-port` on the default user-data dir, which
    /// Chromium 136+ ignores.
    IgnoredDefaultProfile {
        port: u16,
    },
    /// A `DevToolsActivePort` whose port is not held by this browser.
    StalePortFile,
}

impl Debugging {
    /// The wire spelling of the state.
    pub fn state(&self) -> &'static str {
        match self {
            Debugging::Off => "off",
            Debugging::Port { .. } => "on",
            Debugging::Pipe => "pipe",
            Debugging::IgnoredDefaultProfile { .. } => "ignored_default_profile",
            Debugging::StalePortFile => "stale_port_file",
        }
    }

    fn to_json(&self) -> Value {
        let mut v = json!({ "state": self.state() });
        match self {
            // The WebSocket path is never echoed: it is as good as the
            // endpoint itself to anyone who reads it.
            Debugging::Port { port, source, .. } => {
                v["port"] = json!(port);
                v["source"] = json!(source.as_str());
            }
            Debugging::IgnoredDefaultProfile { port } => v["port"] = json!(port),
            _ => {}
        }
        v
    }
}

/// Whether attaching needs the user's consent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authorization {
    /// Started with `--remote-debugging-port`.
    NotRequired,
    /// Debugging turned on at runtime (chrome://inspect/#remote-debugging,
    /// Chrome 144+): the browser may ask the user to allow a new client.
    MayPrompt,
    /// Debugging is not available.
    Unavailable,
}

impl Authorization {
    pub fn as_str(self) -> &'static str {
        match self {
            Authorization::NotRequired => "not_required",
            Authorization::MayPrompt => "may_prompt",
            Authorization::Unavailable => "unavailable",
        }
    }
}

/// One browser installation or running browser a client may attach to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// `<product>-<channel>-<first 8 hex of sha256(canonical user-data dir)>`.
    pub id: String,
    pub product: String,
    pub channel: String,
    pub executable: PathBuf,
    pub user_data_dir: PathBuf,
    /// Whether `user_data_dir` is the product's default one.
    pub default_profile: bool,
    pub pid: Option<u32>,
    pub running: bool,
    pub headless: bool,
    pub debugging: Debugging,
    pub authorization: Authorization,
    /// Launched by Browser Pilot itself (`--bp-broker-owned`).
    pub broker_owned: bool,
    /// One actionable line when the candidate is not viable.
    pub remediation: Option<String>,
}

impl Candidate {
    /// Running, with a debugging port, and not launched by Browser Pilot.
    pub fn viable(&self) -> bool {
        self.running && matches!(self.debugging, Debugging::Port { .. }) && !self.broker_owned
    }

    /// A remark that is no instruction: why a browser is listed but not
    /// picked.
    pub fn note(&self) -> Option<&'static str> {
        self.broker_owned
            .then_some("launched by Browser Pilot for another client")
    }

    pub fn endpoint_port(&self) -> Option<u16> {
        match self.debugging {
            Debugging::Port { port, .. } => Some(port),
            _ => None,
        }
    }

    /// `ws://HOST:PORT/PATH` when the WebSocket path is known; `host` is
    /// the literal address of the proven listener.
    pub fn ws_url(&self, host: &str) -> Option<String> {
        match &self.debugging {
            Debugging::Port {
                port,
                ws_path: Some(path),
                ..
            } => Some(format!("ws://{host}:{port}{path}")),
            _ => None,
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "product": self.product,
            "channel": self.channel,
            "executable": self.executable.to_string_lossy(),
            "userDataDir": self.user_data_dir.to_string_lossy(),
            "defaultProfile": self.default_profile,
            "pid": self.pid,
            "running": self.running,
            "headless": self.headless,
            "debugging": self.debugging.to_json(),
            "authorization": self.authorization.as_str(),
            "brokerOwned": self.broker_owned,
            "viable": self.viable(),
            "remediation": self.remediation,
            "note": self.note(),
        })
    }
}

/// The stable id of a product/channel/user-data dir.
pub fn candidate_id(product: &str, channel: &str, user_data_dir: &Path) -> String {
    let canon = canonical(user_data_dir);
    let digest = Sha256::digest(canon.as_os_str().as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("{product}-{channel}-{hex}")
}

/// The canonical form of a path: resolved through the filesystem when it
/// exists, else normalised lexically (`.` and `..` removed).
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Whether two paths name the same directory.
pub fn same_dir(a: &Path, b: &Path) -> bool {
    canonical(a) == canonical(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_is_stable_and_short() {
        let a = candidate_id("chromium", "stable", Path::new("/nonexistent/x/../y"));
        let b = candidate_id("chromium", "stable", Path::new("/nonexistent/y"));
        assert_eq!(a, b);
        assert!(a.starts_with("chromium-stable-"));
        assert_eq!(a.len(), "chromium-stable-".len() + 8);
    }

    #[test]
    fn json_shape() {
        let c = Candidate {
            id: "chrome-stable-00000000".into(),
            product: "chrome".into(),
            channel: "stable".into(),
            executable: "/opt/google/chrome/chrome".into(),
            user_data_dir: "/tmp/p".into(),
            default_profile: false,
            pid: Some(7),
            running: true,
            headless: false,
            debugging: Debugging::Port {
                port: 9222,
                ws_path: Some("/devtools/browser/abc".into()),
                source: PortSource::Flag,
            },
            authorization: Authorization::NotRequired,
            broker_owned: false,
            remediation: None,
        };
        let v = c.to_json();
        assert_eq!(v["debugging"]["state"], "on");
        assert_eq!(v["debugging"]["port"], 9222);
        assert_eq!(v["debugging"]["source"], "flag");
        assert_eq!(v["authorization"], "not_required");
        assert_eq!(v["userDataDir"], "/tmp/p");
        assert_eq!(v["viable"], true);
        assert!(v["debugging"].get("wsPath").is_none(), "{v}");
        assert_eq!(
            c.ws_url("127.0.0.1").as_deref(),
            Some("ws://127.0.0.1:9222/devtools/browser/abc")
        );
    }
}
