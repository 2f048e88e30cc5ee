//! Broker outcomes as MCP tool results. A success keeps the broker's
//! result object as structured content (and the same JSON as text); a
//! screenshot or PDF preview also gets MCP image content read from the
//! artifact file, and a resource link to the artifact. A failure is an
//! `isError` result whose text starts `error[code]:`, with the code and
//! context in structured content. Both carry the command record in
//! `_meta["browser-pilot/command"]`.

use super::tools::META;
use base64::Engine as _;
use browser_pilot_host::BpError;
use serde_json::{json, Value};

/// Leading bytes of the image types an artifact may hold.
const SIGNATURES: &[(&str, &[u8])] = &[
    ("image/png", b"\x89PNG\r\n\x1a\n"),
    ("image/jpeg", b"\xff\xd8\xff"),
];

/// Largest image file sent inline.
const MAX_IMAGE_BYTES: u64 = 8 << 20;

fn text(v: &Value) -> Value {
    json!({"type": "text", "text": v.to_string()})
}

fn meta(command: &Value) -> Value {
    if command.is_null() {
        Value::Null
    } else {
        json!({format!("{META}command"): command})
    }
}

/// A success (as the JSON of a `CallToolResult`).
pub fn success(result: Value, command: &Value, full_size: bool) -> Value {
    let mut content = Vec::new();
    match image_of(&result, full_size) {
        Ok(Some(block)) => content.push(block),
        Ok(None) => {}
        Err(e) => return failure(&e, command),
    }
    content.push(text(&result));
    for key in ["artifact", "preview"] {
        if let Some(link) = resource_link(&result[key]) {
            content.push(link);
        }
    }
    let mut out = json!({"content": content, "structuredContent": result});
    let m = meta(command);
    if !m.is_null() {
        out["_meta"] = m;
    }
    out
}

/// A plain result of the session's own tools.
pub fn plain(v: Value) -> Value {
    json!({"content": [text(&v)], "structuredContent": v})
}

/// A failure: `error[code]: message`, then the context.
pub fn failure(e: &BpError, command: &Value) -> Value {
    let mut line = format!("error[{}]: {}", e.code.as_str(), e.message);
    if let Some(ctx) = &e.context {
        line.push_str(&format!("\ncontext: {ctx}"));
    }
    let mut out = json!({"content": [{"type": "text", "text": line}], "isError": true,
                         "structuredContent": {"error": e.to_json()}});
    let m = meta(command);
    if !m.is_null() {
        out["_meta"] = m;
    }
    out
}

/// The image block for a result's artifact (the bounded preview unless
/// `full_size`), read from its file and checked against its descriptor.
fn image_of(result: &Value, full_size: bool) -> Result<Option<Value>, BpError> {
    let preview = result.get("preview").filter(|p| p.is_object());
    let descriptor = match (preview, full_size) {
        (Some(p), false) => p,
        _ => match result.get("artifact").filter(|a| a.is_object()) {
            Some(a) => a,
            None => return Ok(None),
        },
    };
    let mime = descriptor["mime"].as_str().unwrap_or_default();
    let Some((_, signature)) = SIGNATURES.iter().find(|(m, _)| *m == mime) else {
        return Ok(None);
    };
    let bad = |why: String| BpError::internal(format!("cannot read the image artifact: {why}"));
    let path = descriptor["path"]
        .as_str()
        .ok_or_else(|| bad("its descriptor has no path".into()))?;
    let bytes = descriptor["bytes"].as_u64().unwrap_or(0);
    if bytes > MAX_IMAGE_BYTES {
        return Ok(None);
    }
    let data = std::fs::read(path).map_err(|e| bad(format!("{path}: {e}")))?;
    if data.len() as u64 != bytes || !data.starts_with(signature) {
        return Err(bad(format!("{path} does not match its descriptor")));
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(&data);
    Ok(Some(
        json!({"type": "image", "data": encoded, "mimeType": mime}),
    ))
}

/// The URI `resources/read` serves an artifact under.
pub fn artifact_uri(id: &str) -> String {
    format!("bp-artifact://{id}")
}

fn resource_link(descriptor: &Value) -> Option<Value> {
    let id = descriptor["artifactId"].as_str()?;
    let mut link = json!({"type": "resource_link", "uri": artifact_uri(id),
                          "name": id, "mimeType": descriptor["mime"]});
    if let Some(bytes) = descriptor["bytes"].as_u64() {
        link["size"] = json!(bytes);
    }
    Some(link)
}

#[cfg(test)]
mod tests {
    use super::*;
    use browser_pilot_host::Code;

    #[test]
    fn a_failure_leads_with_its_code_and_keeps_the_context() {
        let e = BpError::new(Code::StaleRef, "observe again")
            .with_context(json!({"reason": "navigation"}));
        let r = failure(&e, &json!({"commandId": "c1"}));
        assert_eq!(r["isError"], true);
        let t = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(t.starts_with("error[stale_ref]: observe again"), "{t}");
        assert!(t.contains("navigation"), "{t}");
        assert_eq!(r["structuredContent"]["error"]["code"], "stale_ref");
        assert_eq!(r["_meta"]["browser-pilot/command"]["commandId"], "c1");
    }

    #[test]
    fn a_result_without_an_image_is_its_json() {
        let r = success(json!({"observationId": "o1"}), &Value::Null, false);
        assert_eq!(r["structuredContent"]["observationId"], "o1");
        assert_eq!(r["content"].as_array().map(Vec::len), Some(1));
        assert!(r.get("_meta").is_none());
    }
}
