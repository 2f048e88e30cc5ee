//! The known Chromium-family products on Linux: where they are installed,
//! the names they have on PATH, and their default user-data dirs.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// One installable product/channel.
#[derive(Debug, PartialEq, Eq)]
pub struct Install {
    /// `chrome`, `chromium`, `edge` or `brave`.
    pub product: &'static str,
    /// `stable`, `beta`, `dev` or `canary`.
    pub channel: &'static str,
    /// The name a user knows it by, for messages.
    pub display: &'static str,
    /// Absolute executable paths; the first existing one is reported for an
    /// installation. A `*` component matches any one component (snap
    /// revisions); it stands for `current` when looking on disk.
    pub exe_paths: &'static [&'static str],
    /// Launcher names looked up on PATH.
    pub path_names: &'static [&'static str],
    /// The default user-data dir, relative to `$HOME`.
    pub config_dir: &'static str,
}

impl Install {
    pub fn default_user_data_dir(&self, home: &Path) -> PathBuf {
        home.join(self.config_dir)
    }
}

const fn install(
    product: &'static str,
    channel: &'static str,
    display: &'static str,
    exe_paths: &'static [&'static str],
    path_names: &'static [&'static str],
    config_dir: &'static str,
) -> Install {
    Install {
        product,
        channel,
        display,
        exe_paths,
        path_names,
        config_dir,
    }
}

/// Every known installation, in a fixed order.
pub static INSTALLS: [Install; 11] = [
    install(
        "chromium",
        "stable",
        "Chromium",
        &[
            "/usr/lib/chromium/chromium",
            "/usr/bin/chromium",
            "/usr/lib/chromium-browser/chromium-browser",
            "/usr/bin/chromium-browser",
        ],
        &["chromium", "chromium-browser"],
        ".config/chromium",
    ),
    install(
        "chromium",
        "stable",
        "Chromium (snap)",
        &[
            "/snap/chromium/*/usr/lib/chromium-browser/chrome",
            "/snap/bin/chromium",
        ],
        &["chromium", "chromium-browser"],
        "snap/chromium/common/chromium",
    ),
    install(
        "chrome",
        "stable",
        "Google Chrome",
        &["/opt/google/chrome/chrome"],
        &["google-chrome", "google-chrome-stable"],
        ".config/google-chrome",
    ),
    install(
        "chrome",
        "beta",
        "Google Chrome Beta",
        &["/opt/google/chrome-beta/chrome"],
        &["google-chrome-beta"],
        ".config/google-chrome-beta",
    ),
    install(
        "chrome",
        "dev",
        "Google Chrome Dev",
        &["/opt/google/chrome-unstable/chrome"],
        &["google-chrome-unstable"],
        ".config/google-chrome-unstable",
    ),
    install(
        "chrome",
        "canary",
        "Google Chrome Canary",
        &["/opt/google/chrome-canary/chrome"],
        &["google-chrome-canary"],
        ".config/google-chrome-canary",
    ),
    install(
        "edge",
        "stable",
        "Microsoft Edge",
        &["/opt/microsoft/msedge/msedge"],
        &["microsoft-edge", "microsoft-edge-stable"],
        ".config/microsoft-edge",
    ),
    install(
        "edge",
        "beta",
        "Microsoft Edge Beta",
        &["/opt/microsoft/msedge-beta/msedge"],
        &["microsoft-edge-beta"],
        ".config/microsoft-edge-beta",
    ),
    install(
        "edge",
        "dev",
        "Microsoft Edge Dev",
        &["/opt/microsoft/msedge-dev/msedge"],
        &["microsoft-edge-dev"],
        ".config/microsoft-edge-dev",
    ),
    install(
        "brave",
        "stable",
        "Brave",
        &["/opt/brave.com/brave/brave"],
        &["brave-browser", "brave-browser-stable"],
        ".config/BraveSoftware/Brave-Browser",
    ),
    install(
        "brave",
        "beta",
        "Brave Beta",
        &["/opt/brave.com/brave-beta/brave"],
        &["brave-browser-beta"],
        ".config/BraveSoftware/Brave-Browser-Beta",
    ),
];

/// A process executable recognised as a Chromium-family browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExeMatch {
    pub install: &'static Install,
    /// A headless shell (`headless_shell`, `chrome-headless-shell`): always
    /// headless.
    pub headless_shell: bool,
}

/// Strip the ` (deleted)` suffix the kernel adds to `/proc/PID/exe` when
/// the binary was replaced (e.g. by a package upgrade while running).
pub fn strip_deleted(path: &Path) -> PathBuf {
    let bytes = path.as_os_str().as_bytes();
    let stripped = bytes.strip_suffix(b" (deleted)").unwrap_or(bytes);
    PathBuf::from(OsStr::from_bytes(stripped))
}

/// Map a process executable path to a known product and channel: by a
/// table path (also under another root, e.g. `/x/opt/google/chrome/chrome`),
/// else by file name.
pub fn match_exe(exe: &Path) -> Option<ExeMatch> {
    let exe = strip_deleted(exe);
    let by_path = INSTALLS
        .iter()
        .find(|i| i.exe_paths.iter().any(|p| path_matches(&exe, p)));
    if let Some(install) = by_path {
        return Some(ExeMatch {
            install,
            headless_shell: false,
        });
    }
    let name = exe.file_name()?.to_str()?;
    let (product, headless_shell) = match name {
        "chrome" => ("chrome", false),
        "chromium" | "chromium-browser" => ("chromium", false),
        "msedge" => ("edge", false),
        "brave" => ("brave", false),
        "chrome-headless-shell" => ("chrome", true),
        "headless_shell" => ("chromium", true),
        _ => return None,
    };
    let install = INSTALLS
        .iter()
        .find(|i| i.product == product && i.channel == "stable")?;
    Some(ExeMatch {
        install,
        headless_shell,
    })
}

/// The installation a launcher found on PATH belongs to, after resolving
/// symlinks: `/usr/bin/google-chrome` may point into
/// `/opt/google/chrome-beta/`, `/snap/bin/chromium` points at `snap`.
pub fn owner_of_launcher(resolved: &Path, by_name: &'static Install) -> &'static Install {
    let is_snap = |i: &Install| i.exe_paths.iter().any(|p| p.starts_with("/snap/"));
    let snap_target = resolved.file_name().is_some_and(|n| n == "snap");
    let in_install_dir = |i: &&Install| {
        i.exe_paths.iter().any(|p| {
            path_matches(resolved, p)
                || Path::new(p).parent().is_some_and(|dir| {
                    dir.components().count() > 3
                        && resolved
                            .parent()
                            .is_some_and(|r| path_matches(r, &dir.to_string_lossy()))
                })
        })
    };
    if !snap_target {
        if let Some(i) = INSTALLS.iter().filter(|i| !is_snap(i)).find(in_install_dir) {
            return i;
        }
    }
    if is_snap(by_name) == snap_target {
        return by_name;
    }
    INSTALLS
        .iter()
        .find(|i| {
            is_snap(i) == snap_target
                && i.product == by_name.product
                && i.channel == by_name.channel
        })
        .unwrap_or(by_name)
}

/// Whether `exe` ends with the components of `pattern` (`*` matches one).
fn path_matches(exe: &Path, pattern: &str) -> bool {
    let e: Vec<&OsStr> = exe
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect();
    let p: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    if p.is_empty() || p.len() > e.len() {
        return false;
    }
    e[e.len() - p.len()..]
        .iter()
        .zip(&p)
        .all(|(a, b)| *b == "*" || a.as_bytes() == b.as_bytes())
}

/// A table path as it would be on disk under `root`.
pub fn on_disk(root: &Path, pattern: &str) -> PathBuf {
    let mut out = root.to_path_buf();
    for part in pattern.split('/').filter(|s| !s.is_empty()) {
        out.push(if part == "*" { "current" } else { part });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pc(p: &str) -> Option<(&'static str, &'static str, bool)> {
        match_exe(Path::new(p)).map(|m| (m.install.product, m.install.channel, m.headless_shell))
    }

    #[test]
    fn maps_known_paths() {
        assert_eq!(
            pc("/usr/lib/chromium/chromium"),
            Some(("chromium", "stable", false))
        );
        assert_eq!(
            pc("/opt/google/chrome-beta/chrome"),
            Some(("chrome", "beta", false))
        );
        assert_eq!(
            pc("/opt/google/chrome-unstable/chrome"),
            Some(("chrome", "dev", false))
        );
        assert_eq!(
            pc("/opt/microsoft/msedge-dev/msedge"),
            Some(("edge", "dev", false))
        );
        assert_eq!(
            pc("/opt/brave.com/brave/brave (deleted)"),
            Some(("brave", "stable", false))
        );
        let snap = match_exe(Path::new(
            "/snap/chromium/3012/usr/lib/chromium-browser/chrome",
        ));
        assert_eq!(
            snap.map(|m| m.install.config_dir),
            Some("snap/chromium/common/chromium")
        );
        assert_eq!(
            pc("/tmp/root/opt/google/chrome-canary/chrome"),
            Some(("chrome", "canary", false))
        );
    }

    #[test]
    fn maps_by_file_name() {
        assert_eq!(
            pc("/home/u/cft/chrome-linux64/chrome"),
            Some(("chrome", "stable", false))
        );
        assert_eq!(
            pc("/x/chrome-headless-shell"),
            Some(("chrome", "stable", true))
        );
        assert_eq!(pc("/x/headless_shell"), Some(("chromium", "stable", true)));
        assert_eq!(pc("/usr/bin/python3"), None);
        assert_eq!(pc("/opt/google/chrome/chrome_crashpad_handler"), None);
    }

    #[test]
    fn launchers_resolve_to_their_install() {
        let stable = &INSTALLS[2];
        let o = owner_of_launcher(Path::new("/opt/google/chrome-beta/google-chrome"), stable);
        assert_eq!((o.product, o.channel), ("chrome", "beta"));
        let o = owner_of_launcher(Path::new("/opt/google/chrome/google-chrome"), stable);
        assert_eq!((o.product, o.channel), ("chrome", "stable"));
        let o = owner_of_launcher(Path::new("/usr/bin/snap"), &INSTALLS[0]);
        assert_eq!(o.config_dir, "snap/chromium/common/chromium");
        let o = owner_of_launcher(Path::new("/usr/bin/chromium"), &INSTALLS[1]);
        assert_eq!(o.config_dir, ".config/chromium");
        let o = owner_of_launcher(Path::new("/home/u/bin/chromium"), &INSTALLS[1]);
        assert_eq!(o.config_dir, ".config/chromium");
    }

    #[test]
    fn on_disk_uses_current_for_snaps() {
        assert_eq!(
            on_disk(
                Path::new("/r"),
                "/snap/chromium/*/usr/lib/chromium-browser/chrome"
            ),
            PathBuf::from("/r/snap/chromium/current/usr/lib/chromium-browser/chrome")
        );
    }
}
