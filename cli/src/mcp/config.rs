//! `bp mcp --print-config HOST`: the snippet that adds this server to an
//! agent host, with the flags given beside it.

use super::McpArgs;
use browser_pilot_host::BpResult;
use serde_json::json;

/// Agent hosts we print a snippet for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Host {
    Claude,
    Cursor,
    Vscode,
    Codex,
}

/// The `bp mcp` arguments the snippet passes on.
fn passed_args(a: &McpArgs) -> Vec<String> {
    let mut out = vec!["mcp".to_string()];
    if a.launch {
        out.push("--launch".into());
    }
    if a.headless {
        out.push("--headless".into());
    }
    for (flag, value) in [("--browser", &a.browser), ("--endpoint", &a.endpoint)] {
        if let Some(v) = value {
            out.extend([flag.to_string(), v.clone()]);
        }
    }
    for d in &a.deny {
        out.extend(["--deny".to_string(), d.clone()]);
    }
    for d in &a.deny_tools {
        out.extend(["--deny-tool".to_string(), d.clone()]);
    }
    if a.allow_eval {
        out.push("--allow-eval".into());
    }
    if a.allow_consequential {
        out.push("--allow-consequential".into());
    }
    if a.client_name != super::DEFAULT_CLIENT_NAME {
        out.extend(["--client-name".to_string(), a.client_name.clone()]);
    }
    if a.lease_ttl_ms != super::DEFAULT_LEASE_TTL_MS {
        out.extend(["--lease-ttl-ms".to_string(), a.lease_ttl_ms.to_string()]);
    }
    // Absolute: the host starts the server in a directory of its own.
    for r in &a.upload_roots {
        let r = std::path::absolute(r).unwrap_or_else(|_| r.clone());
        out.extend(["--upload-root".to_string(), r.display().to_string()]);
    }
    for o in &a.allowed_origins {
        out.extend(["--allowed-origin".to_string(), o.clone()]);
    }
    if a.full_size_images {
        out.push("--full-size-images".into());
    }
    out
}

/// The executable hosts should start: this one, by its full path.
fn command() -> String {
    std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "bp".into())
}

fn shell_word(w: &str) -> String {
    if w.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./:=".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

pub fn snippet(host: Host, a: &McpArgs) -> BpResult<String> {
    let cmd = command();
    let args = passed_args(a);
    let json_text =
        |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    Ok(match host {
        Host::Claude => {
            let words: Vec<String> = std::iter::once(cmd.as_str())
                .chain(args.iter().map(String::as_str))
                .map(shell_word)
                .collect();
            format!("claude mcp add browser-pilot -- {}\n", words.join(" "))
        }
        Host::Cursor => {
            json_text(json!({"mcpServers": {"browser-pilot": {"command": cmd, "args": args}}}))
        }
        Host::Vscode => json_text(
            json!({"servers": {"browser-pilot": {"type": "stdio", "command": cmd, "args": args}}}),
        ),
        Host::Codex => {
            let list: Vec<String> = args.iter().map(|a| json!(a).to_string()).collect();
            format!(
                "[mcp_servers.browser-pilot]\ncommand = {}\nargs = [{}]\n",
                json!(cmd),
                list.join(", ")
            )
        }
    })
}
