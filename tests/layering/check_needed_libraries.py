#!/usr/bin/env python3
"""Checks which shared libraries the toold executable asks the dynamic loader for at every start.

  check_needed_libraries.py TOOLD [--static-runtime]

toold is spawned per session (often per sandbox), so what it loads before main is paid each time.
The libraries that only some sessions need are kept out of it: SpiderMonkey lives in
toold-codemode, OpenSSL and gumbo in toold-web.so (loaded at the first HTTPS exchange or page).
With --static-runtime (builds that link the C++ runtime in), no C++ library may be shared at all.
Prints the NEEDED entries and exits 1 naming any that is refused.
"""
import re
import subprocess
import sys

NEVER = ("libmozjs", "libssl", "libcrypto", "libgumbo", "libcurl")
CXX = ("libstdc++", "libgcc_s", "libspdlog", "libfmt")


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, static_runtime = sys.argv[1], "--static-runtime" in sys.argv[2:]
    dynamic = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    refused = [name for name in needed if name.startswith(NEVER) or (static_runtime and name.startswith(CXX))]
    print("toold needs: " + ", ".join(needed))
    for name in refused:
        print(f"{name}: must not be loaded at every start of toold")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
