//! The cookies family: `browser.cookies.get|set|clear` for the leased
//! target's browser context. Cookie values are credentials.

wit_bindgen::generate!({
    world: "cookies",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::target_id_schema;
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::cookies_read::{self, Cookie};
use browser_pilot::tools::cookies_write;
use serde_json::{json, Value};

const MAX_COOKIES: usize = 200;

struct Cookies;

fn cookie_json(c: &Cookie) -> Value {
    json!({"name": c.name, "value": c.value, "domain": c.domain, "path": c.path, "expires": c.expires,
           "httpOnly": c.http_only, "secure": c.secure, "sameSite": c.same_site})
}

fn parse_cookie(v: &Value) -> Result<Cookie, ToolError> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let name = s("name")
        .filter(|n| !n.is_empty() && !n.contains(['=', ';', ' ']))
        .ok_or_else(|| invalid("each cookie needs a valid `name`"))?;
    let value = s("value").ok_or_else(|| invalid("each cookie needs a string `value`"))?;
    if value.contains(';') || value.chars().any(char::is_control) {
        return Err(invalid(
            "cookie values cannot contain `;` or control characters",
        ));
    }
    let same_site = s("sameSite");
    if same_site
        .as_deref()
        .is_some_and(|x| !matches!(x, "Strict" | "Lax" | "None"))
    {
        return Err(invalid("`sameSite` must be Strict, Lax or None"));
    }
    Ok(Cookie {
        name,
        value,
        domain: s("domain").unwrap_or_default(),
        path: s("path").unwrap_or_else(|| "/".to_string()),
        expires: v.get("expires").and_then(Value::as_f64),
        http_only: v.get("httpOnly").and_then(Value::as_bool).unwrap_or(false),
        secure: v.get("secure").and_then(Value::as_bool).unwrap_or(false),
        same_site,
    })
}

fn specs() -> Vec<ToolSpec> {
    let cookie = json!({"type": "object", "required": ["name", "value"], "properties": {
        "name": {"type": "string"}, "value": {"type": "string", "x-browser-pilot-sensitivity": ["credential"]},
        "domain": {"type": "string"}, "path": {"type": "string"}, "expires": {"type": "number"},
        "httpOnly": {"type": "boolean"}, "secure": {"type": "boolean"}, "sameSite": {"enum": ["Strict", "Lax", "None"]}}});
    vec![
        ToolSpec::read("browser.cookies.get", "Cookies the target's page would send (or for the given URLs).", &["cookies-read"])
            .schemas(
                json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema(),
                    "urls": {"type": "array", "items": {"type": "string"}}}}),
                json!({"type": "object", "properties": {"cookies": {"type": "array", "items": cookie.clone()}}}),
            )
            .sensitivity(&[], &["credential"]),
        ToolSpec::mutating("browser.cookies.set", "Set cookies (domain defaults to the target's host).", &["cookies-write"])
            .destructive()
            .schemas(
                json!({"type": "object", "additionalProperties": false, "required": ["cookies"], "properties": {
                    "targetId": target_id_schema(), "cookies": {"type": "array", "minItems": 1, "maxItems": MAX_COOKIES, "items": cookie}}}),
                json!({"type": "object", "properties": {"set": {"type": "integer"}}}),
            )
            .sensitivity(&["credential"], &[]),
        ToolSpec::mutating("browser.cookies.clear", "Delete the cookies of the target's current URL.", &["cookies-write"]).destructive().schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema()}}),
            json!({"type": "object", "properties": {"cleared": {"type": "integer"}}}),
        ),
    ]
}

impl Component for Cookies {
    fn specs() -> Vec<ToolSpec> {
        specs()
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        args.allow(&["targetId"]);
        match name {
            "browser.cookies.get" => {
                let urls = args.opt_str_list("urls")?.unwrap_or_default();
                args.finish()?;
                let cookies = cookies_read::get_cookies(&urls)?;
                Ok(json!({"cookies": cookies.iter().map(cookie_json).collect::<Vec<_>>()}))
            }
            "browser.cookies.set" => {
                let list = args
                    .opt_value("cookies")
                    .ok_or_else(|| invalid("`cookies` is required"))?;
                args.finish()?;
                let items = list
                    .as_array()
                    .ok_or_else(|| invalid("`cookies` must be a list"))?;
                if items.is_empty() || items.len() > MAX_COOKIES {
                    return Err(invalid(format!(
                        "`cookies` must hold 1 to {MAX_COOKIES} cookies"
                    )));
                }
                let cookies = items
                    .iter()
                    .map(parse_cookie)
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(json!({"set": cookies_write::set_cookies(&cookies)?}))
            }
            "browser.cookies.clear" => {
                args.finish()?;
                Ok(json!({"cleared": cookies_write::clear_cookies()?}))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Cookies);
