//! Argument checks for rules and credentials.

use crate::browser_pilot::tools::network_modify::{Header, MockResponse, RuleAction};
use bp_sdk::{invalid, Args, ToolError};
use serde_json::Value;

const MAX_BODY: usize = 1 << 20;
const MAX_HEADERS: usize = 64;

pub fn pattern(p: &str) -> Result<String, ToolError> {
    let p = p.trim();
    if p.is_empty() || p.len() > 2048 || p.chars().any(char::is_control) {
        return Err(invalid(
            "`pattern` must be a URL glob of 1 to 2048 printable characters",
        ));
    }
    Ok(p.to_string())
}

fn token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn headers(v: Option<&Value>, what: &str) -> Result<Vec<Header>, ToolError> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let map = v
        .as_object()
        .ok_or_else(|| invalid(format!("`{what}` must be an object of strings")))?;
    if map.len() > MAX_HEADERS {
        return Err(invalid(format!("at most {MAX_HEADERS} headers")));
    }
    map.iter()
        .map(|(name, value)| {
            let value = value
                .as_str()
                .ok_or_else(|| invalid(format!("header `{name}` must be a string")))?;
            if !token(name) || value.chars().any(|c| c == '\r' || c == '\n') {
                return Err(invalid(format!("invalid header `{name}`")));
            }
            Ok(Header {
                name: name.clone(),
                value: value.to_string(),
            })
        })
        .collect()
}

pub fn action(args: &mut Args) -> Result<RuleAction, ToolError> {
    let action = args.str("action")?;
    let mock = args.opt_value("mock");
    let hdrs = args.opt_value("headers");
    match action.as_str() {
        "block" if mock.is_none() && hdrs.is_none() => Ok(RuleAction::Block),
        "mock" if hdrs.is_none() => {
            let m = mock.unwrap_or(Value::Null);
            let status = match m.get("status") {
                None | Some(Value::Null) => 200,
                Some(v) => v
                    .as_u64()
                    .ok_or_else(|| invalid("`mock.status` must be an integer"))?,
            };
            if !(100..=599).contains(&status) {
                return Err(invalid("`mock.status` must be 100..=599"));
            }
            let body = match m.get("body") {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) if s.len() <= MAX_BODY => s.clone(),
                Some(_) => return Err(invalid("`mock.body` must be a string of at most 1 MiB")),
            };
            Ok(RuleAction::Mock(MockResponse {
                status: status as u16,
                headers: headers(m.get("headers"), "mock.headers")?,
                body,
            }))
        }
        "headers" if mock.is_none() => {
            let h = headers(hdrs.as_ref(), "headers")?;
            if h.is_empty() {
                return Err(invalid("`headers` must name at least one header"));
            }
            Ok(RuleAction::Headers(h))
        }
        "block" | "mock" | "headers" => Err(invalid(
            "`mock` goes with action mock, `headers` with action headers",
        )),
        other => Err(invalid(format!(
            "unknown action `{other}` (block, mock, headers)"
        ))),
    }
}

/// `scheme://host[:port]`, lower-cased, http or https only.
pub fn origin(o: &str) -> Result<String, ToolError> {
    let o = o.trim().trim_end_matches('/').to_ascii_lowercase();
    let rest = o
        .strip_prefix("http://")
        .or_else(|| o.strip_prefix("https://"))
        .ok_or_else(|| invalid("`origin` must be http(s)://host[:port]"))?;
    if rest.is_empty()
        || rest.contains('/')
        || rest.contains('@')
        || rest.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(invalid(
            "`origin` must be http(s)://host[:port] without a path",
        ));
    }
    Ok(o)
}
