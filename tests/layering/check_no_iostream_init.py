#!/usr/bin/env python3
"""Checks that an executable sets up no standard streams before main.

  check_no_iostream_init.py EXECUTABLE

A translation unit that includes <iostream> gives the program a static std::ios_base::Init (the
local symbol std::__ioinit), which builds std::cout and the other standard streams and the whole
classic C++ locale, every facet narrow and wide, at every start: 0.7 ms of CPU and 25 page faults
in a program that does nothing else. toold uses none of them (core/schema/
valijson_without_iostream.h keeps valijson's gratuitous include out). Exits 1 naming the symbol.
"""
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    listing = subprocess.run(["nm", "--defined-only", sys.argv[1]], capture_output=True, text=True, check=True).stdout
    found = [line.split()[-1] for line in listing.splitlines() if line.split()[-1:] == ["_ZStL8__ioinit"]]
    if found:
        print(f"{sys.argv[1]}: {len(found)} translation unit(s) include <iostream> (std::__ioinit): "
              "the standard streams and the C++ locale are built at every start")
        return 1
    print(f"{sys.argv[1]}: no standard streams set up before main")
    return 0


if __name__ == "__main__":
    sys.exit(main())
