//! Our own CDP event type: chromiumoxide's JSON event drops `sessionId`.

use chromiumoxide::types::{EventMessage, Method, MethodId, MethodType};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// Method name of the synthetic event sent when the connection closes.
pub const DISCONNECTED: &str = "BrowserPilot.disconnected";

/// One CDP event with the flat session it belongs to.
#[derive(Debug, Clone, Deserialize)]
pub struct CdpEvent {
    pub method: String,
    #[serde(default)]
    pub params: Value,
    #[serde(rename = "sessionId", default)]
    pub session_id: Option<String>,
}

impl CdpEvent {
    pub(crate) fn disconnected() -> Self {
        Self {
            method: DISCONNECTED.to_string(),
            params: Value::Null,
            session_id: None,
        }
    }

    /// Whether this is an event of type `E` (one of chromiumoxide's
    /// generated event types, or of [`super::webmcp`]).
    pub fn is<E: MethodType>(&self) -> bool {
        self.method == E::method_id()
    }

    /// This event read as `E`, when it is one and its parameters are in
    /// the shape this build knows.
    pub fn parse<E: MethodType + DeserializeOwned>(&self) -> Option<E> {
        if !self.is::<E>() {
            return None;
        }
        E::deserialize(&self.params)
            .map_err(|e| tracing::debug!("{}: event not understood: {e}", self.method))
            .ok()
    }

    /// A string field of `params`.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.params.get(key).and_then(Value::as_str)
    }
}

impl Method for CdpEvent {
    fn identifier(&self) -> MethodId {
        self.method.clone().into()
    }
}

impl EventMessage for CdpEvent {
    fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
}
