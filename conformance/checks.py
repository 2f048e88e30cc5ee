"""The conformance checks, in the order they run.

Each check talks to the adapter only through its driver (see driver.py) and
uses the kit's probes (probe.py, the public bridge protocol) for ground truth:
what the broker recorded, what its journal holds, whether a lease is alive.
A check returns a short PASS detail or raises Fail with a message that says
what the adapter did wrong.
"""
import base64
import binascii
import re
import struct
import time

from .context import Fail, check, eventually
from .probe import Probe, ProbeError


@check("initialize")
def initialize(c):
    info = c.driver.session()
    c.info = info
    missing = [k for k in ("clientName", "protocolVersion", "workspaceId", "leaseId") if not info.get(k)]
    if missing:
        raise Fail(f"the adapter does not report {', '.join(missing)} for its session")
    if info["protocolVersion"] not in ("1.0", "1.1"):
        raise Fail(f"negotiated protocol {info['protocolVersion']!r} is not one the broker speaks (1.0-1.1)")
    if info["clientName"] != c.env.client_name:
        raise Fail(f"adapter initialized as {info['clientName']!r}, not the requested {c.env.client_name!r}")
    try:
        ws = c.probe_mine().request("workspaces/get", {"workspaceId": info["workspaceId"]})
    except ProbeError as e:
        raise Fail(f"the broker does not know the adapter's workspace {info['workspaceId']}: {e}")
    if info["leaseId"] not in ws["leases"]:
        raise Fail(f"lease {info['leaseId']} is not a live lease of the workspace "
                   f"(broker lists {ws['leases']})")
    return f"protocol {info['protocolVersion']}, {info['workspaceId']}, {info['leaseId']}"


def accepts_all_of(mine, truth):
    """Whether the adapter's input schema takes every call the broker's
    does, unchanged: the same schema, or the same with properties of the
    adapter's own added and fewer of them required (as `bp mcp` adds
    `paths` beside `artifactIds` to `browser_upload`)."""
    if mine == truth:
        return True
    if not isinstance(mine, dict) or not isinstance(truth, dict):
        return False
    rest = lambda s: {k: v for k, v in s.items() if k not in ("properties", "required")}
    ours, theirs = mine.get("properties", {}), truth.get("properties", {})
    return (rest(mine) == rest(truth)
            and all(ours.get(k) == v for k, v in theirs.items())
            and set(mine.get("required", [])) <= set(truth.get("required", [])))


@check("tools.schemas")
def tools_schemas(c):
    truth = {t["name"]: t for t in c.probe_other().request("tools/list")["tools"]}
    mine = {t.get("name"): t for t in c.driver.list_tools()}
    missing = sorted(set(truth) - set(mine))
    if missing:
        raise Fail(f"{len(missing)} broker tools are not offered: {', '.join(missing[:8])}")
    changed = [n for n in truth if not accepts_all_of(mine[n].get("inputSchema"), truth[n]["inputSchema"])]
    if changed:
        n = changed[0]
        raise Fail(f"input schemas differ from the broker's for {', '.join(changed[:6])}; "
                   f"{n}: adapter {mine[n].get('inputSchema')} vs broker {truth[n]['inputSchema']}")
    out = [n for n in truth if "outputSchema" in mine[n]
           and mine[n]["outputSchema"] != truth[n].get("outputSchema")]
    if out:
        raise Fail(f"output schemas differ from the broker's for {', '.join(out[:6])}")
    blank = [n for n in truth if not mine[n].get("description")]
    if blank:
        raise Fail(f"tools without a description: {', '.join(blank[:6])}")
    return (f"{len(truth)} broker tools mapped, each taking every input the broker's schema takes (and the same output schemas), "
            f"{len(mine) - len(truth)} tools of the adapter's own")


@check("call.connect")
def call_connect(c):
    r = c.ok("browser.connect", {"launch": {"headless": True}}, why="launch headless Chromium")
    conn = r.content.get("connection") or {}
    if conn.get("state") != "connected":
        raise Fail(f"browser.connect result does not say connected: {conn}")
    if conn.get("browserPid"):
        c.pids[conn["browserPid"]] = "chrom"
    return f"browser generation {conn.get('generation')}"


@check("lease.heartbeat")
def lease_heartbeat(c):
    ttl = c.info.get("leaseTtlMs") or c.env.lease_ttl_ms
    if ttl > 2 * c.env.lease_ttl_ms:
        raise Fail(f"the adapter's lease TTL is {ttl} ms, not the {c.env.lease_ttl_ms} ms asked for")
    idle = ttl / 1000.0 + 2.5  # past the TTL and the broker's 1 s sweep
    time.sleep(idle)
    ws = c.probe_mine().request("workspaces/get", {"workspaceId": c.info["workspaceId"]})
    if c.info["leaseId"] not in ws["leases"]:
        raise Fail(f"lease {c.info['leaseId']} (TTL {ttl} ms) expired while the adapter sat idle "
                   f"for {idle:.1f} s: it does not heartbeat")
    c.ok("browser.tabs.list", why="call after the idle period")
    if c.driver.session().get("leaseId") != c.info["leaseId"]:
        raise Fail("the adapter replaced its lease instead of keeping it alive")
    return f"lease with TTL {ttl} ms alive after {idle:.1f} s idle"


@check("refs.passthrough")
def refs_passthrough(c):
    c.tab = None
    c.ensure_tab()
    r, oid = c.observe(c.cid("observe"))
    wire = c.wire_result(c.cid("observe"), "browser.observe")
    sent = wire.get("observationId")
    if oid != sent:
        raise Fail(f"observationId changed on the way: broker sent {sent!r}, adapter surfaced {oid!r}")
    truth = [(e["ref"], e["role"], e["name"]) for e in wire["elements"]]
    seen = [(e.get("ref"), e.get("role"), e.get("name")) for e in r.content.get("elements") or []]
    if seen != truth:
        raise Fail(f"elements/refs changed on the way: broker {truth[:4]} vs adapter {seen[:4]}")
    name_ref = c.ref(r, "textbox", "Name")
    button = c.ref(r, "button", "Sign in")
    t = c.call("browser.type", {"targetId": c.tab, "observationId": oid, "ref": name_ref, "text": "Ada"})
    if not t.ok:
        raise Fail(f"type with the adapter's observationId/ref failed: {t.error_code} {t.error_message}")
    k = c.call("browser.click", {"targetId": c.tab, "observationId": oid, "ref": button})
    if not k.ok:
        raise Fail(f"click with the adapter's observationId/ref failed: {k.error_code} {k.error_message}")
    text = c.ok("browser.read", {"targetId": c.tab}).content.get("text", "")
    if "Signed in as Ada" not in text:
        raise Fail(f"after type+click the page does not say 'Signed in as Ada': {text[-120:]!r}")
    return f"{oid} and refs {name_ref},{button} round-tripped; page says 'Signed in as Ada'"


@check("idempotency.retry")
def idempotency_retry(c):
    k = c.cid("retry")
    r1 = c.ok("browser.navigate", {"targetId": c.ensure_tab(), "url": c.env.url("navigate.html")}, k,
              why="first call")
    r2 = c.call("browser.navigate", {"targetId": c.tab, "url": c.env.url("next.html")}, k)
    if not r2.ok:
        raise Fail(f"the retry with the same commandId failed: {r2.error_code} {r2.error_message}")
    if r2.content != r1.content:
        raise Fail(f"the retry with the same commandId ran again instead of returning the recorded "
                   f"reply: first went to {r1.content.get('url')!r}, retry to {r2.content.get('url')!r}")
    for r in (r1, r2):
        if r.command_id is not None and r.command_id != k:
            raise Fail(f"the adapter reports commandId {r.command_id!r}, not the {k!r} it was given")
    text = c.ok("browser.read", {"targetId": c.tab}).content.get("text", "")
    if "You arrived" in text:
        raise Fail("the retry ran again: the page moved to next.html")
    runs = [e for e in c.probe_mine().journal(c.info["workspaceId"])
            if e["type"] == "command.status" and e["payload"].get("commandId") == k]
    if len(runs) != 1:
        raise Fail(f"the broker ran commandId {k} {len(runs)} times")
    return f"{k} sent twice, executed once, same reply"


@check("errors.stale_ref")
def errors_stale_ref(c):
    c.goto("form.html")
    r, oid = c.observe()
    ref = c.ref(r, "textbox", "Name")
    c.goto("next.html")
    e = c.call("browser.click", {"targetId": c.tab, "observationId": oid, "ref": ref})
    c.expect_code(e, "stale_ref", "browser.click with a ref from before a navigation")
    inval = eventually(lambda: [
        ev for ev in c.probe_mine().journal(c.info["workspaceId"])
        if ev["type"] == "observation.invalidated" and ev["payload"].get("observationId") == oid])
    if not inval:
        raise Fail(f"the journal has no observation.invalidated for {oid}: the adapter's "
                   f"observationId is not the broker's")
    return "stale_ref surfaced; observation.invalidated names the same observationId"


@check("errors.target_busy")
def errors_target_busy(c):
    other = c.probe_other()
    tabs = other.tool("browser.tabs.list")["result"]["tabs"]
    user = [t for t in tabs if t["origin"] == "user_tab"]
    if not user:
        raise Fail("setup: the browser shows no user tab to share between clients")
    held = user[0]["targetId"]
    got = other.tool("browser.tabs.acquire", {"targetId": held})
    if "error" in got:
        raise Fail(f"setup: the second client could not take the user tab: {got['error']}")
    try:
        mine = c.ok("browser.tabs.list").content.get("tabs") or []
        busy = [t for t in mine if t.get("origin") == "user_tab" and t.get("controlled")
                and not t.get("controlledByThisLease")]
        if not busy:
            raise Fail(f"setup: the adapter's tab list shows no tab held by another client: {mine}")
        e = c.call("browser.observe", {"targetId": busy[0]["targetId"]})
        c.expect_code(e, "target_busy", "browser.observe on a tab another client's lease holds")
    finally:
        other.tool("browser.tabs.release", {"targetId": held})
    return "target_busy surfaced for a tab held by a second client"


@check("errors.capability_denied")
def errors_capability_denied(c):
    e = c.call("browser.network.rules.add", {"pattern": "*/never-matches", "action": "block"})
    c.expect_code(e, "capability_denied", "browser.network.rules.add (policy denies network-modify)")
    e = c.call("browser.eval", {"targetId": c.ensure_tab(), "expression": "1 + 1"})
    c.expect_code(e, "capability_denied", "browser.eval without the developer.eval grant")
    return "policy denial and missing developer.eval grant both surfaced as capability_denied"


def _page_tools(probe, tab):
    got = probe.tool("browser.page_tools.list", {"targetId": tab})
    listed = got.get("result") or {}
    return listed if len(listed.get("tools") or []) >= 4 else None


@check("page_tools.consequential")
def page_tools_consequential(c):
    """A page's consequential tool, under a policy that allows every effect:
    a second client granted page.consequential sees it; the adapter's client,
    without the grant, is not shown it and is refused when it calls it by the
    ref the other was shown."""
    granted = Probe(c.env, f"{c.env.client_name}-granted", capabilities=["page.consequential"])
    mine_tab = None
    try:
        granted.open_workspace()
        tabs = granted.tool("browser.tabs.list")["result"]["tabs"]
        user = [t for t in tabs if t["origin"] == "user_tab"]
        if not user:
            raise Fail("setup: the browser shows no user tab to share between clients")
        held = user[0]["targetId"]
        for name, args in [("browser.tabs.acquire", {"targetId": held}),
                           ("browser.navigate", {"targetId": held, "url": c.env.url("page-tools.html")})]:
            got = granted.tool(name, args)
            if "error" in got:
                raise Fail(f"setup: the granted client's {name} failed: {got['error']}")
        listed = eventually(lambda: _page_tools(granted, held), timeout=10)
        if not listed:
            raise Fail("setup: the shop's page tools were not listed to the granted client")
        order = [t for t in listed["tools"] if t["pageData"]["name"] == "place_order"]
        if not order or order[0]["effect"] != "consequential":
            raise Fail(f"setup: place_order is not listed as consequential: {listed['tools']}")
        granted.tool("browser.tabs.release", {"targetId": held})

        mine = c.ok("browser.tabs.list").content.get("tabs") or []
        shop = [t for t in mine if t.get("origin") == "user_tab"
                and str(t.get("url", "")).endswith("page-tools.html")]
        if not shop:
            raise Fail(f"setup: the adapter's tab list shows no user tab at the shop: {mine}")
        mine_tab = shop[0]["targetId"]
        c.ok("browser.tabs.acquire", {"targetId": mine_tab}, why="take the shop tab")
        seen = c.ok("browser.page_tools.list", {"targetId": mine_tab}, why="list the shop's tools").content
        names = [t.get("pageData", {}).get("name") for t in seen.get("tools") or []]
        if "place_order" in names:
            raise Fail("the adapter's client has no page.consequential grant but was shown place_order")
        if "search_products" not in names:
            raise Fail(f"the adapter's listing lost the read-only tool: {names}")
        if (seen.get("hidden") or {}).get("byGrant", 0) < 1:
            raise Fail(f"the listing does not say a tool was hidden for want of the grant: {seen.get('hidden')}")
        e = c.call("browser.page_tools.call", {"targetId": mine_tab, "ref": order[0]["ref"], "input": {}})
        c.expect_code(e, "capability_denied", "browser.page_tools.call of place_order without the grant")
    finally:
        if mine_tab:
            c.call("browser.tabs.release", {"targetId": mine_tab})
        granted.close()
    return "place_order listed to a granted client; hidden from and refused to the adapter's client"


@check("errors.unknown_outcome")
def errors_unknown_outcome(c):
    c.goto("typing.html")
    r, oid = c.observe()
    c.ok("browser.click", {"targetId": c.tab, "observationId": oid, "ref": c.ref(r, "textbox", "Name")},
         why="focus the Name field")
    # typing.html moves focus after the third key: the rest is stopped.
    e = c.call("browser.keyboard", {"targetId": c.tab, "text": "abcdef"})
    c.expect_code(e, "unknown_outcome", "browser.keyboard interrupted by a focus change")
    return "unknown_outcome surfaced for keyboard input stopped by a focus change"


def _png_size(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


_B64 = re.compile(r"^[A-Za-z0-9+/=\s]{512,}$")


def _base64_strings(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _base64_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _base64_strings(v)
    elif isinstance(obj, str) and _B64.match(obj):
        try:
            base64.b64decode(obj, validate=False)
            yield obj
        except (binascii.Error, ValueError):
            pass


@check("screenshot.image")
def screenshot_image(c):
    c.goto("long.html")
    k = c.cid("shot")
    r = c.ok("browser.screenshot", {"targetId": c.tab, "fullPage": True}, k)
    wire = c.wire_result(k, "browser.screenshot")
    art, prev = wire.get("artifact") or {}, wire.get("preview") or {}
    if not (art.get("path") and art.get("artifactId")):
        raise Fail(f"the broker's recorded result has no artifact reference: {wire}")
    if list(_base64_strings(wire)):
        raise Fail("the broker's tool result carries base64 data")
    if not prev:
        raise Fail("setup: a full-page capture of long.html came without a preview")
    img = c.driver.image_of(r)
    if not img:
        raise Fail("the adapter surfaced no native image content for the screenshot")
    mime, data = img
    if mime not in ("image/png", "image/jpeg"):
        raise Fail(f"image content has mime {mime!r}")
    if not (data.startswith(b"\x89PNG\r\n\x1a\n") or data.startswith(b"\xff\xd8\xff")):
        raise Fail("image content bytes are not a PNG or JPEG file")
    size = _png_size(data)
    if len(data) == art["bytes"] and size == (art.get("width"), art.get("height")):
        raise Fail(f"the adapter sent the full {art['width']}x{art['height']} capture, "
                   f"not the bounded preview ({prev['width']}x{prev['height']})")
    if len(data) != prev["bytes"] or size != (prev["width"], prev["height"]):
        raise Fail(f"image content ({len(data)} bytes, {size}) does not match the preview file "
                   f"({prev['bytes']} bytes, {prev['width']}x{prev['height']})")
    try:
        with open(prev["path"], "rb") as f:
            if f.read() != data:
                raise Fail("image content differs from the preview artifact's file")
    except FileNotFoundError:
        pass  # the adapter released the artifact after reading it: allowed
    return f"{mime} {size[0]}x{size[1]} from the preview file; broker result held only paths"


@check("events.cursor")
def events_cursor(c):
    c.goto("form.html")  # a navigation and a command.status are now in the journal
    cursor = c.info.get("eventCursor") or "0"
    seen, pages = [], 0
    while True:
        evs, nxt, more = c.driver.poll_events(cursor)
        seen += evs
        pages += 1
        if not more or pages > 50:
            break
        cursor = nxt
    seqs = [e.get("seq") for e in seen]
    if not seqs or seqs != sorted(set(seqs)):
        raise Fail(f"polled events are empty, duplicated or out of order: seq {seqs[:20]}")
    types = {e.get("type") for e in seen}
    if not {"command.status", "navigation"} <= types:
        raise Fail(f"the polled events lack command.status or navigation (got {sorted(types)})")
    c.ok("browser.frames.list", {"targetId": c.ensure_tab()})

    def later():
        evs, _, _ = c.driver.poll_events(nxt)
        return evs if any((e.get("payload") or {}).get("tool") == "browser.frames.list"
                          for e in evs) else None
    newer = eventually(later)
    if not newer:
        raise Fail(f"polling from cursor {nxt!r} did not return the command.status of a new call")
    if min(e["seq"] for e in newer) <= seqs[-1]:
        raise Fail(f"polling from cursor {nxt!r} returned old events again")
    relayed = c.driver.relayed_events()
    note = "polled with cursors"
    if relayed is not None:
        journal = {e["seq"]: e["type"] for e in c.probe_mine().journal(c.info["workspaceId"])}
        wrong = [e for e in relayed if journal.get(e.get("seq")) != e.get("type")]
        if not relayed or wrong:
            raise Fail(f"relayed events do not match the journal ({len(relayed)} relayed, "
                       f"{len(wrong)} mismatched)")
        note += f"; {len(relayed)} relayed events match the journal"
    return f"{len(seen)} events in {pages} page(s), {note}"


@check("release.on_exit")
def release_on_exit(c):
    c.driver.stop()
    probe = c.probe_mine()
    ws = c.info["workspaceId"]
    try:
        probe.request("workspaces/get", {"workspaceId": ws})
        raise Fail(f"workspace {ws} still exists after the adapter stopped: it was not released")
    except ProbeError as e:
        if e.code != "workspace_not_found":
            raise Fail(f"workspaces/get after stop: unexpected {e}")
    try:
        probe.request("leases/heartbeat", {"leaseId": c.info["leaseId"]})
        raise Fail(f"lease {c.info['leaseId']} is still alive after the adapter stopped")
    except ProbeError as e:
        if e.code != "lease_expired":
            raise Fail(f"leases/heartbeat after stop: unexpected {e}")
    expected = sum(p is not None for p in (c.mine, c.other))
    conns = eventually(lambda: (probe.request("broker/status")["connections"] == expected), 5)
    if not conns:
        raise Fail("the adapter's bridge connection is still open after it stopped")
    return "workspace released, lease gone, bridge disconnected"
