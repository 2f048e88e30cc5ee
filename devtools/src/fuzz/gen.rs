//! Input generation: byte-level mutations of recorded sessions, and
//! structure-aware JSON-RPC requests (every method, the tools' own
//! argument names, wrong types, huge numbers, deep nesting, unknown
//! fields). Deterministic for a seed.

/// xorshift64*: small, fast and good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Sessions recorded from real adapter runs (conformance kit, reference
/// and MCP adapters), with their IDs replaced by `$WS`, `$LEASE` and
/// `$SECRET`, which the harness fills in.
pub const SEEDS: [&str; 4] = [
    include_str!("../../../fixtures/fuzz/recorded-1.jsonl"),
    include_str!("../../../fixtures/fuzz/recorded-2.jsonl"),
    include_str!("../../../fixtures/fuzz/recorded-3.jsonl"),
    include_str!("../../../fixtures/fuzz/recorded-4.jsonl"),
];

/// Every method the broker knows, with its parameter names, and a few it
/// does not.
const METHODS: &[(&str, &[&str])] = &[
    (
        "initialize",
        &[
            "client",
            "protocol",
            "capabilities",
            "limits",
            "require",
            "session",
        ],
    ),
    ("tools/list", &[]),
    (
        "tools/call",
        &[
            "name",
            "arguments",
            "workspaceId",
            "leaseId",
            "commandId",
            "idempotencyKey",
            "deadlineMs",
        ],
    ),
    ("workspaces/create", &["key", "label"]),
    (
        "workspaces/resume",
        &["workspaceId", "resumeSecret", "observe"],
    ),
    ("workspaces/get", &["workspaceId"]),
    ("workspaces/configure", &["workspaceId", "networkEvents"]),
    ("workspaces/release", &["workspaceId"]),
    ("leases/create", &["workspaceId", "ttlMs", "key"]),
    ("leases/heartbeat", &["leaseId"]),
    ("leases/release", &["leaseId"]),
    ("commands/get", &["commandId", "workspaceId"]),
    ("commands/cancel", &["commandId", "workspaceId"]),
    ("events/poll", &["workspaceId", "cursor", "limit"]),
    ("artifacts/import", &["workspaceId", "leaseId", "path"]),
    ("artifacts/get", &["artifactId"]),
    ("artifacts/export", &["artifactId", "path"]),
    ("artifacts/retain", &["artifactId"]),
    ("artifacts/release", &["artifactId"]),
    ("broker/status", &[]),
    ("broker/stop", &["pid", "executable", "force"]),
    ("shutdown", &[]),
    ("events/event", &["workspaceId"]),
    ("", &[]),
    ("rpc.discover", &[]),
];

/// Strings worth trying anywhere a string goes.
const STRINGS: &[&str] = &[
    "$WS",
    "$LEASE",
    "$SECRET",
    "c1",
    "c2",
    "",
    "0",
    "1.1",
    "1.0",
    "99.0",
    "browser-pilot-cli",
    "anonymous",
    "developer.eval",
    "obs_0000000000000000",
    "art_0000000000000000",
    "t1-abcdef",
    "\\u0000",
    "\\ud800",
    "é\u{1F600}",
    "a\\nb",
    "ws_",
    "lease_",
];

/// Numbers as JSON text: the edges of every integer type serde knows, and
/// some it does not.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "3",
    "65536",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "1e999",
    "-0",
    "0.5",
    "1E2",
    "123456789012345678901234567890",
];

/// The harness's view of a tool: its name and argument names.
pub struct ToolShape {
    pub name: String,
    pub args: Vec<String>,
}

/// One generated input.
pub struct Input {
    pub bytes: Vec<u8>,
    /// Run behind the harness's own `initialize` with a session, so
    /// `$WS`/`$LEASE`/`$SECRET` name live objects.
    pub prologue: bool,
}

/// A new input.
pub fn input(rng: &mut Rng, tools: &[ToolShape]) -> Input {
    let prologue = !rng.chance(3);
    let bytes = match rng.below(4) {
        0 => {
            let seed = rng_seed(rng).as_bytes().to_vec();
            mutate(rng, seed)
        }
        1 => {
            let text = structured(rng, tools, prologue);
            mutate(rng, text.into_bytes())
        }
        _ => structured(rng, tools, prologue).into_bytes(),
    };
    Input { bytes, prologue }
}

fn rng_seed(rng: &mut Rng) -> &'static str {
    rng.pick(&SEEDS)
}

/// A session of 1-12 structure-aware requests, one per line.
pub fn structured(rng: &mut Rng, tools: &[ToolShape], initialized: bool) -> String {
    let mut out = String::new();
    if !initialized && !rng.chance(4) {
        out.push_str(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"client":{"name":"fz"},"session":{"workspaceKey":"k"}}}"#);
        out.push('\n');
    }
    for _ in 0..1 + rng.below(12) {
        request(rng, tools, &mut out);
        out.push('\n');
    }
    out
}

fn request(rng: &mut Rng, tools: &[ToolShape], out: &mut String) {
    let (method, params) = rng.pick(METHODS);
    out.push('{');
    match rng.below(12) {
        0 => {}
        1 => out.push_str(r#""jsonrpc":"1.0","#),
        _ => out.push_str(r#""jsonrpc":"2.0","#),
    }
    match rng.below(10) {
        0 => {}
        1 => out.push_str(r#""id":null,"#),
        2 => out.push_str(r#""id":"s","#),
        3 => {
            out.push_str(r#""id":"#);
            value(rng, 2, out);
            out.push(',');
        }
        _ => out.push_str(&format!(r#""id":{},"#, rng.below(50))),
    }
    out.push_str(&format!(r#""method":{}"#, json_str(method)));
    if !rng.chance(10) {
        out.push_str(r#","params":"#);
        if rng.chance(12) {
            value(rng, 3, out);
        } else if method == "tools/call" {
            tool_params(rng, tools, out);
        } else {
            object_of(rng, params, out);
        }
    }
    if rng.chance(8) {
        out.push_str(r#","extra":"#);
        value(rng, 2, out);
    }
    out.push('}');
}

fn tool_params(rng: &mut Rng, tools: &[ToolShape], out: &mut String) {
    let (name, args): (String, Vec<String>) = if tools.is_empty() || rng.chance(10) {
        (random_string(rng), Vec::new())
    } else {
        let t = &tools[rng.below(tools.len())];
        (t.name.clone(), t.args.clone())
    };
    out.push_str(&format!(r#"{{"name":{}"#, json_str(&name)));
    if !rng.chance(8) {
        out.push_str(r#","arguments":"#);
        let names: Vec<&str> = args.iter().map(String::as_str).collect();
        object_of(rng, &names, out);
    }
    for (key, v) in [
        ("workspaceId", "$WS"),
        ("leaseId", "$LEASE"),
        ("commandId", "c1"),
    ] {
        match rng.below(4) {
            0 => {}
            1 => {
                out.push_str(&format!(",{}:", json_str(key)));
                value(rng, 1, out);
            }
            _ => out.push_str(&format!(",{}:{}", json_str(key), json_str(v))),
        }
    }
    if rng.chance(3) {
        out.push_str(r#","deadlineMs":"#);
        out.push_str(rng.pick(NUMBERS));
    }
    if rng.chance(4) {
        out.push_str(&format!(
            r#","idempotencyKey":{}"#,
            json_str(rng.pick(STRINGS))
        ));
    }
    out.push('}');
}

/// An object with some of `names` (and now and then an unknown key).
fn object_of(rng: &mut Rng, names: &[&str], out: &mut String) {
    object_with(rng, names, out, typed_value);
}

/// An object with some of `names`, each value from `typed` (and now and
/// then an unknown key with any value).
pub(crate) fn object_with(
    rng: &mut Rng,
    names: &[&str],
    out: &mut String,
    typed: fn(&mut Rng, &str, &mut String),
) {
    out.push('{');
    let mut first = true;
    for name in names {
        if rng.chance(3) {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&json_str(name));
        out.push(':');
        typed(rng, name, out);
    }
    if rng.chance(6) {
        if !first {
            out.push(',');
        }
        out.push_str(&format!("{}:", json_str(&random_string(rng))));
        value(rng, 2, out);
    }
    out.push('}');
}

/// A value for a named parameter: usually of the right kind, often not.
fn typed_value(rng: &mut Rng, name: &str, out: &mut String) {
    if rng.chance(3) {
        return value(rng, 3, out);
    }
    match name {
        "workspaceId" => out.push_str(&json_str("$WS")),
        "leaseId" => out.push_str(&json_str("$LEASE")),
        "resumeSecret" => out.push_str(&json_str("$SECRET")),
        // Files only ever inside the harness's own directory.
        "path" => out.push_str(&json_str(&format!("$DIR/f{}", rng.below(4)))),
        "client" => out.push_str(&format!(
            r#"{{"name":{}}}"#,
            json_str(rng.pick(&["fz", "", "browser-pilot-cli", "a#b"]))
        )),
        "protocol" => out.push_str(&format!(
            r#"{{"min":{},"max":{}}}"#,
            json_str(rng.pick(STRINGS)),
            json_str(rng.pick(&["1.1", "1.0", "2.0", "x"]))
        )),
        "session" => out.push_str(&format!(
            r#"{{"workspaceKey":{},"resumeSecret":{},"leaseTtlMs":{}}}"#,
            json_str(rng.pick(&["k", "", "cli"])),
            json_str(rng.pick(&["$SECRET", "00"])),
            rng.pick(NUMBERS)
        )),
        "limits" => out.push_str(&format!(
            r#"{{"maxMessageBytes":{},"maxResultBytes":{}}}"#,
            rng.pick(NUMBERS),
            rng.pick(NUMBERS)
        )),
        _ => value(rng, 3, out),
    }
}

/// Any JSON value, as text (so numbers no Rust type holds can appear).
pub fn value(rng: &mut Rng, depth: usize, out: &mut String) {
    let kinds = if depth == 0 { 5 } else { 8 };
    match rng.below(kinds) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 => out.push_str(rng.pick(NUMBERS)),
        2 => out.push_str(&json_str(rng.pick(STRINGS))),
        3 => out.push_str(&json_str(&random_string(rng))),
        4 => out.push_str(&json_str(&"x".repeat(1 << rng.below(17)))),
        5 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                value(rng, depth - 1, out);
            }
            out.push(']');
        }
        6 => {
            out.push('{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_str(rng.pick(STRINGS)));
                out.push(':');
                value(rng, depth - 1, out);
            }
            out.push('}');
        }
        _ => {
            // Deep nesting, past serde_json's recursion limit now and then.
            let n = 1 + rng.below(300);
            out.push_str(&"[".repeat(n));
            out.push_str(&"]".repeat(n));
        }
    }
}

fn random_string(rng: &mut Rng) -> String {
    let len = rng.below(24);
    (0..len)
        .map(|_| char::from(b' ' + rng.below(95) as u8))
        .collect()
}

fn json_str(s: &str) -> String {
    // `$DIR`-style placeholders and escapes inside STRINGS are kept as
    // they are: they are meant to be read as JSON text.
    if s.contains('\\') {
        format!("\"{}\"", s.replace('"', "\\\""))
    } else {
        serde_json::Value::String(s.to_string()).to_string()
    }
}

/// Byte-level mutations: flips, interesting bytes, inserts, deletes,
/// duplicated ranges, splices with a recorded session, truncation.
pub fn mutate(rng: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    for _ in 0..1 + rng.below(8) {
        let len = b.len();
        let at = rng.below(len + 1);
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                b[i] = rng.pick(b"\0\xff\"{}[]\n\\:,0-9e.");
            }
            2 => {
                let extra: Vec<u8> = (0..1 + rng.below(16))
                    .map(|_| rng.next_u64() as u8)
                    .collect();
                b.splice(at..at, extra);
            }
            3 if len > 0 => {
                let end = (at + 1 + rng.below(64)).min(len);
                b.drain(at.min(end)..end);
            }
            4 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(256)).min(len);
                let copy = b[start..end].to_vec();
                b.splice(at..at, copy);
            }
            5 => {
                let other = rng_seed(rng).as_bytes();
                let start = rng.below(other.len());
                let end = (start + rng.below(512)).min(other.len());
                b.splice(at..at, other[start..end].iter().copied());
            }
            6 => b.truncate(at),
            _ => {
                let n = rng.pick(NUMBERS).as_bytes();
                b.splice(at..at, n.iter().copied());
            }
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_requests_are_mostly_valid_json_and_cover_every_method() {
        let mut rng = Rng::new(7);
        let tools = [ToolShape {
            name: "browser.click".into(),
            args: vec!["ref".into(), "observationId".into()],
        }];
        let (mut parsed, mut lines) = (0, 0);
        let mut methods = std::collections::HashSet::new();
        for _ in 0..2000 {
            for line in structured(&mut rng, &tools, true).lines() {
                lines += 1;
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                    parsed += 1;
                    if let Some(m) = v["method"].as_str() {
                        methods.insert(m.to_string());
                    }
                }
            }
        }
        assert!(parsed * 10 > lines * 7, "{parsed} of {lines} parse");
        for (m, _) in METHODS {
            assert!(methods.contains(*m), "{m} never generated");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let gen = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| input(&mut rng, &[]).bytes)
                .collect::<Vec<_>>()
        };
        assert_eq!(gen(3), gen(3));
        assert_ne!(gen(3), gen(4));
    }
}
