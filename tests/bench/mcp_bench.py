#!/usr/bin/env python3
"""Benchmarks toold's MCP client: one MCP client (this script) calls server-filesystem's
read_text_file directly, and through toold (toold's MCP face, the call going on to the same server
through toold's MCP client), in one run, the two alternating round by round. Two files are read:
200 lines (14 KB, over the MCP face's output budget, so toold cuts the answer and keeps the full
text in a file) and 100 lines (7 KB, within it: the proxy's own cost). Prints the median time per sequential call, the
throughput of pipelined calls, the ratios toold / direct, and toold's RSS with 5 servers connected.

  mcp_bench.py TOOLD FILESYSTEM_SERVER WORKDIR [--calls N] [--pipelined N] [--relay RELAY]

With --relay (toold-bench-relay, which only copies bytes between the client and the server it
starts), the same calls go through it too: what any process in the path costs on this machine;
and through it with --parse (each line parsed with nlohmann and written anew): what a proxy that
reads the answers it passes cannot avoid.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_summary import record  # noqa: E402

toold, server, work = sys.argv[1], sys.argv[2], sys.argv[3]
# 3,000 calls a side: with 300 the median moved by a fifth from run to run on a 2-vCPU VM.
calls = int(sys.argv[sys.argv.index("--calls") + 1]) if "--calls" in sys.argv else 3000
pipelined = int(sys.argv[sys.argv.index("--pipelined") + 1]) if "--pipelined" in sys.argv else 1000
relay = sys.argv[sys.argv.index("--relay") + 1] if "--relay" in sys.argv else None


class Client:
    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.next = 1
        self.buffer = b""

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def read(self):
        while b"\n" not in self.buffer:
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                raise SystemExit("bench-mcp: the server closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, method, params):
        rid = self.next
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == rid:
                if "error" in message:
                    raise SystemExit("bench-mcp: %s failed: %s" % (method, message["error"]))
                return message["result"]

    def initialize(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def wait_for_tools(client, names):
    deadline = time.time() + 60
    while time.time() < deadline:
        listed = {tool["name"] for tool in client.request("tools/list", {})["tools"]}
        if all(name in listed for name in names):
            return
        time.sleep(0.1)
    raise SystemExit("bench-mcp: toold's MCP servers did not connect within 60 s")


def check(client, tool, path):
    answer = client.request("tools/call", {"name": tool, "arguments": {"path": path}})
    if answer.get("isError") or "line 1" not in answer["content"][0]["text"]:
        raise SystemExit("bench-mcp: %s answered %s" % (tool, json.dumps(answer)[:300]))


def sequential(client, tool, path, count, times):
    arguments = {"path": path}
    for _ in range(count):
        start = time.perf_counter()
        client.request("tools/call", {"name": tool, "arguments": arguments})
        times.append(time.perf_counter() - start)


def pipelined_round(client, tool, path, count):
    arguments = {"path": path}
    first = client.next
    start = time.perf_counter()
    for i in range(count):
        client.send({"jsonrpc": "2.0", "id": first + i, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    answered = 0
    while answered < count:
        if "id" in client.read():
            answered += 1
    client.next = first + count
    return time.perf_counter() - start


def cpu_seconds(pid):
    """The process's own CPU time (user and system, its threads, not its children)."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


os.makedirs(work, exist_ok=True)


def data_file(name, count):
    file_path = os.path.join(work, name)
    with open(file_path, "w") as f:
        for i in range(1, count + 1):
            f.write("line %d of the file the benchmark reads, long enough to look like code\n" % i)
    return file_path


path = data_file("data.txt", 200)             # over the MCP face's budget: cut and kept
small_path = data_file("data-small.txt", 100)  # within it: passed through

direct = Client([server, work], work)
direct.initialize()
with open(os.path.join(work, "toold.json"), "w") as f:
    json.dump({"mcp": {"fs": {"type": "local", "command": [server, "."]}}}, f)
through = Client([toold, "--directory", work, "--data-dir", os.path.join(work, "data"), "--no-builtins",
                  "--unattended", "allow", "--log-level", "warn"], work)
through.initialize()
wait_for_tools(through, ["fs_read_text_file"])
sides = [("direct", direct, "read_text_file"), ("toold", through, "fs_read_text_file")]
if relay:
    relayed = Client([relay, server, work], work)
    relayed.initialize()
    sides.insert(1, ("relay", relayed, "read_text_file"))
    # The least a proxy that reads what it passes does: each line parsed with nlohmann and written
    # anew. toold must read a server's answer (to check it against the output schema, to bound it).
    parsing = Client([relay, "--parse", server, work], work)
    parsing.initialize()
    sides.insert(2, ("parsing relay", parsing, "read_text_file"))
for _, client, tool in sides:
    check(client, tool, path)
    sequential(client, tool, path, 50, [])  # warm-up
    sequential(client, tool, small_path, 50, [])

# The sides alternate round by round (the order turning each round), so that a change of load
# during the run lands on all of them rather than in a ratio.
rounds = 10
times = {name: [] for name, _, _ in sides}
seconds = {name: 0.0 for name, _, _ in sides}
# The CPU time of the process in the path (toold, the relay) during the sequential calls: what it
# does per call, which the machine's load changes much less than the time a call takes.
cpu = {name: 0.0 for name, _, _ in sides}
small_times = {name: [] for name, _, _ in sides}
small_cpu = {name: 0.0 for name, _, _ in sides}
for r in range(rounds):
    order = sides[r % len(sides):] + sides[:r % len(sides)]
    for name, client, tool in order:
        before = cpu_seconds(client.proc.pid)
        sequential(client, tool, path, max(1, calls // rounds), times[name])
        cpu[name] += cpu_seconds(client.proc.pid) - before
        before = cpu_seconds(client.proc.pid)
        sequential(client, tool, small_path, max(1, calls // rounds), small_times[name])
        small_cpu[name] += cpu_seconds(client.proc.pid) - before
for r in range(rounds):
    order = sides[r % len(sides):] + sides[:r % len(sides)]
    for name, client, tool in order:
        seconds[name] += pipelined_round(client, tool, path, max(1, pipelined // rounds))
for _, client, tool in sides:
    check(client, tool, path)
    client.close()
done = max(1, pipelined // rounds) * rounds
sequential_calls = max(1, calls // rounds) * rounds
median = {name: statistics.median(values) for name, values in times.items()}
small_median = {name: statistics.median(values) for name, values in small_times.items()}
rate = {name: done / value for name, value in seconds.items()}
direct_time, toold_time = median["direct"], median["toold"]
direct_rate, toold_rate = rate["direct"], rate["toold"]

servers = {"fs%d" % i: {"type": "local", "command": [server, "."]} for i in range(1, 6)}
with open(os.path.join(work, "toold.json"), "w") as f:
    json.dump({"mcp": servers}, f)
idle = Client([toold, "--directory", work, "--data-dir", os.path.join(work, "data"), "--no-builtins", "--log-level", "warn"], work)
idle.initialize()
wait_for_tools(idle, ["fs%d_read_text_file" % i for i in range(1, 6)])
time.sleep(0.5)
rss = rss_kib(idle.proc.pid)
idle.close()

print("| | direct |%s through toold | toold / direct |%s target |" % (" through the relay |" if relay else "", " toold / relay |" if relay else ""))
print("| --- | ---: |%s ---: | ---: |%s --- |" % (" ---: |" if relay else "", " ---: |" if relay else ""))
if relay:
    print("| read_text_file, median per call (%d calls) | %.0f µs | %.0f µs | %.0f µs | %.2fx | %.2fx | ≤ 1.15x |" % (
        calls, direct_time * 1e6, median["relay"] * 1e6, toold_time * 1e6, toold_time / direct_time, toold_time / median["relay"]))
    print("| pipelined throughput (%d calls) | %.0f /s | %.0f /s | %.0f /s | %.2fx | %.2fx | ≥ 0.9x |" % (
        done, direct_rate, rate["relay"], toold_rate, toold_rate / direct_rate, toold_rate / rate["relay"]))
    print("| CPU of the process in the path, per sequential call | | %.0f µs | %.0f µs | | | |" % (
        cpu["relay"] / sequential_calls * 1e6, cpu["toold"] / sequential_calls * 1e6))
    print("| 7 KB answer (within the budget), median per call | %.0f µs | %.0f µs | %.0f µs | %.2fx | %.2fx | ≤ 1.1x |" % (
        small_median["direct"] * 1e6, small_median["relay"] * 1e6, small_median["toold"] * 1e6,
        small_median["toold"] / small_median["direct"], small_median["toold"] / small_median["relay"]))
    print("| 7 KB answer, CPU of the process in the path, per call | | %.0f µs | %.0f µs | | | |" % (
        small_cpu["relay"] / sequential_calls * 1e6, small_cpu["toold"] / sequential_calls * 1e6))
    print("| toold RSS with 5 servers connected | | | %.1f MiB | | | |" % (rss / 1024))
    print()
    print("Through the parsing relay (each line parsed with nlohmann and written anew), 7 KB answer: "
          "%.0f µs a call, %.0f µs of its CPU; toold / parsing relay %.2fx, CPU %.2fx." % (
              small_median["parsing relay"] * 1e6, small_cpu["parsing relay"] / sequential_calls * 1e6,
              small_median["toold"] / small_median["parsing relay"],
              small_cpu["toold"] / small_cpu["parsing relay"] if small_cpu["parsing relay"] > 0 else 0))
else:
    print("| read_text_file, median per call (%d calls) | %.0f µs | %.0f µs | %.2fx | ≤ 1.15x |" % (calls, direct_time * 1e6, toold_time * 1e6, toold_time / direct_time))
    print("| pipelined throughput (%d calls) | %.0f /s | %.0f /s | %.2fx | ≥ 0.9x |" % (done, direct_rate, toold_rate, toold_rate / direct_rate))
    print("| CPU of toold per sequential call | | %.0f µs | | |" % (cpu["toold"] / sequential_calls * 1e6))
    print("| 7 KB answer (within the budget), median per call | %.0f µs | %.0f µs | %.2fx | |" % (
        small_median["direct"] * 1e6, small_median["toold"] * 1e6, small_median["toold"] / small_median["direct"]))
    print("| 7 KB answer, CPU of toold per call | | %.0f µs | | |" % (small_cpu["toold"] / sequential_calls * 1e6))
    print("| toold RSS with 5 servers connected | | %.1f MiB | | |" % (rss / 1024))
record("mcp", "MCP call through toold, median per call", "%.0f µs" % (toold_time * 1e6), "%.0f µs direct" % (direct_time * 1e6),
       "%.2fx" % (toold_time / direct_time), "time, lower is better", "≤ 1.15x", toold_time / direct_time <= 1.15)
record("mcp", "MCP calls through toold, pipelined", "%.0f /s" % toold_rate, "%.0f /s direct" % direct_rate,
       "%.2fx" % (toold_rate / direct_rate), "throughput, higher is better", "≥ 0.9x", toold_rate / direct_rate >= 0.9)
record("mcp", "MCP call through toold, toold's CPU per call", "%.0f µs" % (cpu["toold"] / sequential_calls * 1e6),
       "%.0f µs relay" % (cpu["relay"] / sequential_calls * 1e6) if relay else "",
       "%.1fx" % (cpu["toold"] / cpu["relay"]) if relay and cpu["relay"] > 0 else "",
       "the parses, checks, bound and saved output a relay does without")
if relay:
    record("mcp", "MCP call through toold, 7 KB answer within the budget, median per call",
           "%.0f µs" % (small_median["toold"] * 1e6), "%.0f µs relay" % (small_median["relay"] * 1e6),
           "%.2fx" % (small_median["toold"] / small_median["relay"]), "time, lower is better", "≤ 1.1x",
           small_median["toold"] / small_median["relay"] <= 1.1)
    record("mcp", "MCP call through toold, 7 KB answer, toold's CPU per call", "%.0f µs" % (small_cpu["toold"] / sequential_calls * 1e6),
           "%.0f µs relay" % (small_cpu["relay"] / sequential_calls * 1e6),
           "%.1fx" % (small_cpu["toold"] / small_cpu["relay"]) if small_cpu["relay"] > 0 else "",
           "the proxy's own work: parses, checks, one write each way")
    record("mcp", "MCP call through toold, 7 KB answer, over a relay that parses each line (nlohmann) and writes it anew",
           "%.0f µs" % (small_median["toold"] * 1e6), "%.0f µs parsing relay" % (small_median["parsing relay"] * 1e6),
           "%.2fx" % (small_median["toold"] / small_median["parsing relay"]), "time, lower is better")
    record("mcp", "MCP call, 7 KB answer, the parsing relay's CPU per call",
           "%.0f µs" % (small_cpu["parsing relay"] / sequential_calls * 1e6),
           "%.0f µs relay" % (small_cpu["relay"] / sequential_calls * 1e6),
           "%.1fx" % (small_cpu["parsing relay"] / small_cpu["relay"]) if small_cpu["relay"] > 0 else "",
           "what reading the answer at all costs a proxy")
    record("mcp", "MCP call through a do-nothing relay, median per call", "%.0f µs" % (median["relay"] * 1e6),
           "%.0f µs direct" % (direct_time * 1e6), "%.2fx" % (median["relay"] / direct_time), "the machine's cost of a process in the path")
    record("mcp", "MCP calls through a do-nothing relay, pipelined", "%.0f /s" % rate["relay"], "%.0f /s direct" % direct_rate,
           "%.2fx" % (rate["relay"] / direct_rate), "the machine's cost of a process in the path")
