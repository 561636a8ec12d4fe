#!/usr/bin/env bash
# Pipes three lines into toold-repl and checks what it printed and how it exited.
#   repl_piped.sh PATH/TO/toold-repl   (toold is found next to it)
set -euo pipefail
repl=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # the REPL serves its working directory

status=0
HOME="$work" "$repl" -- --test-methods --log-level warn >"$work/out" 2>&1 <<'LINES' || status=$?
ping
$/test/echo {"a":1}
$/test/echo {"a":
LINES

failed=0
expect() {
  if ! grep -qF -- "$1" "$work/out"; then
    echo "repl_piped: expected the output to contain: $1" >&2
    failed=1
  fi
}
expect '"result": {}'                    # the ping
expect '"a": 1'                          # the echo
expect 'params are not valid JSON'       # the malformed line, refused locally
expect '--> shutdown'                    # the orderly end
if [ "$(grep -c -- '--> \$/test/echo' "$work/out")" -ne 1 ]; then
  echo "repl_piped: the malformed line must not be sent" >&2
  failed=1
fi
if [ "$status" -ne 0 ]; then
  echo "repl_piped: toold-repl exited with status $status, expected 0" >&2
  failed=1
fi
if [ "$failed" -ne 0 ]; then
  echo "--- toold-repl output ---" >&2
  cat "$work/out" >&2
  exit 1
fi
echo "repl_piped: ok"
