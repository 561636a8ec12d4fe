#!/usr/bin/env python3
"""Writes the hostile-input fixtures of tests/hostile/ into a build folder.

The inputs are too large to keep in the repository (megabyte frames, 100,000-deep values), so each
`cases_<area>.py` beside this file builds its fixtures as text, and this script writes them as
`<out>/<area>/<name>.fixture` for the fixture runner (format: docs/fixtures.md). CMake runs it at
configure time and again whenever a case module changes.

A case module defines `cases()`, returning (name, fixture text) pairs. Every fixture ends by
checking that toold still answers a ping: `ping_after()` writes those lines.

    generate.py OUT_DIR
"""
import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(HERE))
    spec.loader.exec_module(module)
    return module


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUT_DIR")
    out = pathlib.Path(sys.argv[1])
    written = set()
    for path in sorted(HERE.glob("cases_*.py")):
        area = path.stem[len("cases_"):]
        for name, text in load(path).cases():
            target = out / area / f"{name}.fixture"
            target.parent.mkdir(parents=True, exist_ok=True)
            # Rewrite only what changed, so the build does not redo what it need not.
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
            written.add(target)
    # Fixtures of cases that no longer exist would still be found by the test glob.
    for stale in out.glob("*/*.fixture"):
        if stale not in written:
            stale.unlink()


if __name__ == "__main__":
    main()
