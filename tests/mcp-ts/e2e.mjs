// `bp mcp` driven by the official MCP TypeScript SDK client, a client we
// did not write, over stdio as an agent host starts it. One run is one
// session, negotiated at the protocol revision given as the first
// argument: list tools, open a fixture page, observe, type, click, read,
// a screenshot as image content, a hanging navigation given up through
// the SDK's AbortSignal (the SDK sends notifications/cancelled), a
// stale_ref as an isError result, then stdin closes.
//
// The SDK also checks every structured result against the tool's
// outputSchema, so a result that breaks its declared schema fails here.
//
// Usage (tests/mcp/test_ts_sdk.py runs it): node e2e.mjs REVISION
// with BP (the executable), BASE (the fixture server's URL) and
// BROWSER_PILOT_HOME set. Prints one JSON line: what the session was
// (for the caller's checks after the server is gone). Exits non-zero on
// the first failed check.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";

const [revision] = process.argv.slice(2);
const { BP, BASE } = process.env;
assert.ok(revision && BP && BASE, "usage: BP=... BASE=... node e2e.mjs REVISION");

/// The SDK's stdio transport, with the initialize request asking for
/// `revision` and the server's initialize answer kept.
class Negotiating {
  constructor(inner, revision) {
    this.inner = inner;
    this.revision = revision;
    this.answered = null;
    this.initializeId = null;
  }
  async start() {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onmessage = (m) => {
      if (m.id !== undefined && m.id === this.initializeId) this.answered = m.result ?? m;
      this.onmessage?.(m);
    };
    return this.inner.start();
  }
  async send(message, options) {
    if (message.method === "initialize") {
      this.initializeId = message.id;
      message = { ...message, params: { ...message.params, protocolVersion: this.revision } };
    }
    return this.inner.send(message, options);
  }
  async close() {
    return this.inner.close();
  }
  get pid() {
    return this.inner.pid;
  }
}

const stdio = new StdioClientTransport({
  command: BP,
  args: ["mcp", "--client-name", `ts-${revision}`, "--launch", "--headless", "--expose-resume-secret"],
  env: { ...process.env },
  stderr: "inherit",
});
const transport = new Negotiating(stdio, revision);
const client = new Client({ name: "bp-e2e-ts", version: "1.0.0" });
await client.connect(transport, { timeout: 90_000 });
assert.equal(transport.answered?.protocolVersion, revision, "the server did not answer at the asked revision");

const long = { timeout: 90_000 };
async function ok(name, args = {}, options = long) {
  const r = await client.callTool({ name, arguments: args }, undefined, options).catch((e) => {
    throw new Error(`${name}: ${e.message}`);
  });
  assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`);
  const text = r.content.find((b) => b.type === "text");
  assert.deepEqual(JSON.parse(text.text), r.structuredContent, `${name}: text and structured content differ`);
  return r.structuredContent;
}

const info = await ok("bp_session_info");
const status = await ok("browser_status");
assert.equal(status.connection.state, "connected", JSON.stringify(status));

const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
for (const name of ["browser_tabs_open", "browser_observe", "browser_type", "browser_click",
  "browser_read", "browser_screenshot", "browser_navigate", "bp_events_poll"]) {
  assert.ok(byName[name], `tools/list has no ${name}`);
}
assert.equal(byName.browser_click.title, "Click");
assert.deepEqual([...byName.browser_type.inputSchema.required].sort(), ["observationId", "ref", "text"]);
// A click takes an element (observationId + ref) or a viewport point (at).
assert.ok(byName.browser_click.inputSchema.properties.ref, "browser_click has no ref");
assert.ok(byName.browser_click.inputSchema.properties.at, "browser_click has no at");
assert.equal(byName.browser_observe.annotations.readOnlyHint, true);
assert.equal(byName.browser_tabs_close.annotations.destructiveHint, true);
assert.equal(byName.browser_navigate.annotations.openWorldHint, true);
assert.equal(byName.browser_observe.outputSchema.type, "object");

const opened = await ok("browser_tabs_open", { url: BASE + "form.html" });
assert.equal(opened.title, "Sign in form");
const obs = await ok("browser_observe");
const ref = Object.fromEntries(obs.elements.map((e) => [`${e.role}:${e.name}`, e.ref]));
const typed = await ok("browser_type", { observationId: obs.observationId, ref: ref["textbox:Name"], text: "Ada" });
assert.equal(typed.evidence.status, "verified", JSON.stringify(typed.evidence));
await ok("browser_click", { observationId: obs.observationId, ref: ref["button:Sign in"] });
const read = await ok("browser_read");
assert.match(read.text, /Signed in as Ada/);

const shot = await client.callTool({ name: "browser_screenshot", arguments: {} }, undefined, long);
assert.ok(!shot.isError, JSON.stringify(shot.content));
const images = shot.content.filter((b) => b.type === "image");
assert.equal(images.length, 1);
assert.equal(images[0].mimeType, "image/png");
const png = Buffer.from(images[0].data, "base64");
assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const shown = shot.structuredContent.preview ?? shot.structuredContent.artifact;
assert.equal(png.length, shown.bytes);
const link = shot.content.find((b) => b.type === "resource_link");
assert.ok(link, "no resource link for the screenshot");
const resource = await client.readResource({ uri: link.uri });
assert.ok(Buffer.from(resource.contents[0].blob, "base64").subarray(0, 4).equals(png.subarray(0, 4)));

// A navigation that hangs, given up by the client through its signal.
const started = Date.now();
const abort = new AbortController();
setTimeout(() => abort.abort("given up"), 1500);
await assert.rejects(
  client.callTool({ name: "browser_navigate", arguments: { url: BASE + "slow?ms=30000" } }, undefined,
    { signal: abort.signal, timeout: 90_000 }),
);
let ended = null;
for (let i = 0; i < 150 && !ended; i++) {
  const page = await ok("bp_events_poll", { limit: 500 });
  ended = page.events.find((e) => {
    const p = e.payload ?? e.data ?? {};
    return e.type === "command.status" && p.tool === "browser.navigate"
      && ["cancelled", "unknown_outcome"].includes(p.state);
  });
  if (!ended) await new Promise((r) => setTimeout(r, 100));
}
assert.ok(ended, "the given-up navigation did not end in the broker");
const cancelMs = Date.now() - started;
// An uncancelled navigation also ends unknown_outcome, after its 20 s load
// wait: only a prompt end shows the cancel stopped it.
assert.ok(cancelMs < 12_000, `the navigation ended only after ${cancelMs} ms`);

await ok("browser_navigate", { url: BASE + "next.html" });
const stale = await client.callTool({ name: "browser_click",
  arguments: { observationId: obs.observationId, ref: ref["button:Sign in"] } }, undefined, long);
assert.equal(stale.isError, true);
assert.match(stale.content[0].text, /^error\[stale_ref\]:/);
assert.equal(stale.structuredContent.error.code, "stale_ref");

// The managed tab is open in the browser (its own /json/list) until the
// session ends; the caller checks it is gone after.
const endpoint = status.connection.endpoint;
const hostport = new URL(endpoint.includes("://") ? endpoint : `http://${endpoint}`).host;
const listed = await (await fetch(`http://${hostport}/json/list`)).json();
assert.ok(listed.some((t) => t.url === BASE + "next.html"), "the managed tab is not in the browser");

const pid = transport.pid;
await client.close();
console.log(JSON.stringify({
  revision,
  adapterPid: pid,
  workspaceId: info.workspaceId,
  resumeSecret: info.resumeSecret,
  browserPid: status.connection.browserPid ?? null,
  endpoint: status.connection.endpoint,
  cancelMs,
}));
