//! Cookie and script operations of a [`TargetCall`], and routing its
//! requests through the broker for the workspace's rules.

use crate::browser::call::TargetCall;
use crate::browser::types::Cookie;
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};

impl TargetCall {
    /// Make sure this target's requests pass through the broker.
    pub async fn ensure_interception(&self) -> BpResult<()> {
        crate::browser::workspace::enable_interception(&self.cdp, &self.registry, &self.raw_id)
            .await
    }

    fn page_url(&self) -> String {
        self.registry
            .with(&self.raw_id, |t| t.url.clone())
            .unwrap_or_default()
    }

    pub async fn get_cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.check()?;
        let urls = if urls.is_empty() {
            vec![self.page_url()]
        } else {
            urls
        };
        let reply = self
            .send("Network.getCookies", json!({"urls": urls}))
            .await?;
        Ok(reply["cookies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| Cookie {
                name: c["name"].as_str().unwrap_or_default().to_string(),
                value: c["value"].as_str().unwrap_or_default().to_string(),
                domain: c["domain"].as_str().unwrap_or_default().to_string(),
                path: c["path"].as_str().unwrap_or_default().to_string(),
                expires: c["expires"].as_f64().filter(|e| *e > 0.0),
                http_only: c["httpOnly"].as_bool().unwrap_or(false),
                secure: c["secure"].as_bool().unwrap_or(false),
                same_site: c["sameSite"].as_str().map(str::to_string),
            })
            .collect())
    }

    pub async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> BpResult<u32> {
        self.check()?;
        let url = self.page_url();
        let params: Vec<Value> = cookies
            .iter()
            .map(|c| {
                let mut v = json!({"name": c.name, "value": c.value, "path": c.path, "httpOnly": c.http_only, "secure": c.secure});
                if c.domain.is_empty() {
                    v["url"] = json!(url);
                } else {
                    v["domain"] = json!(c.domain);
                }
                if let Some(e) = c.expires {
                    v["expires"] = json!(e);
                }
                if let Some(s) = &c.same_site {
                    v["sameSite"] = json!(s);
                }
                v
            })
            .collect();
        self.mark_dispatched();
        self.send("Network.setCookies", json!({"cookies": params}))
            .await
            .map_err(|_| {
                BpError::invalid("the browser refused a cookie (check domain, path and flags)")
            })?;
        Ok(cookies.len() as u32)
    }

    pub async fn clear_cookies(&mut self) -> BpResult<u32> {
        let current = self.get_cookies(Vec::new()).await?;
        self.mark_dispatched();
        for c in &current {
            self.send(
                "Network.deleteCookies",
                json!({"name": c.name, "domain": c.domain, "path": c.path}),
            )
            .await?;
        }
        Ok(current.len() as u32)
    }

    pub async fn evaluate(&mut self, expression: &str) -> BpResult<String> {
        self.check()?;
        self.mark_dispatched();
        let reply = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true}),
            )
            .await?;
        if reply.get("exceptionDetails").is_some() {
            // The exception text is page data: keep it out of the error.
            return Err(BpError::new(
                Code::InvalidArgument,
                "the expression threw an exception",
            ));
        }
        Ok(reply["result"]
            .get("value")
            .cloned()
            .unwrap_or(Value::Null)
            .to_string())
    }
}
