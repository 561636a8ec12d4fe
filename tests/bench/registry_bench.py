#!/usr/bin/env python3
"""Measures what many registered tools cost toold: registering them, the memory they hold, and the
snapshots and MCP listings of them. Driven by scripts/bench-registry, which builds toold and passes
the commands; this file generates the tools, sends the requests, checks the answers and prints the
table. A benchmark, not a test: slow numbers never fail it, a wrong answer does.

Measures (each in a fresh toold):
  register 1x10000   one `register` of --tools tools (a record of them all): wall time from the
                     first byte sent to the answer, and resident memory growth per tool
  register 100x100   the same tools in --calls `register` calls of equal records, one after the
                     other (each a scope of its own): the total wall time, memory per tool
  snapshot           a new session's `snapshot` of them all (its answer read whole, not parsed):
                     the first one, and the median of --snapshots later ones, each for a new
                     session; resident memory growth per snapshot kept
  snapshot, known    the same for a runner that holds the definitions already: each new session's
                     `snapshot` passes the first one's `toolsHash` as `knownToolsHash`, and the
                     answer (checked) leaves the definitions out; beside it, a ping's round trip
  tools/list         MCP's listing of them all (every page), the first and a later one
Realistic tools: a name, a one-paragraph description, an input schema of 5 properties (two
required, one an enum, one an array), each tool's own (no two schemas alike, as tools from many
servers are).
Yardsticks: the same register frame sent to --floor (a one-thread responder that parses each frame
into nlohmann::json and answers it, and does nothing else), when given: what reading and parsing
the frame costs any server built on the same parser. For the snapshot, the same answer's bytes
written by a responder that holds them ready (a Python process writing one prepared line per
request line): what carrying the answer through the pipe to this client costs, whatever the
server does to make it.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import time

from bench_summary import record

TARGET_REGISTER_S = 0.3
TARGET_KIB_PER_TOOL = 2.0
TARGET_SNAPSHOT_MS = 10.0

WORDS = ("repository", "branch", "commit", "deployment", "ticket", "customer", "invoice", "channel",
         "document", "record", "pipeline", "artifact", "cluster", "dataset", "report", "schedule")


def tool_definition(i):
    noun = WORDS[i % len(WORDS)]
    other = WORDS[(i * 7 + 3) % len(WORDS)]
    description = (f"Looks up the {noun} identified by the given key in the {other} service and returns its "
                   f"current state as structured data: the fields requested, the time it last changed, and who "
                   f"changed it. Use it before changing a {noun}, to see what is there; it never changes anything "
                   f"itself. Results are limited to the first page unless a cursor from an earlier answer is "
                   f"given (tool {i}).")
    schema = {
        "type": "object",
        "properties": {
            f"{noun}_id": {"type": "string", "description": f"The identifier of the {noun}, as shown in the {other} UI."},
            "fields": {"type": "array", "items": {"type": "string"},
                       "description": "Which fields to return; all of them when absent."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 500,
                      "description": f"At most this many entries (default {10 + i % 90})."},
            "order": {"type": "string", "enum": ["newest", "oldest", "relevance"],
                      "description": "The order of the entries."},
            "include_archived": {"type": "boolean", "description": f"Whether archived {noun}s count too."},
        },
        "required": [f"{noun}_id", "limit"],
        "additionalProperties": False,
    }
    return f"lookup_{noun}_{i:05d}", {"description": description, "inputSchema": schema, "handler": {"type": "client"}}


class Server:
    """A JSON-RPC peer on stdio (newline-delimited JSON); answers are read as raw lines."""

    def __init__(self, command, cwd, initialize=True):
        self.process = subprocess.Popen(shlex.split(command), cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        if initialize:
            self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "toold-bench-registry", "version": "1"}})
            self.notify("notifications/initialized", {})

    def notify(self, method, params):
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n").encode())
        self.process.stdin.flush()

    def frame(self, method, params):
        self.next_id += 1
        return self.next_id, (json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                          "params": params}, separators=(",", ":")) + "\n").encode()

    def send_frame(self, ident, data):
        """Sends a prepared frame and returns (seconds until the whole answer line arrived, the line)."""
        start = time.perf_counter()
        self.process.stdin.write(data)
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            # Answers begin with their id ({"id":N,...}, nlohmann's key order) or with their error;
            # notifications (tools/list_changed) come between.
            if line.startswith(f'{{"id":{ident},'.encode()):
                return time.perf_counter() - start, line
            if line.startswith(b'{"error":') and json.loads(line).get("id") == ident:
                return time.perf_counter() - start, line

    def request(self, method, params):
        ident, data = self.frame(method, params)
        _, line = self.send_frame(ident, data)
        message = json.loads(line)
        if "error" in message:
            raise RuntimeError(f"{method}: {message['error']}")
        return message["result"]

    def timed_request(self, method, params, check=None):
        ident, data = self.frame(method, params)
        seconds, line = self.send_frame(ident, data)
        if check is not None:
            message = json.loads(line)
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            check(message["result"])
        return seconds

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """The CPU time toold has used, all threads: next to wall time, what a loaded machine does
        not inflate."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def settled_rss_kib(self):
        # Lets the daemon's threads finish what the last answer started (logging, list_changed).
        time.sleep(0.3)
        return self.rss_kib()

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def check_registered(count):
    def check(result):
        if len(result["tools"]) != count:
            raise RuntimeError(f"register answered {len(result['tools'])} tools, not {count}")
    return check


def register_all(toold, tools, calls):
    """Registers `tools` in `calls` equal records; returns seconds in total."""
    per_call = len(tools) // calls
    total = 0.0
    for c in range(calls):
        record_tools = dict(tools[c * per_call:(c + 1) * per_call])
        total += toold.timed_request("register", {"tools": record_tools}, check_registered(len(record_tools)))
    return total


# Answers each line it reads with the prepared line in the file it is given: nothing but the write.
ECHO_RESPONDER = """
import sys
answer = open(sys.argv[1], "rb").read()
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    out.write(answer)
    out.flush()
"""


def delivery_seconds(answer, cwd, runs):
    """The median time for `answer` (one line) to reach this client from a responder holding it."""
    path = os.path.join(cwd, "snapshot-answer.jsonl")
    with open(path, "wb") as out:
        out.write(answer)
    responder = subprocess.Popen(["python3", "-c", ECHO_RESPONDER, path], cwd=cwd, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        responder.stdin.write(b"go\n")
        responder.stdin.flush()
        if responder.stdout.readline() != answer:
            raise RuntimeError("the delivery yardstick answered something else")
        times.append(time.perf_counter() - start)
    responder.stdin.close()
    responder.wait()
    os.unlink(path)
    return statistics.median(times[1:])


def fmt_ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toold", required=True, help="the toold command line")
    parser.add_argument("--floor", help="the JSON-parsing floor responder's command line")
    parser.add_argument("--cwd", default=".")
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=100, help="records of the split registration")
    parser.add_argument("--snapshots", type=int, default=20, help="later snapshots measured")
    args = parser.parse_args()

    tools = [tool_definition(i) for i in range(args.tools)]
    rows = []

    # One record of them all, in a fresh toold.
    toold = Server(args.toold, args.cwd)
    toold.request("snapshot", {"sessionID": "warm", "agent": "build"})  # the built-ins' own first costs
    before = toold.settled_rss_kib()
    ident, frame = toold.frame("register", {"tools": dict(tools)})
    cpu = toold.cpu_seconds()
    one_seconds, line = toold.send_frame(ident, frame)
    one_cpu = toold.cpu_seconds() - cpu
    check_registered(args.tools)(json.loads(line)["result"])
    one_kib = (toold.settled_rss_kib() - before) / args.tools

    # Snapshots of new sessions, kept (a runner holds them while its request runs).
    first_snapshot = None
    later = []
    known_hash = []
    snap_before = toold.settled_rss_kib()
    cpu = toold.cpu_seconds()
    for n in range(args.snapshots + 1):
        def check(result, n=n):
            if len(result["tools"]) < args.tools:
                raise RuntimeError(f"snapshot advertised {len(result['tools'])} tools")
            known_hash.append(result["toolsHash"])
        seconds = toold.timed_request("snapshot", {"sessionID": f"session-{n}", "agent": "build"},
                                      check if n == 0 else None)
        if n == 0:
            first_snapshot = seconds
        else:
            later.append(seconds)
    snap_cpu = (toold.cpu_seconds() - cpu) / (args.snapshots + 1)
    snap_kib = (toold.settled_rss_kib() - snap_before) / (args.snapshots + 1)
    ident, frame = toold.frame("snapshot", {"sessionID": "session-delivery", "agent": "build"})
    snapshot_answer = toold.send_frame(ident, frame)[1]

    # New sessions of a runner that holds the definitions: only the snapshot and the hash come back.
    def check_known(result):
        if not result.get("toolsUnchanged") or "tools" in result or result["toolsHash"] != known_hash[0]:
            raise RuntimeError(f"a snapshot with knownToolsHash answered {sorted(result)}")
    known = []
    cpu = toold.cpu_seconds()
    for n in range(args.snapshots):
        known.append(toold.timed_request("snapshot", {"sessionID": f"known-{n}", "agent": "build",
                                                      "knownToolsHash": known_hash[0]}, check_known))
    known_cpu = (toold.cpu_seconds() - cpu) / args.snapshots
    ping_ms = statistics.median(toold.timed_request("ping", {}) for _ in range(args.snapshots)) * 1000

    def list_all():
        start = time.perf_counter()
        cursor, listed = None, 0
        while True:
            result = toold.request("tools/list", {"cursor": cursor} if cursor else {})
            listed += len(result["tools"])
            cursor = result.get("nextCursor")
            if not cursor:
                break
        if listed < args.tools:
            raise RuntimeError(f"tools/list listed {listed} tools")
        return time.perf_counter() - start

    cpu = toold.cpu_seconds()
    list_first = list_all()
    list_first_cpu = toold.cpu_seconds() - cpu
    cpu = toold.cpu_seconds()
    list_later = statistics.median(list_all() for _ in range(5))
    list_later_cpu = (toold.cpu_seconds() - cpu) / 5
    toold.close()

    # The same tools in many records, in a fresh toold.
    toold = Server(args.toold, args.cwd)
    toold.request("snapshot", {"sessionID": "warm", "agent": "build"})
    before = toold.settled_rss_kib()
    cpu = toold.cpu_seconds()
    split_seconds = register_all(toold, tools, args.calls)
    split_cpu = toold.cpu_seconds() - cpu
    split_kib = (toold.settled_rss_kib() - before) / args.tools
    toold.close()

    floor_seconds = floor_cpu = None
    if args.floor:
        floor = Server(args.floor, args.cwd, initialize=False)
        times, cpus = [], []
        for _ in range(3):
            ident, frame = floor.frame("register", {"tools": dict(tools)})
            cpu = floor.cpu_seconds()
            times.append(floor.send_frame(ident, frame)[0])
            cpus.append(floor.cpu_seconds() - cpu)
        floor_seconds = statistics.median(times)
        floor_cpu = statistics.median(cpus)
        floor.close()

    snapshot_ms = statistics.median(later) * 1000
    known_ms = statistics.median(known) * 1000
    delivery_ms = delivery_seconds(snapshot_answer, args.cwd, args.snapshots) * 1000
    pages = (args.tools + 99) // 100
    print(f"{args.tools} tools, {len(frame) / args.tools:.0f} bytes each in the register frame "
          f"({len(frame) / 1048576:.1f} MiB)")
    print()
    print("| measure | toold | toold CPU | target | yardstick |")
    print("|---|---:|---:|---:|---|")
    floor_text = (f"floor (parse the frame): {fmt_ms(floor_seconds)}, CPU {fmt_ms(floor_cpu)}"
                  if floor_seconds is not None else "")
    print(f"| register 1x{args.tools} | {fmt_ms(one_seconds)} | {fmt_ms(one_cpu)} | {TARGET_REGISTER_S * 1000:.0f} ms | {floor_text} |")
    print(f"| register {args.calls}x{args.tools // args.calls} | {fmt_ms(split_seconds)} | {fmt_ms(split_cpu)} | "
          f"{TARGET_REGISTER_S * 1000:.0f} ms | |")
    print(f"| memory per tool (1 record) | {one_kib:.2f} KiB | | {TARGET_KIB_PER_TOOL:.0f} KiB | "
          f"frame: {len(frame) / args.tools / 1024:.2f} KiB a tool |")
    print(f"| memory per tool ({args.calls} records) | {split_kib:.2f} KiB | | {TARGET_KIB_PER_TOOL:.0f} KiB | |")
    print(f"| snapshot, first | {fmt_ms(first_snapshot)} | | | |")
    print(f"| snapshot, new session (median of {args.snapshots}) | {snapshot_ms:.1f} ms | {fmt_ms(snap_cpu)} (mean) | "
          f"{TARGET_SNAPSHOT_MS:.0f} ms | the answer's {len(snapshot_answer) / 1048576:.1f} MiB delivered: "
          f"{delivery_ms:.1f} ms |")
    print(f"| snapshot, new session, definitions known (median of {args.snapshots}) | {known_ms:.2f} ms | "
          f"{fmt_ms(known_cpu)} (mean) | {TARGET_SNAPSHOT_MS:.0f} ms | a ping: {ping_ms:.2f} ms |")
    print(f"| memory per snapshot kept | {snap_kib:.0f} KiB | | | |")
    print(f"| tools/list, all pages, first | {fmt_ms(list_first)} | {fmt_ms(list_first_cpu)} | | |")
    print(f"| tools/list, all pages, later | {fmt_ms(list_later)} | {fmt_ms(list_later_cpu)} (mean) | | |")

    register_seconds = max(one_seconds, split_seconds)
    yardstick = fmt_ms(floor_seconds) if floor_seconds is not None else "none"
    ratio = round(one_seconds / floor_seconds, 2) if floor_seconds else ""
    record("registry", f"register {args.tools} tools (1 record; {args.calls} records)",
           f"{fmt_ms(one_seconds)}; {fmt_ms(split_seconds)}", f"parse the frame: {yardstick}", ratio,
           "toold ÷ parse (lower is better)" if ratio != "" else "",
           f"≤ {TARGET_REGISTER_S * 1000:.0f} ms", register_seconds <= TARGET_REGISTER_S)
    record("registry", "memory per registered tool", f"{max(one_kib, split_kib):.2f} KiB",
           f"register frame: {len(frame) / args.tools / 1024:.2f} KiB a tool",
           round(max(one_kib, split_kib) / (len(frame) / args.tools / 1024), 2), "toold ÷ frame (lower is better)",
           f"≤ {TARGET_KIB_PER_TOOL:.0f} KiB", max(one_kib, split_kib) <= TARGET_KIB_PER_TOOL)
    # Sent whole, the definitions cost what carrying their megabytes costs (the delivery row);
    # a runner that holds them (knownToolsHash) is what the target is for.
    record("registry", f"new session's snapshot of {args.tools} tools, definitions sent", f"{snapshot_ms:.1f} ms",
           f"deliver the answer's {len(snapshot_answer) / 1048576:.1f} MiB: {delivery_ms:.1f} ms",
           round(snapshot_ms / delivery_ms, 2), "toold ÷ delivery (lower is better)")
    record("registry", f"new session's snapshot of {args.tools} tools, the runner holding the definitions "
           "(knownToolsHash)", f"{known_ms:.2f} ms", f"definitions sent: {snapshot_ms:.1f} ms",
           round(known_ms / snapshot_ms, 2), "known ÷ sent (lower is better)", f"≤ {TARGET_SNAPSHOT_MS:.0f} ms",
           known_ms <= TARGET_SNAPSHOT_MS)
    record("registry", f"MCP tools/list of {args.tools} tools ({pages} pages, a later listing)",
           fmt_ms(list_later), "", "", "", "", None)


if __name__ == "__main__":
    main()
