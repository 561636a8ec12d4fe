#!/usr/bin/env bash
# toold-repl with piped input and --script: tool calls by key=value, conversions by the schema,
# multi-line input, pasted messages, waiting for every answer, exit statuses, --quiet, --timeout,
# :reply, and a :record'ed fixture that replays green with the fixture runner.
#   repl_piped.sh PATH/TO/toold-repl PATH/TO/toold-fixture   (toold is found next to toold-repl)
set -uo pipefail
repl=$(realpath "$1")
fixture_runner=$(realpath "$2")
toold="$(dirname "$repl")/toold"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # the REPL serves its working directory
export HOME="$work"

failed=0
case_name=""
out="$work/out"
status=0

# run NAME [repl options...] < lines: runs the REPL, keeping its output and exit status.
run() {
  case_name=$1
  shift
  status=0
  "$repl" "$@" >"$out" 2>&1 || status=$?
}
complain() {
  echo "repl_piped [$case_name]: $1" >&2
  echo "--- toold-repl output ---" >&2
  cat "$out" >&2
  echo "---" >&2
  failed=1
}
expect() { grep -qF -- "$1" "$out" || complain "expected the output to contain: $1"; }
expect_not() { ! grep -qF -- "$1" "$out" || complain "expected the output not to contain: $1"; }
expect_status() { [ "$status" -eq "$1" ] || complain "exit status $status, expected $1"; }

# Raw methods, and a malformed line: refused locally, never sent, and the run fails.
run methods --test-methods --log-level warn <<'LINES'
ping
$/test/echo {"a":1}
$/test/echo {"a":
LINES
expect '── ping (id 2) · ok'
expect '"a": 1'
expect 'params are not valid JSON'
[ "$(grep -c -- '--> \$/test/echo' "$out")" -eq 1 ] || complain "the malformed line must not be sent"
expect_status 1

# The snapshot is automatic: :tools, :describe, and calls converted by the input schema.
printf 'line one\nline "two"\n' > patch.txt
run tools --test-methods --log-level warn <<'LINES'
:tools
:describe test_progress
test_progress steps=2
:call test_echo n=1 flag=true obj={"x":[1]} word=hello "quoted=two words" body=@patch.txt {"base":0}
test_sleep ms=10
LINES
expect 'test_echo'
expect 'test_progress(fail?: string, intervalMs?: integer = 0, steps?: integer = 3)'
expect '  steps       integer'
expect 'done'
expect '── test_progress (id 2) · completed'
expect '{"base":0,"body":"line one\nline \"two\"\n","flag":true,"n":1,"obj":{"x":[1]},"quoted":"two words","word":"hello"}'
expect 'slept 10 ms'
expect_status 0

# :model and :session take another snapshot: a GPT model edits with apply_patch; :jobs and
# :kill reach the session's background shell jobs.
run switches --log-level warn <<'LINES'
:model gpt-5
:tools
:session other
bash command="sleep 30" background=true description=wait
:jobs
:kill shell-1
LINES
expect 'model gpt-5: '
expect '  apply_patch'
expect 'session other: '
expect 'shell-1 is running'
expect '── bash_kill (id'
expect_status 0

# Values the schema refuses are refused before anything is sent; an unknown tool too.
run conversions --test-methods --log-level warn <<'LINES'
test_progress steps=two
test_progress stpes=2
:call no_such_tool a=1
LINES
expect "steps expects an integer, not 'two'"
expect 'the tool has no parameter stpes (it takes: fail, intervalMs, steps)'
expect 'the snapshot has no tool no_such_tool'
expect_not '--> call'
expect_status 1

# Multi-line input (a trailing backslash, an open brace) and a pasted JSON-RPC message.
run multiline --test-methods --log-level warn <<'LINES'
$/test/echo {
  "multi": [1,
    2]
}
:call test_echo \
  joined=yes
{"jsonrpc": "2.0", "id": "mine", "method": "ping"}
LINES
expect '"multi": ['
expect '{"joined":"yes"}'
expect '── ping (id mine) · ok'
expect_status 0

# Piped input waits for every answer (the old REPL gave up after 2 s), and a failed request
# makes the exit status 1.
run waits --test-methods --log-level warn <<'LINES'
$/test/sleep {"ms": 2500}
$/test/fail {"message": "boom"}
LINES
expect '"slept": 2500'
expect 'boom'
expect '1 request(s) failed'
expect_status 1

# --timeout bounds the wait.
run timeout --timeout 1 --test-methods --log-level warn <<'LINES'
$/test/sleep {"ms": 5000}
LINES
expect '1 request(s) still unanswered after 1 s (--timeout)'
expect_status 1

# A trailing " &" does not wait: the script can cancel what it started (not a failure).
run background --test-methods --log-level warn <<'LINES'
$/test/sleep {"ms": 30000} &
:cancel
ping
LINES
expect '--> cancel (id 2)'
expect 'error -32800: Request cancelled'
expect '── ping (id 3) · ok'
expect_status 0

# --version and --help are the REPL's own.
run version --version </dev/null
grep -qE '^toold-repl [0-9]+\.[0-9]+' "$out" || complain "--version prints no version"
run help --help </dev/null
expect '--script FILE'
expect '--timeout SECONDS'
expect_status 0

# --quiet prints the answers only; --script reads the lines from a file.
printf 'ping\ntest_echo q=1\n' > smoke.txt
run quiet --quiet --script smoke.txt --test-methods </dev/null
expect '{"q":1}'
expect_not '-->'
expect_not '[info]'
expect_status 0

# :reply answers toold's questions in a script (here a permission ask), waiting for them.
echo '{"permission": {"bash": "ask"}}' > toold.json
run reply --test-methods --log-level warn <<'LINES'
test_permission action=bash resources=["rm -rf build"]
:reply toold-1 {"reply": "once"}
$/test/ask {"method": "client/confirm"}
:reply toold-2 {"ok": true}
LINES
expect 'granted'
expect '"ok": true'
expect_status 0

# A question the script leaves unanswered is declined as soon as the input ends, with a line on
# stderr, rather than waited on until --timeout (silently, with --quiet).
start=$SECONDS
run unanswered --quiet --timeout 30 --test-methods <<'LINES'
test_permission action=bash resources=["make"]
LINES
expect 'toold-repl: toold asks toold-1 (permission/ask: bash on "make"), but the input has ended and nothing answers it: declined'
expect 'The user rejected permission'
expect_status 1
[ $((SECONDS - start)) -lt 15 ] || complain "the unanswered ask was waited on for $((SECONDS - start)) s"

# A :reply that runs ahead of toold's question says what it waits for.
run reply_waits --quiet --timeout 1 --test-methods <<'LINES'
ping
:reply toold-9 {"reply": "once"}
LINES
expect 'toold-repl: :reply toold-9 waits up to 1 s (--timeout) for toold to ask toold-9 (toold asks nothing now)'
expect_status 1

# :record writes a fixture of the conversation that replays green against a fresh toold.
run record --test-methods --log-level warn <<'LINES'
ping
test_progress steps=2
test_echo path="$PWD"
test_permission action=bash resources=["make"]
:reply toold-1 {"reply": "once"}
$/test/fail {"message": "on purpose"}
:record session.fixture
LINES
expect 'recorded the conversation in session.fixture'
if [ -f session.fixture ]; then
  if ! "$fixture_runner" --toold "$toold" --no-keep session.fixture >"$work/replay" 2>&1; then
    cat "$work/replay" >&2
    cat session.fixture >&2
    complain "the recorded fixture does not replay green"
  fi
  grep -q '"\$capture:snapshot1"' session.fixture || complain "the snapshot id is not captured in the fixture"
else
  complain "no fixture was written"
fi

# :changes, :diff, :undo and :redo: the REPL session's checkpoints, listed, diffed, undone (the
# newest call when none is named) and redone; a later run of the REPL undoes its session's newest
# call, and a person's edit since refuses the undo, naming the path.
mkdir -p ckpt && cd ckpt
run checkpoints --log-level warn <<'LINES'
write filePath=a.txt content=one
edit filePath=a.txt oldString=one newString=two
:changes
:diff call-2
:undo
:changes
:redo
:undo call-1
:diff
LINES
expect '#'  # checkpoint ids
expect ' write call-1: created a.txt'
expect ' edit call-2: modified a.txt'
expect '+two'
expect 'restored 1 path (checkpoint #'
expect ' restore to before #'
expect 'put back 1 path (checkpoint #'
expect '── checkpoint/diff'
expect_status 0
[ ! -e a.txt ] || complain ":undo call-1 must remove the file the write made"
run checkpoints_again --log-level warn <<'LINES'
:redo
LINES
[ "$(cat a.txt 2>/dev/null)" = two ] || complain ":redo in a later run must put a.txt back"
echo "a person's edit" > a.txt
run checkpoints_conflict --log-level warn <<'LINES'
:undo
LINES
expect 'changed outside the session since, so nothing was restored:'
expect '  a.txt'
expect_status 1
[ "$(cat a.txt)" = "a person's edit" ] || complain "a refused undo must leave the person's edit"
cd "$work"

[ "$failed" -eq 0 ] && echo "repl_piped: ok"
exit "$failed"
