//! What `bp mcp` writes to stdout, line by line. rmcp answers a request
//! whose `id` it could not read (`"id": {}`, a wrong `jsonrpc`) with an
//! error that has no `id` at all; JSON-RPC 2.0 says such an error carries
//! `"id": null`, and clients that match replies by `id` need it. Each line
//! rmcp writes passes through here, and only such an error is changed.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;

/// How rmcp starts an error reply that has no `id`.
const NO_ID: &[u8] = br#"{"jsonrpc":"2.0","error":"#;
/// The same start, with the `id` JSON-RPC asks for.
const NULL_ID: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":"#;
/// Room for one message in flight between rmcp and stdout.
const PIPE: usize = 1 << 20;

/// The writer to give rmcp, and the task that copies what it writes to
/// stdout (it ends when rmcp drops the writer, after the last line).
pub fn stdout() -> (DuplexStream, JoinHandle<()>) {
    let (writer, reader) = tokio::io::duplex(PIPE);
    let copy = tokio::spawn(async move {
        let mut reader = BufReader::with_capacity(PIPE, reader);
        let mut out = tokio::io::stdout();
        let mut line = Vec::with_capacity(64 << 10);
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let fixed = with_null_id(&line);
            if out.write_all(&fixed).await.is_err() {
                break;
            }
            // Flush once nothing more is waiting, so a burst goes out in
            // one write and a lone reply at once.
            if reader.buffer().is_empty() && out.flush().await.is_err() {
                break;
            }
        }
        let _ = out.flush().await;
    });
    (writer, copy)
}

/// `line` with `"id":null` added when it is an error reply without an ID.
fn with_null_id(line: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    match line.strip_prefix(NO_ID) {
        Some(rest) => {
            let mut fixed = Vec::with_capacity(line.len() + 10);
            fixed.extend_from_slice(NULL_ID);
            fixed.extend_from_slice(rest);
            std::borrow::Cow::Owned(fixed)
        }
        None => std::borrow::Cow::Borrowed(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_error_without_an_id_gets_a_null_one() {
        let bare = br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;
        let fixed = with_null_id(bare);
        let v: serde_json::Value = serde_json::from_slice(&fixed).unwrap_or_default();
        assert!(v.get("id").is_some_and(|id| id.is_null()), "{v}");
        assert_eq!(v["error"]["code"], -32600);
        for kept in [
            &br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"x"}}"#[..],
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
        ] {
            assert_eq!(&*with_null_id(kept), kept);
        }
    }
}
