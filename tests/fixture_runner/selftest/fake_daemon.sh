#!/bin/sh
# A stand-in for toold in the runner's self-tests, for behaviour toold never shows. It ignores the
# arguments the runner always passes and does what `--fake MODE [ARG...]` (from the fixture's
# %args) says:
#   echo      copy stdin to stdout, so whatever the fixture sends comes back as the daemon's output
#   hang      never write, never read, never exit on its own
#   describe  write what it was started with, then echo: first {"args": "EVERY ARGUMENT"}, then one
#             line per ARG. `NAME=` describes a variable of its environment ({"env": NAME, "value":
#             V}, or "unset": true), anything else a path: {"path": P, "type": T} with T one of
#             "symlink" (and its "target"), "directory" (and its "entries", sorted, blank-separated),
#             "file" (and its "first" line) or "missing". Nothing is escaped: keep quotes and
#             backslashes out of what it describes.
args="$*"
mode=
while [ $# -gt 0 ]; do
  if [ "$1" = --fake ] && [ $# -gt 1 ]; then
    mode=$2
    shift 2
    break
  fi
  shift
done

describe() {
  case "$1" in
    *=)
      name=${1%=}
      if value=$(printenv "$name"); then
        echo "{\"env\": \"$name\", \"value\": \"$value\"}"
      else
        echo "{\"env\": \"$name\", \"unset\": true}"
      fi ;;
    *)
      if [ -L "$1" ]; then
        echo "{\"path\": \"$1\", \"type\": \"symlink\", \"target\": \"$(readlink "$1")\"}"
      elif [ -d "$1" ]; then
        entries=$(LC_ALL=C ls -A "$1" | tr '\n' ' ' | sed 's/ $//')
        echo "{\"path\": \"$1\", \"type\": \"directory\", \"entries\": \"$entries\"}"
      elif [ -f "$1" ]; then
        echo "{\"path\": \"$1\", \"type\": \"file\", \"first\": \"$(head -n 1 "$1")\"}"
      else
        echo "{\"path\": \"$1\", \"type\": \"missing\"}"
      fi ;;
  esac
}

case "$mode" in
  echo) exec cat ;;
  hang) exec sleep 60 ;;
  describe)
    echo "{\"args\": \"$args\"}"
    for arg in "$@"; do describe "$arg"; done
    exec cat ;;
  *) echo "fake_daemon: unknown --fake mode '$mode'" >&2; exit 2 ;;
esac
