//! The connection's lifecycle methods: `initialize` (versions, grants,
//! limits), `broker/stop` and `broker/status`.

use super::*;

fn lowered(params: &Value, key: &str, current: usize) -> BpResult<usize> {
    match params["limits"].get(key) {
        None | Some(Value::Null) => Ok(current),
        Some(v) => {
            let n = v
                .as_u64()
                .filter(|n| *n >= MIN_NEGOTIATED_BYTES)
                .ok_or_else(|| {
                    BpError::invalid(format!(
                        "`limits.{key}` must be an integer of at least {MIN_NEGOTIATED_BYTES}"
                    ))
                })?;
            Ok(current.min(usize::try_from(n).unwrap_or(usize::MAX)))
        }
    }
}

pub(super) fn initialize(
    conn: &mut Connection,
    params: &Value,
    offered: &[&'static str],
) -> BpResult<Value> {
    if conn.principal.is_some() {
        return Err(BpError::invalid(
            "`initialize` was already called on this connection",
        ));
    }
    let name = params["client"]["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .unwrap_or("anonymous");
    if name.len() > 128 {
        return Err(BpError::invalid(
            "`client.name` is longer than 128 characters",
        ));
    }
    // A client that must not work with another build says so up front, so
    // requests sent right behind `initialize` never reach a wrong broker.
    if let Some(wanted) = params["require"].get("serviceVersion") {
        if wanted.as_str() != Some(VERSION) {
            return Err(BpError::new(
                Code::ProtocolIncompatible,
                format!("the running broker is version {VERSION}, the client requires {wanted}; stop it with `bp broker stop`"),
            )
            .with_context(json!({"service": {"version": VERSION}})));
        }
    }
    let min = params["protocol"]["min"].as_str().unwrap_or(PROTOCOL_MIN);
    let max = params["protocol"]["max"].as_str().unwrap_or(min);
    let (Some(cmin), Some(cmax)) = (parse_version(min), parse_version(max)) else {
        return Err(BpError::invalid(
            "`protocol.min` and `protocol.max` must look like 1.0",
        ));
    };
    let (smin, smax) = ((1, 0), (1, 1));
    let lo = cmin.max(smin);
    let hi = cmax.min(smax);
    if lo > hi || cmin > cmax {
        return Err(BpError::new(Code::ProtocolIncompatible, "no protocol version in common").with_context(json!({
            "client": {"min": min, "max": max}, "service": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX}})));
    }
    // Protocol 1.1 lets the client lower the transport limits.
    let (max_message, max_result) = if hi >= (1, 1) {
        (
            lowered(params, "maxMessageBytes", conn.max_message)?,
            lowered(params, "maxResultBytes", conn.max_result)?,
        )
    } else {
        (conn.max_message, conn.max_result)
    };
    let requested: Vec<&str> = params["capabilities"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let supported: Vec<&str> = offered.to_vec();
    let granted: Vec<&str> = requested
        .iter()
        .copied()
        .filter(|c| supported.contains(c))
        .collect();
    // Nothing fails from here on: a failed `initialize` changed nothing.
    conn.max_message = max_message;
    conn.max_result = max_result;
    conn.grants = Grants::from_names(&granted);
    conn.principal = Some(identity::principal_of(name, &conn.id));
    Ok(json!({
        "service": {"version": VERSION},
        "executable": {"version": VERSION},
        "protocolVersion": format!("{}.{}", hi.0, hi.1),
        "capabilities": {"supported": supported, "requested": requested, "granted": granted},
        "broker": {"processId": std::process::id(), "connectionId": conn.id},
        "limits": {"maxMessageBytes": conn.max_message, "maxResultBytes": conn.max_result},
    }))
}

/// `broker/stop`: compare-and-stop. The caller names the broker it means
/// (`pid`, `executable`, from the locator); another broker is never
/// stopped. Live leases of other clients refuse the stop unless `force`.
pub(super) fn stop(broker: &Arc<Broker>, caller: &str, params: &Value) -> BpResult<Value> {
    let mismatch = |what: &str| {
        BpError::new(
            Code::ProtocolIncompatible,
            format!("this broker is not the one named ({what} differs); nothing was stopped"),
        )
    };
    let force = match params.get("force") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(BpError::invalid("`force` must be true or false")),
    };
    match params.get("pid").filter(|v| !v.is_null()) {
        Some(pid) if pid.as_u64() != Some(u64::from(std::process::id())) => {
            return Err(mismatch("process ID"))
        }
        Some(_) => {}
        None if !force => return Err(BpError::invalid(
            "name the broker to stop with `pid` (from the locator or initialize), or pass force",
        )),
        None => {}
    }
    if let Some(exe) = params.get("executable").filter(|v| !v.is_null()) {
        let own = crate::broker::connect::locator::own_executable();
        if exe.as_str() != Some(own.as_str()) {
            return Err(mismatch("installation"));
        }
    }
    // The caller's own work does not hold the broker up; the one-shot
    // CLI's stop (sent before any initialize) speaks for the CLI's.
    let own = |p: &str| {
        if caller.is_empty() {
            identity::client_name(p) == CLI_PRINCIPAL
        } else {
            p == caller
        }
    };
    let others = broker.state().live_workspaces(None, &own);
    if !others.is_empty() && !force {
        return Err(crate::broker::native::in_use(&others, "stop the broker"));
    }
    // Counted now, before the reply: the process is gone soon after.
    let ended = broker.stop_report();
    broker.shutdown.notify_one();
    Ok(json!({"stopping": true, "endedWorkspaces": others.len(), "ended": ended}))
}

pub(super) async fn browser_state(broker: &Arc<Broker>) -> Value {
    match broker.browser().await {
        Ok(b) => {
            json!({"state": "connected", "generation": broker.generation(), "launched": b.launched.is_some(),
                        "browserPid": b.launched.as_ref().and_then(|l| l.pid())})
        }
        Err(_) => json!({"state": "disconnected", "generation": broker.generation()}),
    }
}

pub(super) async fn status(broker: &Arc<Broker>) -> BpResult<Value> {
    let mut browser = browser_state(broker).await;
    if let Ok(conn) = broker.browser().await {
        let (open, attached) = conn.registry.counts();
        browser["targets"] = json!({"open": open, "attached": attached});
        let (domain, invoke) = conn.registry.page_tool_service();
        browser["pageTools"] = json!({"domain": domain, "invoke": invoke});
        let [page, accessibility, known, with_walk] = conn.registry.described();
        browser["elementsDescribed"] = json!({"byPage": page, "byAccessibility": accessibility,
            "alreadyIdentified": known, "idWithWalk": with_walk});
        let (held, backend) = conn.registry.refs_resolved();
        browser["refsResolved"] = json!({"byHeldObject": held, "byBackendNode": backend});
        let (by_source, by_agent) = conn.registry.walks();
        browser["pageWalks"] = json!({"bySource": by_source, "byAgent": by_agent});
        let [with_text, again, early] = conn.registry.readback_counts(Proof::Typed);
        browser["typedReadbacks"] =
            json!({"withText": with_text, "readAgain": again, "sentAgainEarly": early});
        let [with_release, again, early] = conn.registry.readback_counts(Proof::Clicked);
        browser["clickReadbacks"] =
            json!({"withRelease": with_release, "readAgain": again, "sentAgainEarly": early});
        let [with_key, again, early] = conn.registry.readback_counts(Proof::Keyed);
        browser["keyReadbacks"] =
            json!({"withKey": with_key, "readAgain": again, "sentAgainEarly": early});
    }
    Ok(json!({
        "pid": std::process::id(),
        "version": VERSION,
        "protocol": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX},
        "uptimeMs": broker.started.elapsed().as_millis() as u64,
        "socket": broker.paths.socket,
        "browser": browser,
        "connections": broker.connections.load(std::sync::atomic::Ordering::Relaxed),
        "cdpCommandsSent": broker.cdp_commands_sent().await,
        "runtime": broker.runtime.describe(),
    }))
}
