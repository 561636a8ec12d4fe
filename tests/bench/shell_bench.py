#!/usr/bin/env python3
"""Measures toold's shell tool, running as a daemon spoken to over JSON-RPC on stdio, against the
same work done without toold in the same run. Driven by scripts/bench-shell, which builds toold
and passes its command; this file sends the calls, checks the answers and prints the table. A
benchmark, not a test: slow numbers never fail it, a wrong answer does.

Queries:
  true       the round trip of `bash {"command": "true"}` through `call` (median of --runs after
             a warm-up), against this script starting `<shell> -c true` itself with
             subprocess and waiting for it: the spawn every shell tool pays
  stream     a command printing 1 MB, then one printing --gib GiB (`head -c N /dev/zero`), through
             `bash`, alternating run by run with the yardstick: toold reads it,
             spools it to its log and digests it for the model; against this script reading the
             same command's pipe and spooling it to a file on the same disk, 64 KiB at a time, as
             any tool that keeps the full output must. Throughput in MB/s (median of
             --stream-runs), and toold's peak resident memory during the stream.
  sandbox    the OS sandbox's cost: the `true` round trip and the --gib stream through a toold
             with the sandbox on (workspace-write, in a git workspace, so `.git` is bound
             read-only for each command) against one with --sandbox off, call by call in turn;
             and, as the floor, `toold-sandbox … -- <shell> -c true` spawned by this script
             against `<shell> -c true` (what the kernel's part costs, without toold).
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_summary import record

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files_bench import Server  # noqa: E402  (the JSON-RPC client the file benchmark uses)


class Toold(Server):
    """toold with one snapshot for session "bench"; bash() returns the whole outcome."""

    def __init__(self, command, cwd):
        super().__init__(command, cwd)
        self.snapshot = self.request("snapshot", {"sessionID": "bench", "agent": "build"})["snapshot"]

    def bash(self, command, timeout=0):
        outcome = self.request("call", {"snapshot": self.snapshot, "sessionID": "bench", "agent": "build",
                                        "messageID": "m", "callID": f"c{self.next_id}", "name": "bash",
                                        "input": {"command": command, "timeout": timeout}})
        if outcome.get("status") != "completed":
            raise RuntimeError(f"bash {command!r}: {outcome}")
        return outcome


def median_ms(samples):
    return statistics.median(samples) * 1000


def time_true(toold, shell, runs):
    toold.bash("true")
    ours = []
    for _ in range(runs):
        start = time.perf_counter()
        outcome = toold.bash("true")
        ours.append(time.perf_counter() - start)
        if outcome["metadata"]["exit"] != 0:
            raise RuntimeError(f"true: {outcome}")
    subprocess.run([shell, "-c", "true"], check=True)
    peer = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([shell, "-c", "true"], stdin=subprocess.DEVNULL, check=True)
        peer.append(time.perf_counter() - start)
    return median_ms(ours), median_ms(peer)


def time_stream(toold, shell, size, runs):
    """toold's `bash` and the same command with its pipe spooled to a file, alternating run by run
    so that a change of load lands on both sides."""
    command = f"head -c {size} /dev/zero"
    ours, peaks, peer = [], [], []
    for _ in range(runs):
        toold.reset_peak()
        start = time.perf_counter()
        outcome = toold.bash(command)
        ours.append(time.perf_counter() - start)
        peaks.append(toold.status_kib("VmHWM"))
        metadata = outcome["metadata"]
        if metadata["outputBytes"] != size or not metadata["truncated"]:
            raise RuntimeError(f"stream: {metadata}")
        # The log is checked, then removed so that the runs do not fill the disk.
        log = metadata["logPath"]
        folder = os.path.dirname(log)
        # A log keeps the head and tail of what is over its bound (metadata.logKept), and a line between.
        kept = metadata.get("logKept")
        expected = size if kept is None else kept["headBytes"] + kept["tailBytes"]
        held = os.path.getsize(log)
        if held < expected or held > expected + (0 if kept is None else 512):
            raise RuntimeError(f"stream: the log {log} holds {held} bytes, for {expected} kept of {size}")
        os.remove(log)

        spool = os.path.join(folder, "peer-spool")  # the disk toold spools to
        start = time.perf_counter()
        child = subprocess.Popen([shell, "-c", command], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        total = 0
        with open(spool, "wb", buffering=0) as out:
            while True:
                chunk = child.stdout.read1(1 << 16)
                if not chunk:
                    break
                out.write(chunk)
                total += len(chunk)
        child.wait()
        peer.append(time.perf_counter() - start)
        os.remove(spool)
        if total != size:
            raise RuntimeError(f"stream peer read {total} bytes, not {size}")
    return statistics.median(ours), statistics.median(peer), max(peaks) / 1024


def time_sandbox(command, scratch, shell, runs, stream_runs, size):
    """The same calls through a toold with the sandbox on and one with it off, in turn."""
    workspace = os.path.join(scratch, "sandboxed")
    os.makedirs(workspace)
    subprocess.run(["git", "init", "-q", workspace], check=True)
    config = os.path.join(scratch, "toold.json")
    daemons = {}
    for mode in ("workspace-write", "off"):
        data = os.path.join(scratch, f"data-{mode}")
        daemons[mode] = Toold(f"{command} --directory {shlex.quote(workspace)} --data-dir {shlex.quote(data)} "
                              f"--config {shlex.quote(config)} --sandbox {mode}", workspace)
    on, off = daemons["workspace-write"], daemons["off"]
    if on.bash("true")["metadata"].get("sandbox") != "inside" or off.bash("true")["metadata"].get("sandbox") != "outside":
        raise RuntimeError("sandbox: the two daemons do not run commands as asked")
    trips = {"workspace-write": [], "off": []}
    for _ in range(runs):
        for mode, daemon in daemons.items():
            start = time.perf_counter()
            daemon.bash("true")
            trips[mode].append(time.perf_counter() - start)
    streams = {"workspace-write": [], "off": []}
    for _ in range(stream_runs):
        for mode, daemon in daemons.items():
            start = time.perf_counter()
            outcome = daemon.bash(f"head -c {size} /dev/zero")
            streams[mode].append(time.perf_counter() - start)
            if outcome["metadata"]["outputBytes"] != size:
                raise RuntimeError(f"sandbox stream: {outcome['metadata']}")
            os.remove(outcome["metadata"]["logPath"])
    for daemon in daemons.values():
        daemon.close()
    # The floor: the launcher with lists like toold's, spawned directly.
    launcher = os.path.join(os.path.dirname(shlex.split(command)[0]), "toold-sandbox")
    lists = []
    for folder in ("/usr", "/bin", "/lib", "/lib64", "/etc", "/proc"):
        lists += ["--read", folder]
    lists += ["--write", workspace, "--write", "/tmp", "--device", "/dev/null", "--protect", os.path.join(workspace, ".git"),
              "--no-network", "--"]
    wrapped, plain = [], []
    for _ in range(runs):
        for argv, samples in (([launcher] + lists + [shell, "-c", "true"], wrapped), ([shell, "-c", "true"], plain)):
            start = time.perf_counter()
            subprocess.run(argv, stdin=subprocess.DEVNULL, check=True)
            samples.append(time.perf_counter() - start)
    return {"trip_on": median_ms(trips["workspace-write"]), "trip_off": median_ms(trips["off"]),
            "stream_on": size / 1e6 / statistics.median(streams["workspace-write"]),
            "stream_off": size / 1e6 / statistics.median(streams["off"]),
            "floor_on": median_ms(wrapped), "floor_off": median_ms(plain)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toold", required=True, help="toold's command, without --directory/--data-dir")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--stream-runs", type=int, default=5)
    parser.add_argument("--gib", type=float, default=1.0)
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="toold-bench-shell-")
    try:
        workspace = os.path.join(scratch, "workspace")
        data = os.path.join(scratch, "data")
        os.makedirs(workspace)
        # Repeating one call is what a benchmark does; toold would ask about it as a doom loop.
        config = os.path.join(scratch, "toold.json")
        with open(config, "w") as out:
            out.write('{"permission": {"doom_loop": "allow"}}')
        toold = Toold(f"{args.toold} --directory {shlex.quote(workspace)} --data-dir {shlex.quote(data)} "
                      f"--config {shlex.quote(config)}", workspace)
        shell = toold.bash("echo $0")["content"][0]["text"].strip()
        size = int(args.gib * (1 << 30))

        true_ours, true_peer = time_true(toold, shell, args.runs)
        small_ours, small_peer, _ = time_stream(toold, shell, 1_000_000, max(5, args.runs // 4))
        stream_ours, stream_peer, peak_mib = time_stream(toold, shell, size, args.stream_runs)
        stream_ours, stream_peer = size / 1e6 / stream_ours, size / 1e6 / stream_peer
        toold.close()
        sandbox = time_sandbox(args.toold, scratch, shell, args.runs, args.stream_runs, size)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    # Ratios are of times, as in the other benchmarks: below 1.0 toold is faster.
    print(f"| query | toold | without toold | toold ÷ without (time) | target |")
    print(f"| --- | ---: | ---: | ---: | --- |")
    print(f"| `true` round trip through `call` (median of {args.runs}) | {true_ours:.2f} ms | "
          f"{true_peer:.2f} ms (`{shell} -c true` spawned) | {true_ours / true_peer:.2f} | ≤ 3 ms |")
    print(f"| streaming 1 MB of output (median of {max(5, args.runs // 4)}) | {small_ours * 1e3:.2f} ms | "
          f"{small_peer * 1e3:.2f} ms (the pipe spooled to a file) | {small_ours / small_peer:.2f} | ≤ 1.5x |")
    print(f"| streaming {args.gib:g} GiB of output (median of {args.stream_runs}) | {stream_ours:.0f} MB/s | "
          f"{stream_peer:.0f} MB/s (the pipe spooled to a file) | {stream_peer / stream_ours:.2f} | ≥ 500 MB/s |")
    print()
    print(f"toold's peak resident memory while streaming: {peak_mib:.1f} MiB (target ≤ 64 MiB)")
    print()
    print("| the OS sandbox | on (workspace-write) | off | on ÷ off (time) | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    trip_ratio = sandbox["trip_on"] / sandbox["trip_off"]
    stream_ratio = sandbox["stream_off"] / sandbox["stream_on"]
    floor_ratio = sandbox["floor_on"] / sandbox["floor_off"]
    print(f"| `true` round trip through `call` (median of {args.runs}) | {sandbox['trip_on']:.2f} ms | "
          f"{sandbox['trip_off']:.2f} ms | {trip_ratio:.2f} | ≤ 1.1 |")
    print(f"| streaming {args.gib:g} GiB of output (median of {args.stream_runs}) | {sandbox['stream_on']:.0f} MB/s | "
          f"{sandbox['stream_off']:.0f} MB/s | {stream_ratio:.2f} | ≤ 1.02 |")
    print(f"| floor: `toold-sandbox … -- {shell} -c true` against `{shell} -c true`, spawned here | "
          f"{sandbox['floor_on']:.2f} ms | {sandbox['floor_off']:.2f} ms | {floor_ratio:.2f} | |")
    record("bench-shell", "`true` round trip, sandbox on ÷ off", f"{sandbox['trip_on']:.2f} ms",
           f"--sandbox off {sandbox['trip_off']:.2f} ms", trip_ratio, "on ÷ off, time", "≤ 1.1", trip_ratio <= 1.1)
    record("bench-shell", f"streaming {args.gib:g} GiB, sandbox on ÷ off", f"{sandbox['stream_on']:.0f} MB/s",
           f"--sandbox off {sandbox['stream_off']:.0f} MB/s", stream_ratio, "on ÷ off, time", "≤ 1.02",
           stream_ratio <= 1.02)
    record("bench-shell", "floor: the launcher's own cost", f"{sandbox['floor_on']:.2f} ms",
           f"`{shell} -c true` {sandbox['floor_off']:.2f} ms", floor_ratio, "wrapped ÷ plain, time", "", True)
    record("bench-shell", "`true` round trip through `call`", f"{true_ours:.2f} ms", f"`{shell} -c true` {true_peer:.2f} ms",
           true_ours / true_peer, "toold ÷ yardstick, time", "≤ 3 ms", true_ours <= 3)
    record("bench-shell", "streaming 1 MB of output", f"{small_ours * 1e3:.2f} ms", f"spooled to a file {small_peer * 1e3:.2f} ms",
           small_ours / small_peer, "toold ÷ yardstick, time", "≤ 1.5", small_ours / small_peer <= 1.5)
    record("bench-shell", f"streaming {args.gib:g} GiB of output", f"{stream_ours:.0f} MB/s",
           f"spooled to a file {stream_peer:.0f} MB/s", stream_peer / stream_ours, "toold ÷ yardstick, time", "≤ 1.5",
           stream_peer / stream_ours <= 1.5)
    record("bench-shell", f"peak resident memory streaming {args.gib:g} GiB", f"{peak_mib:.1f} MiB", "", peak_mib / 64,
           "toold ÷ target", "≤ 64 MiB", peak_mib <= 64)


if __name__ == "__main__":
    sys.exit(main())
