#!/usr/bin/env python3
"""Reference adapter demo: a thin entry point to the `bp_adapter` package
beside this file (the adapter itself lives there).

It uses ONLY the `bp` executable and its published protocol. It spawns
`bp bridge --stdio`, opens URL, screenshots it, reads the screenshot from
its artifact file (binary data never travels over stdio) and prints a
one-line JSON summary, never the image data.

Usage: python3 adapter.py [--bp PATH] --url URL [--launch]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bp_adapter.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
