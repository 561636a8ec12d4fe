#!/bin/sh
# A stand-in for toold in the runner's self-tests, for behaviour toold never shows. It ignores the
# arguments the runner always passes and does what `--fake MODE` (from the fixture's %args) says:
#   echo  copy stdin to stdout, so whatever the fixture sends comes back as the daemon's output
#   hang  never write, never read, never exit on its own
mode=
while [ $# -gt 0 ]; do
  if [ "$1" = --fake ] && [ $# -gt 1 ]; then mode=$2; fi
  shift
done
case "$mode" in
  echo) exec cat ;;
  hang) exec sleep 60 ;;
  *) echo "fake_daemon: unknown --fake mode '$mode'" >&2; exit 2 ;;
esac
