#!/usr/bin/env python3
"""Checks that toold's start-up code is laid out together (cmake/startup_order.cmake).

  check_startup_order.py TOOLD ORDER_FILE

The order file's first group names the functions a start runs. Checks that most of them still
exist in the executable (a file gone stale after code moved costs every start its faults) and
that the linker packed them: the span of text they occupy (less the 1% farthest out at either
end) is at most twice their total size, where a layout that ignored the file scatters them over
the whole text. Exits 1 naming what fails.
"""
import subprocess
import sys

STARTUP_PREFIXES = (".text.startup.", ".text.")


def start_group(order_file):
    """The function names of the order file's start group, in the order listed."""
    names = []
    with open(order_file) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# first session"):
                break
            if not line or line.startswith("#"):
                continue
            for prefix in STARTUP_PREFIXES:
                if line.startswith(prefix):
                    name = line[len(prefix):]
                    if not names or names[-1] != name:
                        names.append(name)
                    break
    return names


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, order_file = sys.argv[1], sys.argv[2]
    listed = start_group(order_file)
    if not listed:
        print(f"{order_file}: names no start-up functions")
        return 1
    symbols = {}
    listing = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            symbols.setdefault(fields[3], (int(fields[0], 16), int(fields[1], 16)))
    present = sorted(symbols[name] for name in listed if name in symbols)
    share = len(present) / len(listed)
    # A few functions come from archives built without a section per function (libxxhash's,
    # libgcc's, some of libstdc++'s) and stay where the linker puts them, wherever that is: the
    # span is taken over the listed functions less the 1% lying farthest out at either end.
    trimmed = len(present) // 100
    packed = present[trimmed:len(present) - trimmed] or present
    size = sum(length for _, length in packed)
    span = max(address + length for address, length in packed) - min(address for address, _ in packed)
    print(f"start-up functions: {len(present)} of {len(listed)} listed are in toold ({share:.0%}); "
          f"{size / 1024:.0f} KiB of code over a span of {span / 1024:.0f} KiB "
          f"(the {len(packed)} between the outermost 1% at each end)")
    failed = False
    if share < 0.8:
        print("the order file is stale: run scripts/startup-order")
        failed = True
    if span > 2 * size:
        print("the start-up functions are not packed together: the linker did not apply the order file")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
