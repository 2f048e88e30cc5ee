//! Candidates for installed browsers that are not running.

use super::candidate::{candidate_id, Authorization, Candidate, Debugging};
use super::products::{on_disk, owner_of_launcher, Install, INSTALLS};
use super::Env;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn is_executable(p: &Path) -> bool {
    fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// One executable per known installation found on disk: table paths under
/// the install roots first, then launcher names on PATH (resolved through
/// symlinks to the installation they belong to).
fn found(env: &Env) -> Vec<(&'static Install, PathBuf)> {
    let mut out: Vec<(&'static Install, PathBuf)> = Vec::new();
    let mut add = |install: &'static Install, exe: PathBuf| {
        if !out.iter().any(|(i, _)| std::ptr::eq(*i, install)) {
            out.push((install, exe));
        }
    };
    for install in &INSTALLS {
        for root in &env.install_roots {
            for pattern in install.exe_paths {
                let exe = on_disk(root, pattern);
                if is_executable(&exe) {
                    add(install, exe);
                }
            }
        }
    }
    for install in &INSTALLS {
        for dir in &env.path_dirs {
            for name in install.path_names {
                let exe = dir.join(name);
                if is_executable(&exe) {
                    let resolved = fs::canonicalize(&exe).unwrap_or_else(|_| exe.clone());
                    add(owner_of_launcher(&resolved, install), exe);
                }
            }
        }
    }
    out.sort_by_key(|(i, _)| INSTALLS.iter().position(|x| std::ptr::eq(x, *i)));
    out
}

/// Installed browsers, each on its default user-data dir, not running.
pub(super) fn candidates(env: &Env) -> Vec<Candidate> {
    found(env)
        .into_iter()
        .map(|(install, exe)| {
            let user_data_dir = install.default_user_data_dir(&env.home);
            let remediation = format!(
                "start {} with --remote-debugging-port=0 --user-data-dir=<a separate dir> \
                 (the flag is ignored for the default profile)",
                exe.display()
            );
            Candidate {
                id: candidate_id(install.product, install.channel, &user_data_dir),
                product: install.product.to_string(),
                channel: install.channel.to_string(),
                executable: exe,
                user_data_dir,
                default_profile: true,
                pid: None,
                running: false,
                headless: false,
                debugging: Debugging::Off,
                authorization: Authorization::Unavailable,
                broker_owned: false,
                remediation: Some(remediation),
            }
        })
        .collect()
}
