"""Run the conformance kit: `scripts/conformance [--bp PATH] [-k TEXT] [ADAPTER...]`.

Prints one PASS/FAIL line per check and adapter, then `N passed, N failed`;
exits 1 if anything failed. Default adapters: every adapter in the repo
(see drivers/__init__.py); `broken` and `broken-lifecycle` are the kit's own
failing fixtures.
"""
import argparse
import importlib
import os
import signal
import sys
import time
import uuid

from . import checks  # noqa: F401  (registers the checks, in order)
from .context import CHECKS, Ctx, Fail
from .drivers import DEFAULT, DRIVERS
from .env import Environment, kill_pid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALWAYS = ("initialize", "release.on_exit")  # the session's bookends run even with -k


def run_adapter(name, bp, only):
    results = []
    env_ = Environment(REPO, bp, name)
    driver = DRIVERS[name]()
    ctx = None
    try:
        kit_env = env_.start()
        ctx = Ctx(kit_env, driver, uuid.uuid4().hex[:6])
        try:
            driver.start(kit_env)
            start_error = None
        except Exception as e:  # the adapter could not start: every check fails
            start_error = f"adapter did not start: {type(e).__name__}: {e}"
        for check_name, fn in CHECKS:
            if only and not any(o in check_name for o in only) and check_name not in ALWAYS:
                continue
            t0 = time.monotonic()
            if start_error:
                ok, detail = False, start_error
            else:
                try:
                    ok, detail = True, fn(ctx) or ""
                except Fail as e:
                    ok, detail = False, str(e)
                except Exception as e:
                    ok, detail = False, f"check crashed: {type(e).__name__}: {e}"
            ms = (time.monotonic() - t0) * 1000
            print(f"{'PASS' if ok else 'FAIL'} {name}/{check_name} ({ms:.0f} ms): {detail}", flush=True)
            results.append(ok)
    except Exception as e:
        print(f"FAIL {name}/environment: {type(e).__name__}: {e}", flush=True)
        results.append(False)
    finally:
        try:
            driver.stop()
        except Exception:
            pass
        pids = dict(getattr(driver, "pids", dict)())
        if ctx is not None:
            ctx.close()
            pids.update(ctx.pids)
        for pid, expect in pids.items():
            kill_pid(pid, expect=expect)
        env_.extra_pids.update(pids)
        env_.close()
    return results


def missing_requirements(adapters):
    """One line naming what to install, if an adapter's driver lacks a Python
    module it needs; None when every one imports."""
    for name in adapters:
        for module, what, install in getattr(DRIVERS[name], "requires", ()):
            try:
                importlib.import_module(module)
            except ImportError:
                return (f"error: adapter `{name}` needs {what} (Python module `{module}`), "
                        f"which is not installed: run `{install}`")
    return None


def main(argv=None):
    p = argparse.ArgumentParser(prog="scripts/conformance", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("adapters", nargs="*", metavar="ADAPTER",
                   help=f"adapters to check: {', '.join(DRIVERS)} (default: {' '.join(DEFAULT)})")
    p.add_argument("--bp", default=os.environ.get("BP", os.path.join(REPO, "target", "debug", "bp")),
                   help="the bp executable (default: $BP or target/debug/bp)")
    p.add_argument("-k", dest="only", action="append", default=[],
                   help="run only checks whose name contains TEXT (repeatable)")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still runs every cleanup
    unknown = [a for a in args.adapters if a not in DRIVERS]
    if unknown:
        p.error(f"unknown adapter(s) {', '.join(unknown)}; known: {', '.join(DRIVERS)}")
    bp = os.path.abspath(args.bp)
    if not os.access(bp, os.X_OK):
        p.error(f"no executable bp at {bp} (build it, or pass --bp / set BP)")
    missing = missing_requirements(args.adapters or DEFAULT)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    started = time.monotonic()
    results = []
    for name in args.adapters or DEFAULT:
        print(f"== {name} ==", flush=True)
        mine = run_adapter(name, bp, args.only)
        print(f"== {name}: {sum(mine)} of {len(mine)} checks passed", flush=True)
        results += mine
    passed = sum(results)
    print(f"conformance finished in {time.monotonic() - started:.1f} s")
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
