//! Typed CDP commands and events.
//!
//! A command is one of chromiumoxide's generated protocol types (or one of
//! ours in [`super::webmcp`] for a domain it lacks): its method name comes
//! from the type, its parameters are serialised from the struct, and its
//! reply is read into the type's `Response`. Method names are never written
//! as strings at a call site.
//!
//! Where a reply's shape drifts between browser versions (a new enum value
//! in an accessibility tree would fail the whole reply), [`Cdp::send_raw`]
//! sends the typed command and hands back the reply as JSON for a reader
//! that tolerates what it does not know.

use super::{Cdp, Pending, COMMAND_TIMEOUT};
use crate::error::{BpError, BpResult};
use chromiumoxide::types::{Command, MethodType};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::time::Duration;

impl Cdp {
    /// Send `cmd` (on `session`, or to the browser when `None`) and read
    /// its typed reply.
    pub async fn send<C: Command>(&self, cmd: &C, session: Option<&str>) -> BpResult<C::Response> {
        self.send_timeout(cmd, session, COMMAND_TIMEOUT).await
    }

    /// [`Cdp::send`] with an explicit timeout.
    pub async fn send_timeout<C: Command>(
        &self,
        cmd: &C,
        session: Option<&str>,
        timeout: Duration,
    ) -> BpResult<C::Response> {
        let method = cmd.identifier();
        let reply = self
            .call_timeout(&method, session, params(cmd)?, timeout)
            .await?;
        decode::<C>(&method, reply)
    }

    /// Send `cmd` and hand back its reply as JSON, unread.
    pub async fn send_raw<C: Command>(&self, cmd: &C, session: Option<&str>) -> BpResult<Value> {
        self.call(&cmd.identifier(), session, params(cmd)?).await
    }

    /// Send `cmd` at once, its reply to be awaited later with
    /// [`Cdp::reply_to`] (or dropped): later commands go out after it.
    pub fn send_typed_now<C: Command>(&self, cmd: &C, session: Option<&str>) -> BpResult<Pending> {
        self.send_now(&cmd.identifier(), session, params(cmd)?)
    }

    /// The typed reply to a command of type `C` sent with
    /// [`Cdp::send_typed_now`].
    pub async fn reply_to<C: Command + MethodType>(
        rx: Pending,
        timeout: Duration,
    ) -> BpResult<C::Response> {
        let method = C::method_id();
        let reply = Self::reply(&method, rx, timeout).await?;
        decode::<C>(&method, reply)
    }
}

/// The parameters of `cmd` as JSON.
fn params<C: Command>(cmd: &C) -> BpResult<Value> {
    serde_json::to_value(cmd).map_err(|e| {
        BpError::internal(format!(
            "CDP {}: parameters not serialisable: {e}",
            cmd.identifier()
        ))
    })
}

/// The reply to `method` read as `C::Response`.
fn decode<C: Command>(method: &str, reply: Value) -> BpResult<C::Response> {
    read(method, reply)
}

/// `value` read as `T`, or an internal error naming `method`: the browser
/// answered in a shape this build does not know.
pub(crate) fn read<T: DeserializeOwned>(method: &str, value: Value) -> BpResult<T> {
    serde_json::from_value(value)
        .map_err(|e| BpError::internal(format!("CDP {method}: reply not understood: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chromiumoxide::cdp::browser_protocol::page::NavigateParams;
    use chromiumoxide::cdp::browser_protocol::target::GetTargetsParams;
    use std::sync::Arc;

    fn echo() -> Cdp {
        Cdp::scripted(Arc::new(|method, session, params| {
            Ok(match method {
                "Page.navigate" => serde_json::json!({
                    "frameId": "F1",
                    "loaderId": params["url"],
                    "session": session,
                }),
                "Target.getTargets" => serde_json::json!({"targetInfos": [{}]}),
                other => return Err(format!("unexpected {other}")),
            })
        }))
    }

    #[tokio::test]
    async fn a_typed_command_sends_its_method_and_params_and_reads_its_reply() {
        let cdp = echo();
        let reply = cdp
            .send(&NavigateParams::new("http://127.0.0.1/a"), Some("S1"))
            .await
            .unwrap();
        assert_eq!(reply.frame_id.as_ref(), "F1");
        assert_eq!(
            reply.loader_id.as_ref().map(AsRef::as_ref),
            Some("http://127.0.0.1/a")
        );
        assert_eq!(cdp.commands_sent(), 1);
    }

    #[tokio::test]
    async fn a_reply_in_an_unknown_shape_is_an_internal_error_naming_the_method() {
        let cdp = echo();
        let err = cdp
            .send(&GetTargetsParams::default(), None)
            .await
            .unwrap_err();
        assert!(err.message.contains("Target.getTargets"), "{err:?}");
        let raw = cdp
            .send_raw(&GetTargetsParams::default(), None)
            .await
            .unwrap();
        assert_eq!(raw["targetInfos"][0], serde_json::json!({}));
    }
}
