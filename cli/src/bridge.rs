//! `bp bridge --stdio`: newline-delimited JSON-RPC 2.0 on stdin/stdout,
//! relayed to the per-user broker, which implements the protocol. Stdout
//! carries protocol messages only; diagnostics go to stderr.

use browser_pilot_host::broker::rpc::MAX_MESSAGE_BYTES;
use browser_pilot_host::client::ensure_broker;
use browser_pilot_host::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// A protocol error written by the bridge itself (the broker writes all
/// others).
fn bridge_error(code: i64, e: &BpError) -> String {
    let mut line = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": e.message, "data": e.to_json()}})
        .to_string();
    line.push('\n');
    line
}

pub async fn run() -> BpResult<()> {
    let paths = Paths::from_env()?;
    // Start or find the broker, then relay over a plain Unix stream (its
    // write half can be shut down to signal end of input).
    drop(ensure_broker(&paths, &["broker", "serve"]).await?);
    let stream = tokio::net::UnixStream::connect(&paths.socket)
        .await
        .map_err(|e| BpError::internal(format!("cannot reach the broker: {e}")))?;
    let (from_broker, mut to_broker) = stream.into_split();
    let io = |e: std::io::Error| BpError::internal(format!("bridge I/O: {e}"));

    // Broker -> stdout, line by line, flushed per message.
    let downstream = async {
        let mut from_broker = BufReader::new(from_broker);
        let mut stdout = tokio::io::stdout();
        let mut line = Vec::new();
        loop {
            line.clear();
            if from_broker.read_until(b'\n', &mut line).await.map_err(io)? == 0 {
                return Ok::<(), BpError>(());
            }
            stdout.write_all(&line).await.map_err(io)?;
            stdout.flush().await.map_err(io)?;
        }
    };
    // Stdin -> broker, never buffering more than one bounded message.
    let upstream = async {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = (&mut stdin)
                .take(MAX_MESSAGE_BYTES as u64 + 1)
                .read_until(b'\n', &mut line)
                .await
                .map_err(io)?;
            if n == 0 {
                // Half-close: the broker finishes what it accepted, then
                // closes its side.
                let _ = to_broker.shutdown().await;
                return Ok::<bool, BpError>(false);
            }
            if line.len() > MAX_MESSAGE_BYTES && !line.ends_with(b"\n") {
                let e = BpError::new(
                    Code::ResultTooLarge,
                    format!("message larger than {MAX_MESSAGE_BYTES} bytes"),
                );
                let mut stdout = tokio::io::stdout();
                stdout
                    .write_all(bridge_error(-32600, &e).as_bytes())
                    .await
                    .map_err(io)?;
                stdout.flush().await.map_err(io)?;
                return Ok(true);
            }
            if !line.ends_with(b"\n") {
                line.push(b'\n');
            }
            to_broker.write_all(&line).await.map_err(io)?;
        }
    };
    tokio::pin!(downstream, upstream);
    tokio::select! {
        // The broker closed the connection (shutdown, or a fatal framing
        // error it already answered).
        r = &mut downstream => r,
        r = &mut upstream => match r? {
            true => Err(BpError::new(Code::ResultTooLarge, "oversized message; bridge closed")),
            // Stdin closed: deliver what the broker still sends for requests
            // already relayed, then stop.
            false => {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(30), downstream).await;
                Ok(())
            }
        },
    }
}
