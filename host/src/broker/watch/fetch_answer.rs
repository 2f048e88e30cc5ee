//! The broker's answer to a request the browser paused (`Fetch` domain):
//! let it through (maybe with headers), fail it, fulfil it with a mock, or
//! answer its auth challenge. Typed commands, sent without waiting on the
//! page.

use crate::cdp::Cdp;
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::fetch::{
    AuthChallengeResponse, AuthChallengeResponseResponse, ContinueRequestParams,
    ContinueWithAuthParams, FailRequestParams, FulfillRequestParams, HeaderEntry, RequestId,
};
use chromiumoxide::cdp::browser_protocol::network::ErrorReason;

/// One answer to a paused request.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchAnswer {
    Continue(ContinueRequestParams),
    Fail(FailRequestParams),
    Fulfill(FulfillRequestParams),
    Auth(ContinueWithAuthParams),
}

/// How to answer an auth challenge.
pub enum AuthAnswer {
    Credentials { username: String, password: String },
    Cancel,
    Default,
}

/// Headers in the protocol's list form.
fn header_list(h: &[(String, String)]) -> Vec<HeaderEntry> {
    h.iter()
        .map(|(name, value)| HeaderEntry::new(name.clone(), value.clone()))
        .collect()
}

impl FetchAnswer {
    /// Let the request through unchanged.
    pub fn pass(fetch_id: &str) -> Self {
        Self::Continue(ContinueRequestParams::new(RequestId::new(fetch_id)))
    }

    /// Let the request through with these headers (all of them).
    pub fn with_headers(fetch_id: &str, headers: &[(String, String)]) -> Self {
        let mut cont = ContinueRequestParams::new(RequestId::new(fetch_id));
        cont.headers = Some(header_list(headers));
        Self::Continue(cont)
    }

    /// Fail the request as blocked by the client.
    pub fn block(fetch_id: &str) -> Self {
        Self::Fail(FailRequestParams::new(
            RequestId::new(fetch_id),
            ErrorReason::BlockedByClient,
        ))
    }

    /// Answer with a response of our own; `body_base64` already encoded.
    pub fn fulfil(
        fetch_id: &str,
        status: u16,
        headers: &[(String, String)],
        body_base64: String,
    ) -> Self {
        let mut fulfil = FulfillRequestParams::new(RequestId::new(fetch_id), i64::from(status));
        fulfil.response_headers = Some(header_list(headers));
        fulfil.body = Some(body_base64.into());
        Self::Fulfill(fulfil)
    }

    /// Answer an auth challenge.
    pub fn auth(fetch_id: &str, answer: AuthAnswer) -> Self {
        let (response, username, password) = match answer {
            AuthAnswer::Credentials { username, password } => (
                AuthChallengeResponseResponse::ProvideCredentials,
                Some(username),
                Some(password),
            ),
            AuthAnswer::Cancel => (AuthChallengeResponseResponse::CancelAuth, None, None),
            AuthAnswer::Default => (AuthChallengeResponseResponse::Default, None, None),
        };
        Self::Auth(ContinueWithAuthParams::new(
            RequestId::new(fetch_id),
            AuthChallengeResponse {
                response,
                username,
                password,
            },
        ))
    }

    /// Send this answer on `session` (the browser session when `None`).
    pub async fn send(&self, cdp: &Cdp, session: Option<&str>) -> BpResult<()> {
        match self {
            Self::Continue(c) => cdp.send(c, session).await.map(drop),
            Self::Fail(c) => cdp.send(c, session).await.map(drop),
            Self::Fulfill(c) => cdp.send(c, session).await.map(drop),
            Self::Auth(c) => cdp.send(c, session).await.map(drop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wire(a: &FetchAnswer) -> serde_json::Value {
        match a {
            FetchAnswer::Continue(c) => serde_json::to_value(c),
            FetchAnswer::Fail(c) => serde_json::to_value(c),
            FetchAnswer::Fulfill(c) => serde_json::to_value(c),
            FetchAnswer::Auth(c) => serde_json::to_value(c),
        }
        .unwrap()
    }

    #[test]
    fn answers_serialise_as_the_string_calls_did() {
        assert_eq!(wire(&FetchAnswer::pass("f1")), json!({"requestId": "f1"}));
        assert_eq!(
            wire(&FetchAnswer::block("f1")),
            json!({"requestId": "f1", "errorReason": "BlockedByClient"})
        );
        let h = vec![("x-a".to_string(), "1".to_string())];
        assert_eq!(
            wire(&FetchAnswer::with_headers("f1", &h)),
            json!({"requestId": "f1", "headers": [{"name": "x-a", "value": "1"}]})
        );
        assert_eq!(
            wire(&FetchAnswer::fulfil("f1", 201, &h, "aGk=".into())),
            json!({"requestId": "f1", "responseCode": 201,
                   "responseHeaders": [{"name": "x-a", "value": "1"}], "body": "aGk="})
        );
        let creds = AuthAnswer::Credentials {
            username: "u".into(),
            password: "p".into(),
        };
        assert_eq!(
            wire(&FetchAnswer::auth("f1", creds)),
            json!({"requestId": "f1", "authChallengeResponse":
                   {"response": "ProvideCredentials", "username": "u", "password": "p"}})
        );
        assert_eq!(
            wire(&FetchAnswer::auth("f1", AuthAnswer::Default)),
            json!({"requestId": "f1", "authChallengeResponse": {"response": "Default"}})
        );
    }
}
