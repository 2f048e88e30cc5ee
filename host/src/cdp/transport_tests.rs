//! The CDP transport against small WebSocket servers on 127.0.0.1: the
//! framing, correlation and error mapping that `socket` and `run` own.

use super::*;
use async_tungstenite::tokio::{accept_async, TokioAdapter};
use async_tungstenite::WebSocketStream;
use serde_json::json;
use std::sync::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

type Server = WebSocketStream<TokioAdapter<TcpStream>>;

/// A DevTools-like address served once by `handler`.
async fn serve<F, Fut>(handler: F) -> String
where
    F: FnOnce(Server) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        handler(accept_async(stream).await.unwrap()).await;
    });
    format!("ws://{addr}/devtools/browser/test")
}

async fn next_json(ws: &mut Server) -> Value {
    loop {
        match ws.next().await {
            Some(Ok(WsMessage::Text(t))) => return serde_json::from_str(&t).unwrap(),
            Some(Ok(_)) => continue,
            other => panic!("server read {other:?}"),
        }
    }
}

#[tokio::test]
async fn pipelined_commands_are_correlated_and_events_reach_the_sink_first() {
    let url = serve(|mut ws| async move {
        let mut calls = Vec::new();
        for _ in 0..3 {
            calls.push(next_json(&mut ws).await);
        }
        // Sent in the order they were given, with distinct ids, and no
        // sessionId at all for the browser's own commands.
        let methods: Vec<&str> = calls.iter().map(|c| c["method"].as_str().unwrap()).collect();
        assert_eq!(methods, ["Page.navigate", "Bad.method", "Browser.getVersion"]);
        assert!(calls[0]["id"] != calls[1]["id"] && calls[1]["id"] != calls[2]["id"]);
        assert_eq!(calls[0]["sessionId"], "S1");
        assert!(calls[1].get("sessionId").is_none() && calls[2].get("sessionId").is_none());
        // An event, then the replies in reverse order, one refused.
        let event = json!({"method": "Page.loadEventFired", "params": {"t": 1}, "sessionId": "S1"});
        ws.send(WsMessage::text(event.to_string())).await.unwrap();
        for call in calls.iter().rev() {
            let reply = if call["method"] == "Bad.method" {
                json!({"id": call["id"], "error": {"code": -32601, "message": "'Bad.method' wasn't found"}})
            } else {
                json!({"id": call["id"], "result": {"echo": call["method"], "params": call["params"]}})
            };
            ws.send(WsMessage::text(reply.to_string())).await.unwrap();
        }
        // Keep the socket open until the client is done.
        let _ = ws.next().await;
    })
    .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink_seen = seen.clone();
    let cdp = Cdp::connect(
        &url,
        Arc::new(move |ev: &CdpEvent| sink_seen.lock().unwrap().push(ev.method.clone())),
    )
    .await
    .unwrap();
    let mut events = cdp.subscribe();
    let a = cdp
        .send_now("Page.navigate", Some("S1"), json!({"url": "about:blank"}))
        .unwrap();
    let b = cdp.send_now("Bad.method", None, json!({})).unwrap();
    let c = cdp.send_now("Browser.getVersion", None, json!({})).unwrap();
    let t = Duration::from_secs(5);
    // The first reply to arrive came after the event: the sink has it.
    let c = Cdp::reply("Browser.getVersion", c, t).await.unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        vec!["Page.loadEventFired".to_string()]
    );
    assert_eq!(c["echo"], "Browser.getVersion");
    let b = Cdp::reply("Bad.method", b, t).await.unwrap_err();
    assert_eq!(b.code, Code::ActionNotVerified, "{}", b.message);
    assert!(b.message.contains("wasn't found"), "{}", b.message);
    let a = Cdp::reply("Page.navigate", a, t).await.unwrap();
    assert_eq!(
        a,
        json!({"echo": "Page.navigate", "params": {"url": "about:blank"}})
    );
    let ev = events.recv().await.unwrap();
    assert_eq!(
        (ev.method.as_str(), ev.session_id.as_deref()),
        ("Page.loadEventFired", Some("S1"))
    );
    assert_eq!(cdp.commands_sent(), 3);
}

#[tokio::test]
async fn a_message_larger_than_the_default_frame_limit_arrives_whole() {
    // 20 MiB: tungstenite refuses frames over 16 MiB unless told not to.
    const BIG: usize = 20 << 20;
    let url = serve(|mut ws| async move {
        let call = next_json(&mut ws).await;
        let reply = json!({"id": call["id"], "result": {"data": "x".repeat(BIG)}});
        ws.send(WsMessage::text(reply.to_string())).await.unwrap();
        let _ = ws.next().await;
    })
    .await;
    let cdp = Cdp::connect(&url, Arc::new(|_| {})).await.unwrap();
    let got = cdp
        .call_timeout(
            "Accessibility.getFullAXTree",
            None,
            json!({}),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
    assert_eq!(got["data"].as_str().map(str::len), Some(BIG));
}

#[tokio::test]
async fn close_fails_a_pending_command_at_once_and_sends_nothing_more() {
    let (tx, rx) = tokio::sync::oneshot::channel::<Vec<String>>();
    let url = serve(|mut ws| async move {
        // Never answer; report every method that arrives until the client
        // goes away.
        let mut got = Vec::new();
        while let Some(Ok(WsMessage::Text(t))) = ws.next().await {
            let v: Value = serde_json::from_str(&t).unwrap();
            got.push(v["method"].as_str().unwrap_or_default().to_string());
        }
        let _ = tx.send(got);
    })
    .await;
    let cdp = Cdp::connect(&url, Arc::new(|_| {})).await.unwrap();
    let pending = cdp.send_now("Runtime.evaluate", None, json!({})).unwrap();
    // Wait until it is on the wire, then close.
    tokio::time::sleep(Duration::from_millis(50)).await;
    cdp.close();
    let err = Cdp::reply("Runtime.evaluate", pending, Duration::from_secs(5))
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BrowserDisconnected, "{}", err.message);
    let later = cdp
        .call("Input.insertText", None, json!({"text": "x"}))
        .await
        .unwrap_err();
    assert_eq!(later.code, Code::BrowserDisconnected, "{}", later.message);
    let got = tokio::time::timeout(Duration::from_secs(5), rx)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, ["Runtime.evaluate"]);
}

#[tokio::test]
async fn the_socket_has_nagle_off() {
    let url = serve(|mut ws| async move {
        let _ = ws.next().await;
    })
    .await;
    let ws = socket::open(&url).await.unwrap();
    assert!(ws.get_ref().get_ref().nodelay().unwrap());
}

#[tokio::test]
async fn a_closed_socket_fails_pending_and_later_commands_as_disconnected() {
    let url = serve(|mut ws| async move {
        let _ = next_json(&mut ws).await;
        let _ = ws.close(None).await;
    })
    .await;
    let cdp = Cdp::connect(&url, Arc::new(|_| {})).await.unwrap();
    let mut events = cdp.subscribe();
    let err = cdp
        .call("Browser.getVersion", None, json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BrowserDisconnected, "{}", err.message);
    let ev = events.recv().await.unwrap();
    assert_eq!(ev.method, event::DISCONNECTED);
    assert!(cdp.is_closed());
    let err = cdp
        .call("Browser.getVersion", None, json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BrowserDisconnected, "{}", err.message);
}

#[tokio::test]
async fn an_http_refusal_is_browser_not_authorized() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let mut got = Vec::new();
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = s.read(&mut buf).await.unwrap();
            assert!(n > 0, "the client hung up before its request ended");
            got.extend_from_slice(&buf[..n]);
        }
        s.write_all(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            .await
            .unwrap();
    });
    let url = format!("ws://{addr}/devtools/browser/x");
    let err = Cdp::connect(&url, Arc::new(|_| {})).await.err().unwrap();
    assert_eq!(err.code, Code::BrowserNotAuthorized, "{}", err.message);
    let context = err.context.unwrap();
    assert_eq!(context["authorization"], "refused");
    assert_eq!(context["httpStatus"], 403);
}

#[tokio::test]
async fn an_unreachable_or_unsupported_address_is_browser_not_found() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    for url in [
        format!("ws://127.0.0.1:{port}/devtools/browser/x"),
        format!("wss://127.0.0.1:{port}/devtools/browser/x"),
        "not a url".to_string(),
    ] {
        let err = Cdp::connect(&url, Arc::new(|_| {})).await.err().unwrap();
        assert_eq!(err.code, Code::BrowserNotFound, "{url}: {}", err.message);
        assert_eq!(err.context.unwrap()["reason"], "unreachable", "{url}");
    }
}
