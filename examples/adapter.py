#!/usr/bin/env python3
"""Reference adapter: embed Browser Pilot in an agent runtime.

This uses ONLY the `bp` executable and its published protocol -- no Browser
Pilot source code.  It spawns `bp bridge --stdio` and speaks newline-delimited
JSON-RPC 2.0 over the child's stdin/stdout (stderr is inherited).

Binary data never travels over stdio: a screenshot result carries an artifact
descriptor whose "path" names a protected local file, and the adapter reads
that file itself, then turns it into an in-memory image content block the way
a multimodal runtime would.

Usage: python3 adapter.py [--bp PATH] --url URL [--launch]
"""
import argparse, base64, json, os, queue, subprocess, sys, threading

TIMEOUT_S = 30
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class AdapterError(Exception):
    pass


class Bridge:
    def __init__(self, bp):
        self.proc = subprocess.Popen([bp, "bridge", "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines, self.next_id, self.notifications = queue.Queue(), 0, []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):  # reader thread, so every read can time out
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)  # EOF

    def call(self, method, params):
        self.next_id += 1
        rid = self.next_id
        msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        try:
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise AdapterError(f"{method}: cannot write to bridge: {e}")
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT_S)
            except queue.Empty:
                raise AdapterError(f"{method}: no response within {TIMEOUT_S} s")
            if line is None:
                raise AdapterError(f"{method}: bridge closed stdout (exit {self.proc.poll()})")
            if not line.strip():
                continue
            try:
                reply = json.loads(line)
            except json.JSONDecodeError as e:
                raise AdapterError(f"{method}: invalid JSON from bridge: {e}")
            if "method" in reply and "id" not in reply:
                self.notifications.append(reply)
            elif reply.get("id") == rid:
                if "error" in reply:
                    raise AdapterError(f"{method}: JSON-RPC error {json.dumps(reply['error'])}")
                if "result" not in reply:
                    raise AdapterError(f"{method}: response has neither result nor error")
                return reply["result"]

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def tool(bridge, ws, lease, name, arguments):
    out = bridge.call("tools/call", {"name": name, "arguments": arguments,
                                     "workspaceId": ws, "leaseId": lease})
    if "error" in out:
        raise AdapterError(f"tool {name} failed: {json.dumps(out['error'])}")
    return out.get("result", {})


def image_block(descriptor):
    with open(descriptor["path"], "rb") as f:
        data = f.read()
    if len(data) != descriptor["bytes"]:
        raise AdapterError(f"artifact size {len(data)} != declared {descriptor['bytes']}")
    if not data.startswith(PNG_SIGNATURE):
        raise AdapterError("artifact is not a PNG file")
    return {"type": "image", "source": {"type": "base64", "media_type": descriptor["mime"],
                                        "data": base64.b64encode(data).decode("ascii")}}


def run(args):
    bridge = Bridge(args.bp)
    try:
        bridge.call("initialize", {
            "client": {"name": "reference-adapter", "version": "1.0", "instanceId": str(os.getpid())},
            "protocol": {"min": "1.0", "max": "1.1"}, "capabilities": []})
        ws = bridge.call("workspaces/create", {})["workspaceId"]
        lease = bridge.call("leases/create", {"workspaceId": ws, "ttlMs": 60000})["leaseId"]
        if args.launch:
            tool(bridge, ws, lease, "browser.connect", {"launch": {"headless": True}})
        tool(bridge, ws, lease, "browser.tabs.open", {"url": args.url})
        shot = tool(bridge, ws, lease, "browser.screenshot", {})
        if "artifact" not in shot:
            raise AdapterError("screenshot result has no artifact descriptor")
        used = shot.get("preview") or shot["artifact"]
        block = image_block(used)  # in memory only; never printed
        for desc in (shot["artifact"], shot.get("preview")):
            if desc:
                bridge.call("artifacts/release", {"artifactId": desc["artifactId"]})
        bridge.call("leases/release", {"leaseId": lease})
        bridge.call("workspaces/release", {"workspaceId": ws})
        bridge.call("shutdown", {})
        bridge.proc.stdin.close()
        try:
            bridge.proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise AdapterError(f"bridge did not exit within {TIMEOUT_S} s after shutdown")
        print(json.dumps({"ok": True, "mediaType": block["source"]["media_type"],
                          "width": used["width"], "height": used["height"],
                          "bytes": used["bytes"], "base64Length": len(block["source"]["data"]),
                          "artifactKind": used["kind"], "notifications": len(bridge.notifications)}))
    finally:
        bridge.kill()


def main():
    p = argparse.ArgumentParser(description="Reference Browser Pilot adapter")
    p.add_argument("--bp", default="bp", help="path to the bp executable")
    p.add_argument("--url", required=True, help="page to open")
    p.add_argument("--launch", action="store_true", help="launch a headless browser first")
    args = p.parse_args()
    try:
        run(args)
    except (AdapterError, OSError, KeyError, TypeError, ValueError) as e:
        print(f"adapter: error: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
