//! `bp net`, `bp auth`, `bp cookies`, `bp eval`.

use crate::args::{AuthCommand, CookieCommand, NetCommand};
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Map, Value};

fn header_map(items: &[String]) -> BpResult<Value> {
    let mut map = Map::new();
    for item in items {
        let (k, v) = item
            .split_once(':')
            .ok_or_else(|| BpError::invalid(format!("`{item}` is not NAME:VALUE")))?;
        map.insert(k.trim().to_string(), json!(v.trim()));
    }
    Ok(Value::Object(map))
}

/// A secret from stdin (first line, without the newline).
fn read_secret(what: &str) -> BpResult<String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| BpError::invalid(format!("cannot read the {what} from stdin: {e}")))?;
    let secret = line.trim_end_matches(['\r', '\n']).to_string();
    if secret.is_empty() {
        return Err(BpError::invalid(format!("no {what} on stdin")));
    }
    Ok(secret)
}

/// Arguments for a rule, limited to the current tab with `tab`.
async fn rule_args(s: &mut Session, mut args: Value, tab: bool) -> BpResult<Value> {
    if tab {
        let id = s.workspace_id().await?;
        let ws = s
            .request("workspaces/get", json!({"workspaceId": id}))
            .await?;
        let current = ws["currentTarget"].clone();
        if current.is_null() {
            return Err(BpError::invalid("no current tab; open one first"));
        }
        args["targetId"] = current;
    }
    Ok(args)
}

pub async fn net(s: &mut Session, command: NetCommand) -> BpResult<(Value, String)> {
    Ok(match command {
        NetCommand::Log { limit, since } => {
            let mut args = json!({});
            if let Some(l) = limit {
                args["limit"] = json!(l);
            }
            if let Some(x) = since {
                args["sinceSeq"] = json!(x);
            }
            let v = s.tool("browser.network.log", args).await?;
            let mut text = String::new();
            for r in v["requests"].as_array().into_iter().flatten() {
                let status = r["status"]
                    .as_u64()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "-".into());
                let rule = r["ruleId"]
                    .as_str()
                    .map(|id| format!(" [{id}]"))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "{:>5} {:<6} {:>3} {:<9} {:<10} {}{rule}\n",
                    r["seq"],
                    r["method"].as_str().unwrap_or(""),
                    status,
                    r["outcome"].as_str().unwrap_or(""),
                    r["resourceType"].as_str().unwrap_or(""),
                    r["url"].as_str().unwrap_or("")
                ));
            }
            (v, text)
        }
        NetCommand::Block { pattern, tab } => {
            let args = rule_args(s, json!({"pattern": pattern, "action": "block"}), tab).await?;
            let v = s.tool("browser.network.rules.add", args).await?;
            let text = format!("rule {}", v["ruleId"].as_str().unwrap_or(""));
            (v, text)
        }
        NetCommand::Mock {
            pattern,
            status,
            body,
            headers,
            tab,
        } => {
            let mock = json!({"status": status, "body": body, "headers": header_map(&headers)?});
            let args = rule_args(
                s,
                json!({"pattern": pattern, "action": "mock", "mock": mock}),
                tab,
            )
            .await?;
            let v = s.tool("browser.network.rules.add", args).await?;
            let text = format!("rule {}", v["ruleId"].as_str().unwrap_or(""));
            (v, text)
        }
        NetCommand::Headers {
            pattern,
            headers,
            tab,
        } => {
            let args =
                json!({"pattern": pattern, "action": "headers", "headers": header_map(&headers)?});
            let args = rule_args(s, args, tab).await?;
            let v = s.tool("browser.network.rules.add", args).await?;
            let text = format!("rule {}", v["ruleId"].as_str().unwrap_or(""));
            (v, text)
        }
        NetCommand::Rules => {
            let v = s.tool("browser.network.rules.list", json!({})).await?;
            let text = v["rules"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    format!(
                        "{} {:<7} {}\n",
                        r["ruleId"].as_str().unwrap_or(""),
                        r["action"].as_str().unwrap_or(""),
                        r["pattern"].as_str().unwrap_or("")
                    )
                })
                .collect();
            (v, text)
        }
        NetCommand::Clear { rule_id } => {
            let ids: Vec<String> = match rule_id {
                Some(id) => vec![id],
                None => {
                    let v = s.tool("browser.network.rules.list", json!({})).await?;
                    v["rules"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|r| r["ruleId"].as_str().map(str::to_string))
                        .collect()
                }
            };
            for id in &ids {
                s.tool("browser.network.rules.remove", json!({"ruleId": id}))
                    .await?;
            }
            (
                json!({"removed": ids.len()}),
                format!("removed {} rule(s)", ids.len()),
            )
        }
    })
}

pub async fn auth(s: &mut Session, command: AuthCommand) -> BpResult<(Value, String)> {
    Ok(match command {
        AuthCommand::Set { origin, username } => {
            let password = read_secret("password")?;
            let v = s
                .tool(
                    "browser.auth.set",
                    json!({"origin": origin, "username": username, "password": password}),
                )
                .await?;
            let text = format!("credentials set for {}", v["origin"].as_str().unwrap_or(""));
            (v, text)
        }
        AuthCommand::Clear { origin } => {
            let args = origin
                .map(|o| json!({"origin": o}))
                .unwrap_or_else(|| json!({}));
            let v = s.tool("browser.auth.clear", args).await?;
            let text = format!("cleared {}", v["cleared"]);
            (v, text)
        }
    })
}

pub async fn cookies(s: &mut Session, command: Option<CookieCommand>) -> BpResult<(Value, String)> {
    Ok(
        match command.unwrap_or(CookieCommand::Get { urls: Vec::new() }) {
            CookieCommand::Get { urls } => {
                let args = if urls.is_empty() {
                    json!({})
                } else {
                    json!({"urls": urls})
                };
                let v = s.tool("browser.cookies.get", args).await?;
                let text = v["cookies"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| {
                        format!(
                            "{}={} (domain {}, path {})\n",
                            c["name"].as_str().unwrap_or(""),
                            c["value"].as_str().unwrap_or(""),
                            c["domain"].as_str().unwrap_or(""),
                            c["path"].as_str().unwrap_or("")
                        )
                    })
                    .collect();
                (v, text)
            }
            CookieCommand::Set {
                name,
                value,
                domain,
                path,
                secure,
                http_only,
            } => {
                let value = match value {
                    Some(v) => v,
                    None => read_secret("cookie value")?,
                };
                let mut cookie =
                    json!({"name": name, "value": value, "secure": secure, "httpOnly": http_only});
                if let Some(d) = domain {
                    cookie["domain"] = json!(d);
                }
                if let Some(p) = path {
                    cookie["path"] = json!(p);
                }
                let v = s
                    .tool("browser.cookies.set", json!({"cookies": [cookie]}))
                    .await?;
                (v, "cookie set".to_string())
            }
            CookieCommand::Clear => {
                let v = s.tool("browser.cookies.clear", json!({})).await?;
                let text = format!("cleared {}", v["cleared"]);
                (v, text)
            }
        },
    )
}

pub async fn eval(s: &mut Session, expression: String) -> BpResult<(Value, String)> {
    let v = s
        .tool("browser.eval", json!({"expression": expression}))
        .await?;
    let text = serde_json::to_string_pretty(&v["value"]).unwrap_or_default();
    Ok((v, text))
}
