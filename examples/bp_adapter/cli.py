"""One-shot demo: open a page, screenshot it, turn the artifact into an
in-memory image block, print a one-line summary (never the image data).

Usage: python3 examples/adapter.py [--bp PATH] --url URL [--launch]
"""
import argparse
import json
import sys

from .errors import BrowserPilotError
from .images import ArtifactError
from .session import Session


def run(args):
    with Session(args.bp, client_name="reference-adapter") as s:
        if args.launch:
            s.call("browser.connect", {"launch": {"headless": True}})
        s.call("browser.tabs.open", {"url": args.url})
        shot = s.call("browser.screenshot")
        img = s.image(shot, release=True)
        block = img.block()  # in memory only; never printed
        notifications = len(s.relayed_events())
    print(json.dumps({"ok": True, "mediaType": img.mime, "width": img.width,
                      "height": img.height, "bytes": len(img.data),
                      "base64Length": len(block["source"]["data"]), "artifactKind": img.kind,
                      "notifications": notifications}))


def main(argv=None):
    p = argparse.ArgumentParser(description="Reference Browser Pilot adapter (demo)")
    p.add_argument("--bp", default="bp", help="path to the bp executable")
    p.add_argument("--url", required=True, help="page to open")
    p.add_argument("--launch", action="store_true", help="launch a headless browser first")
    args = p.parse_args(argv)
    try:
        run(args)
    except (BrowserPilotError, ArtifactError, OSError) as e:
        print(f"adapter: error: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
