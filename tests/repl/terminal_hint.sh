#!/usr/bin/env bash
# toold started by hand on a terminal says once, on stderr, that toold-repl exists; on a pipe it
# says nothing of the kind. Needs script(1) for the terminal; skipped (77) without it.
#   terminal_hint.sh TOOLD
set -euo pipefail
toold=$1
command -v script >/dev/null || { echo "terminal_hint: script(1) is missing; skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# On a terminal: script gives toold a pseudo-terminal as stdin; the terminal's end of input stops it.
on_tty=$(timeout 10 script -qec "$toold --directory $dir --data-dir $dir --log-level off" /dev/null </dev/null 2>&1 || true)
case "$on_tty" in
  *"stdin is a terminal"*"run toold-repl"*) ;;
  *) echo "terminal_hint: no hint on a terminal; got: $on_tty"; exit 1 ;;
esac
on_pipe=$(echo '{"jsonrpc":"2.0","id":1,"method":"ping"}' | "$toold" --directory "$dir" --data-dir "$dir" --log-level off 2>&1)
case "$on_pipe" in
  *"toold-repl"*) echo "terminal_hint: the hint was printed on a pipe: $on_pipe"; exit 1 ;;
esac
echo "terminal_hint: the hint on a terminal only"
