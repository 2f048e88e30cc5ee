//! Starting a broker-owned Chromium with an isolated temporary profile,
//! or on a persistent profile of the agent's own (see [`super::profile`]).

use super::profile::HeldProfile;
use super::window_size::WindowSize;
use crate::error::{BpError, BpResult, Code};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

/// Flags every broker-owned Chromium gets: quiet, isolated, no traffic of
/// its own.
const FLAGS: &[&str] = &[
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    // The omnibox popup pages Chromium 156 gives every window are WebUI
    // renderers; headless, with one window per workspace, they kept about
    // half a core busy while the browser was otherwise idle.
    "--disable-features=Translate,MediaRouter,OptimizationHints,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    // Tools pages declare for agents (`navigator.modelContext`), the
    // DevTools domain that lists them, and the browser's own invocation
    // API for browsers whose domain cannot call them (see page-tools.md).
    "--enable-features=WebMCP,WebMCPTesting,DevToolsWebMCPSupport",
    "--metrics-recording-only",
    "--disable-back-forward-cache",
    "--password-store=basic",
    "--use-mock-keychain",
    "--remote-debugging-port=0",
    // Chromium ignores unknown switches; discovery uses this one to tell
    // browsers Browser Pilot launched from the user's own.
    "--bp-broker-owned",
    "--remote-allow-origins=http://127.0.0.1",
];

/// Flags for a quiet headless Chromium started *as a user would* (tests and
/// the benchmark): its own port from `DevToolsActivePort`, nothing sent
/// off the machine. Add `--user-data-dir` and, as root, nothing else: the
/// sandbox is off here because these browsers run as root in CI.
pub const USER_LIKE_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
];

/// Start `exe` as a user would (see [`USER_LIKE_FLAGS`]) with `profile`,
/// showing `url`, in a process group of its own (so it can be ended whole).
pub fn spawn_user_like(
    exe: &Path,
    profile: &Path,
    url: &str,
) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    std::process::Command::new(exe)
        .args(USER_LIKE_FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
}

const EXECUTABLES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// A running broker-owned browser. [`LaunchedBrowser::end`] (or dropping
/// it) kills the process group and removes the temporary profile; a
/// persistent profile stays, and its lock is let go once the browser is
/// gone.
pub struct LaunchedBrowser {
    /// `None` once ended.
    child: std::sync::Mutex<Option<Child>>,
    pid: Option<u32>,
    profile: PathBuf,
    /// The persistent profile's lock (`None` for a temporary profile, or
    /// once ended).
    held: std::sync::Mutex<Option<HeldProfile>>,
    /// Whether the profile is persistent (kept when the browser ends).
    pub persistent: bool,
    pub ws_url: String,
    pub executable: PathBuf,
    /// The page area its windows are given.
    pub window: WindowSize,
}

/// Longest wait for a killed browser to exit before its profile goes.
const EXIT_WAIT: Duration = Duration::from_secs(2);

impl LaunchedBrowser {
    /// The browser's process ID.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// End the browser: kill its whole process group (renderers and
    /// utilities too), wait for it to exit, then remove its profile (a
    /// browser still flushing its cache would otherwise write the
    /// directory back). Only the first call does anything.
    ///
    /// The connection holding this is shared with the tasks that use it,
    /// so waiting for the last of them to drop it could outlast the broker
    /// itself: whoever retires the connection ends the browser.
    pub async fn end(&self) {
        let Some(child) = self.take_child() else {
            return;
        };
        let held = self.take_held();
        finish_off_executor(child, self.profile.clone(), held).await;
    }

    /// The profile directory the browser runs on.
    pub fn profile_dir(&self) -> &Path {
        &self.profile
    }

    fn take_held(&self) -> Option<HeldProfile> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    fn take_child(&self) -> Option<Child> {
        self.child
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

impl Drop for LaunchedBrowser {
    /// The paths that never call [`LaunchedBrowser::end`] (a connection
    /// that failed to open) end the browser here, off the executor when
    /// there is one.
    fn drop(&mut self) {
        let Some(child) = self.take_child() else {
            return;
        };
        let profile = std::mem::take(&mut self.profile);
        let held = self.take_held();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(move || finish(child, &profile, held))),
            Err(_) => finish(child, &profile, held),
        }
    }
}

/// Kill the browser's process group, wait (briefly) for it to exit, then
/// remove its profile, or, for a persistent one, let go of its lock.
/// Blocks.
fn finish(mut child: Child, profile: &Path, held: Option<HeldProfile>) {
    if held.is_some() {
        // A persistent profile is worth a clean exit: the browser writes
        // its cookies and session to disk when asked to stop, not when
        // killed.
        terminate_and_wait(&mut child);
    }
    kill_group(&mut child);
    wait_exit(&mut child, EXIT_WAIT);
    match held {
        Some(held) => drop(held),
        None => {
            remove_profile(profile);
        }
    }
}

/// [`finish`] on a blocking thread of its own, so the wait and the
/// removal run to completion even if the awaiting future is dropped (a
/// call's deadline passing mid-disconnect) and no executor thread is held.
async fn finish_off_executor(child: Child, profile: PathBuf, held: Option<HeldProfile>) {
    let _ = tokio::task::spawn_blocking(move || finish(child, &profile, held)).await;
}

/// Longest wait for a browser on a persistent profile to stop by itself.
const TERM_WAIT: Duration = Duration::from_secs(5);

/// Give a browser that was asked to close (`Browser.close`) at most
/// [`TERM_WAIT`] to exit, with its helper processes (the network service
/// writes the cookies), before anything is killed; one still running
/// then is sent SIGTERM first.
fn terminate_and_wait(child: &mut Child) {
    let Some(pid) = child.id().and_then(|pid| i32::try_from(pid).ok()) else {
        return;
    };
    wait_exit(child, TERM_WAIT);
    if matches!(child.try_wait(), Ok(None)) {
        // SAFETY: signalling the browser process this broker started.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        wait_exit(child, TERM_WAIT);
    }
    let started = Instant::now();
    // SAFETY: probing (signal 0) the process group this broker started.
    while unsafe { libc::kill(-pid, 0) } == 0 && started.elapsed() < TERM_WAIT {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Wait, at most `limit`, for `child` to exit.
fn wait_exit(child: &mut Child, limit: Duration) {
    let started = Instant::now();
    while matches!(child.try_wait(), Ok(None)) && started.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGKILL the browser's process group (it leads one of its own).
fn kill_group(child: &mut Child) {
    match child.id().and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: signalling the process group this broker started.
        Some(pid) => unsafe {
            libc::kill(-pid, libc::SIGKILL);
        },
        None => {
            let _ = child.start_kill();
        }
    }
}

/// Remove a profile directory; false if it could not be removed.
fn remove_profile(profile: &Path) -> bool {
    match std::fs::remove_dir_all(profile) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => {
            tracing::warn!("could not remove {}: {e}", profile.display());
            false
        }
    }
}

/// Remove the profiles of browsers launched by earlier brokers of this
/// home. Called by a broker that holds the home's serve lock, so no other
/// broker of the home can be using one; a broker killed outright (its
/// browser dies with it) leaves its profile behind, and this is where it
/// goes. Returns how many were removed.
pub fn remove_stale_profiles(profiles_dir: &Path) -> usize {
    // Only a real directory: a symlink put in its place is not followed.
    if !std::fs::symlink_metadata(profiles_dir).is_ok_and(|m| m.is_dir()) {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(profiles_dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("profile-"))
        .filter(|entry| remove_profile(&entry.path()))
        .count()
}

/// Find a Chromium-family executable on PATH.
pub fn find_executable() -> BpResult<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in EXECUTABLES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(BpError::new(
        Code::BrowserNotFound,
        "no Chromium found on PATH (looked for chromium, chromium-browser, google-chrome); install one or pass `executable`",
    ))
}

/// Start the browser in its own process group, dying with the broker.
fn spawn_owned(
    executable: &Path,
    profile: &Path,
    headless: bool,
    window: WindowSize,
) -> BpResult<Child> {
    let mut cmd = Command::new(executable);
    cmd.args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(window.switch());
    if headless {
        cmd.arg("--headless");
    }
    if is_root() {
        cmd.arg("--no-sandbox");
    }
    cmd.arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .process_group(0);
    // SAFETY: prctl(PR_SET_PDEATHSIG) is async-signal-safe; the browser dies
    // with the broker instead of outliving it.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    cmd.spawn().map_err(|e| {
        BpError::new(
            Code::BrowserNotFound,
            format!("cannot start {}: {e}", executable.display()),
        )
    })
}

/// Wait (at most 20 s) for the browser to write its DevTools port.
async fn devtools_url(child: &mut Child, profile: &Path) -> BpResult<String> {
    let port_file = profile.join("DevToolsActivePort");
    let started = Instant::now();
    loop {
        if let Ok(text) = tokio::fs::read_to_string(&port_file).await {
            let mut lines = text.lines();
            if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                if let Ok(port) = port.trim().parse::<u16>() {
                    return Ok(format!("ws://127.0.0.1:{port}{}", path.trim()));
                }
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(BpError::new(
                Code::BrowserNotFound,
                format!("the browser exited during start-up ({status})"),
            ));
        }
        if started.elapsed() > Duration::from_secs(20) {
            return Err(BpError::new(
                Code::BrowserNotFound,
                "the browser did not open its DevTools port within 20 s",
            ));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A browser that exits at once on a persistent profile most often found
/// the profile open in another browser (not launched by Browser Pilot),
/// and handed its window to it.
fn in_use_hint(e: BpError, persistent: bool) -> BpError {
    if !persistent || !e.message.contains("exited during start-up") {
        return e;
    }
    BpError::new(
        e.code,
        format!(
            "{}; is the profile open in another browser? Close it and try again",
            e.message
        ),
    )
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Launch Chromium with a fresh profile under `profiles_dir` (or on the
/// persistent profile `persistent`, held for the browser's life), its
/// windows' page area `window`.
pub async fn launch(
    executable: Option<PathBuf>,
    headless: bool,
    window: WindowSize,
    profiles_dir: &Path,
    persistent: Option<&Path>,
) -> BpResult<LaunchedBrowser> {
    let executable = match executable {
        Some(p) if p.is_file() => p,
        Some(p) => {
            return Err(BpError::new(
                Code::BrowserNotFound,
                format!("{} is not a file", p.display()),
            ))
        }
        None => find_executable()?,
    };
    crate::system::paths::ensure_private_dir(profiles_dir)?;
    let (profile, held) = match persistent {
        Some(dir) => {
            let held = super::profile::hold(dir)?;
            (held.dir.clone(), Some(held))
        }
        None => {
            let profile = profiles_dir.join(format!(
                "profile-{}-{}",
                std::process::id(),
                crate::ids::random_hex(6)
            ));
            crate::system::paths::ensure_private_dir(&profile)?;
            (profile, None)
        }
    };
    let persistent = held.is_some();
    let mut child = spawn_owned(&executable, &profile, headless, window)?;
    let ws_url = match devtools_url(&mut child, &profile).await {
        Ok(url) => url,
        Err(e) => {
            finish_off_executor(child, profile, held).await;
            return Err(in_use_hint(e, persistent));
        }
    };
    Ok(LaunchedBrowser {
        pid: child.id(),
        child: std::sync::Mutex::new(Some(child)),
        profile,
        held: std::sync::Mutex::new(held),
        persistent,
        ws_url,
        executable,
        window,
    })
}

#[cfg(test)]
mod tests {
    use super::remove_stale_profiles;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bp-launch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn stale_profiles_go_and_nothing_else_does() {
        let dir = scratch("stale");
        let profiles = dir.join("profiles");
        // An earlier broker's, and one that happens to carry this pid (a
        // container gives brokers the same pid run after run).
        let earlier = profiles.join("profile-1-abc");
        let same_pid = profiles.join(format!("profile-{}-def", std::process::id()));
        let other = profiles.join("keep-me");
        for d in [&earlier, &same_pid, &other] {
            std::fs::create_dir_all(d.join("Default")).unwrap();
        }
        assert_eq!(remove_stale_profiles(&profiles), 2);
        assert!(!earlier.exists() && !same_pid.exists());
        assert!(other.exists());
        assert_eq!(remove_stale_profiles(&dir.join("missing")), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symlink_in_place_of_the_profiles_dir_is_not_followed() {
        let dir = scratch("link");
        let target = dir.join("elsewhere");
        let victim = target.join("profile-1-abc");
        std::fs::create_dir_all(&victim).unwrap();
        let link = dir.join("profiles");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(remove_stale_profiles(&link), 0);
        assert!(victim.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
