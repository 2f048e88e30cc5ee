//! The DevTools WebSocket itself: async-tungstenite over a TCP stream this
//! module opens, so that Nagle's algorithm can be turned off.
//!
//! With Nagle on (chromiumoxide's `Connection` leaves it on), a command
//! sent while an earlier one is unanswered waits in the kernel for the
//! browser's acknowledgement, which rides on the earlier reply: two
//! pipelined commands cost two round trips. Measured on a warm broker
//! (60 interleaved pairs), a one-shot `bp click` took 18 ms with Nagle and
//! 14 ms without (a click's press goes out behind its pointer move).

use async_tungstenite::tokio::TokioAdapter;
use async_tungstenite::tungstenite::client::IntoClientRequest;
use async_tungstenite::tungstenite::error::UrlError;
use async_tungstenite::tungstenite::protocol::WebSocketConfig;
use async_tungstenite::tungstenite::{Error as WsError, Message as WsMessage};
use async_tungstenite::{WebSocketSender, WebSocketStream};
use futures::SinkExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// An open DevTools WebSocket.
pub(crate) type Ws = WebSocketStream<TokioAdapter<TcpStream>>;

/// Connect to `ws_url` (a `ws://host:port/...` DevTools address) with
/// `TCP_NODELAY` set and no limit on message size (a page's whole
/// accessibility tree can be tens of megabytes).
pub(crate) async fn open(ws_url: &str) -> Result<Ws, WsError> {
    let request = ws_url.into_client_request()?;
    let uri = request.uri();
    if uri.scheme_str() != Some("ws") {
        return Err(WsError::Url(UrlError::UnsupportedUrlScheme));
    }
    let host = uri
        .host()
        .ok_or(WsError::Url(UrlError::NoHostName))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = uri.port_u16().unwrap_or(80);
    let stream = TcpStream::connect((host.as_str(), port)).await?;
    stream.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .max_message_size(None)
        .max_frame_size(None);
    let (ws, _) =
        async_tungstenite::tokio::client_async_with_config(request, stream, Some(config)).await?;
    Ok(ws)
}

/// Write every text handed to the returned sender, in order. Texts that
/// are already queued when one is written go out with it in one flush.
/// The task ends when the sender is dropped, a write fails or `stop` is
/// set (checked before each text, so nothing queued goes out after the
/// connection was closed).
pub(crate) fn spawn_writer(
    mut sink: WebSocketSender<TokioAdapter<TcpStream>>,
    stop: Arc<AtomicBool>,
) -> (mpsc::UnboundedSender<String>, tokio::task::JoinHandle<()>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let task = tokio::spawn(async move {
        while let Some(first) = rx.recv().await {
            let mut batch = Ok(());
            let mut next = Some(first);
            while let (Some(text), Ok(())) = (next.take(), &batch) {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                batch = sink.feed(WsMessage::text(text)).await;
                next = rx.try_recv().ok();
            }
            if let Err(e) = batch.and(sink.flush().await) {
                tracing::warn!("CDP WebSocket write failed: {e}");
                return;
            }
        }
    });
    (tx, task)
}
