#!/usr/bin/env python3
"""Measures what checkpoints cost a call: toold with checkpoints on against toold with
`--checkpoints off`, both running and spoken to over JSON-RPC on stdio, call by call in turn, on
two copies of the same tree (each daemon its own copy and its own data folder, so neither sees the
other's changes). Driven by scripts/bench-checkpoint, which builds toold and passes its command. A
benchmark, not a test: slow numbers never fail it, a wrong answer does.

Measures (median of --runs after a warm-up, once the daemon with checkpoints on is idle: its
baseline of the tree is taken in the background at start):
  edit     a one-line `edit` of a 200-line file in a 10,000-file tree (alternating a change and its
           reverse): the time of the round trip and toold's CPU per call, on − off (goal ≤ +2 ms)
  bash     `bash {"command": "true"}` in a 100,000-file tree (2,100 folders): on − off (goal ≤ +20 ms)
  storage  100 one-line edits of a 1 MiB source-like file, each a different line, through `edit`:
           the bytes of <data-dir>/checkpoints afterwards, baseline included (goal ≤ 2 MB)
"""
import argparse
import os
import random
import shlex
import shutil
import statistics
import sys
import tempfile
import time

from bench_summary import record

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files_bench import Server  # noqa: E402  (the JSON-RPC client the file benchmark uses)

WORDS = ("render", "widget", "state", "value", "index", "buffer", "parse", "token", "node", "count")


class Toold(Server):
    def __init__(self, command, cwd):
        super().__init__(command, cwd)
        self.snapshot = self.request("snapshot", {"sessionID": "bench", "agent": "build",
                                                  "model": "claude-sonnet-4"})["snapshot"]
        self.calls = 0

    def call(self, name, arguments):
        self.calls += 1
        outcome = self.request("call", {"snapshot": self.snapshot, "sessionID": "bench", "agent": "build",
                                        "messageID": f"m{self.calls}", "callID": f"c{self.calls}", "name": name,
                                        "input": arguments})
        if outcome.get("status") != "completed":
            raise RuntimeError(f"toold {name}: {outcome}")
        return outcome

    def cpu_ms(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def wait_idle(self, quiet_ms=30, seconds=600):
        """Until toold's CPU over one second is below `quiet_ms` (its background baseline done)."""
        deadline = time.monotonic() + seconds
        before = self.cpu_ms()
        while time.monotonic() < deadline:
            time.sleep(1)
            now = self.cpu_ms()
            if now - before < quiet_ms:
                return
            before = now
        raise RuntimeError("toold did not settle")


def source_line(rng, i):
    return f"    let {rng.choice(WORDS)}_{i} = {rng.choice(WORDS)}({rng.randrange(100000)}, {rng.choice(WORDS)});\n"


def make_tree(root, files, folders):
    """`files` small source-like files spread over `folders` folders in two levels; `edit.rs` at
    the top is the file the edits change. Kept in .bench/ for the next run."""
    done = os.path.join(root, ".complete")
    if os.path.exists(done):
        return
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(files)
    top = max(1, int(folders ** 0.5))
    per_top = max(1, folders // top)
    paths = [os.path.join(root, f"d{a:03d}", f"s{b:03d}") for a in range(top) for b in range(per_top)]
    for path in paths:
        os.makedirs(path)
    for i in range(files):
        with open(os.path.join(paths[i % len(paths)], f"f{i:06d}.rs"), "w") as out:
            out.writelines(source_line(rng, j) for j in range(rng.randrange(5, 40)))
    with open(os.path.join(root, "edit.rs"), "w") as out:
        out.writelines(source_line(rng, j) for j in range(200))
    open(done, "w").close()


def copy_tree(source, target):
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)


def start_pair(toold, scratch, tree, name):
    """Two daemons on two copies of `tree`, checkpoints on and off, each with its own data folder."""
    config = os.path.join(scratch, "toold.json")
    with open(config, "w") as out:
        out.write('{"permission": {"doom_loop": "allow"}}')
    daemons = {}
    for mode in ("on", "off"):
        workspace = os.path.join(scratch, f"{name}-{mode}")
        copy_tree(tree, workspace)
        data = os.path.join(scratch, f"data-{name}-{mode}")
        daemons[mode] = Toold(f"{toold} --directory {shlex.quote(workspace)} --data-dir {shlex.quote(data)} "
                              f"--config {shlex.quote(config)} --checkpoints {mode}", workspace)
    return daemons


def in_turn(daemons, action, runs):
    """Runs `action(daemon)` on each daemon in turn, `runs` times; medians of wall ms and CPU ms."""
    samples = {mode: ([], []) for mode in daemons}
    for _ in range(runs):
        for mode, daemon in daemons.items():
            cpu = daemon.cpu_ms()
            start = time.perf_counter()
            action(daemon)
            samples[mode][0].append((time.perf_counter() - start) * 1000)
            samples[mode][1].append(daemon.cpu_ms() - cpu)
    # CPU is counted in clock ticks (10 ms): the mean, not the median, says what a call costs.
    return {mode: (statistics.median(wall), statistics.fmean(cpu)) for mode, (wall, cpu) in samples.items()}


def edit_toggle(daemon):
    """One edit of the file's line 101, each time the reverse of the last."""
    forward = getattr(daemon, "forward", True)
    old, new = (daemon.edit_line, daemon.edit_line.replace("let", "var", 1))
    if not forward:
        old, new = new, old
    daemon.forward = not forward
    daemon.call("edit", {"filePath": "edit.rs", "oldString": old, "newString": new})


def storage_bytes(scratch, toold, edits):
    workspace = os.path.join(scratch, "storage")
    os.makedirs(workspace)
    rng = random.Random(7)
    lines = []
    size = 0
    while size < 1 << 20:
        lines.append(source_line(rng, len(lines)))
        size += len(lines[-1])
    with open(os.path.join(workspace, "big.rs"), "w") as out:
        out.writelines(lines)
    data = os.path.join(scratch, "data-storage")
    daemon = Toold(f"{toold} --directory {shlex.quote(workspace)} --data-dir {shlex.quote(data)}", workspace)
    daemon.call("read", {"filePath": "big.rs", "limit": 1})
    for k in range(edits):
        i = (k * 7919) % len(lines)
        daemon.call("edit", {"filePath": "big.rs", "oldString": lines[i], "newString": lines[i].replace("let", "var", 1)})
    daemon.close()
    total = 0
    for folder, _, files in os.walk(os.path.join(data, "checkpoints")):
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    return total, size


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toold", required=True, help="toold's command, without --directory/--data-dir")
    parser.add_argument("--trees", required=True, help="where the generated trees are kept")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--edits", type=int, default=100)
    args = parser.parse_args()

    small = os.path.join(args.trees, "files-10000")
    large = os.path.join(args.trees, "files-100000")
    make_tree(small, 10_000, 400)
    make_tree(large, 100_000, 2_100)
    scratch = tempfile.mkdtemp(prefix="toold-bench-checkpoint-")
    try:
        daemons = start_pair(args.toold, scratch, small, "edit")
        with open(os.path.join(small, "edit.rs")) as f:
            line = f.readlines()[100]
        for daemon in daemons.values():
            daemon.edit_line = line
            daemon.call("read", {"filePath": "edit.rs"})
        daemons["on"].wait_idle()
        in_turn(daemons, edit_toggle, 4)
        edit = in_turn(daemons, edit_toggle, args.runs)
        for daemon in daemons.values():
            daemon.close()

        daemons = start_pair(args.toold, scratch, large, "bash")
        daemons["on"].wait_idle()
        true = lambda daemon: daemon.call("bash", {"command": "true"})  # noqa: E731
        in_turn(daemons, true, 4)
        bash = in_turn(daemons, true, args.runs)
        for daemon in daemons.values():
            daemon.close()

        stored, file_size = storage_bytes(scratch, args.toold, args.edits)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    edit_added = edit["on"][0] - edit["off"][0]
    bash_added = bash["on"][0] - bash["off"][0]
    print("| per call | checkpoints on | off | added (time) | added (toold's CPU, mean) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| one-line `edit`, 10,000-file tree (median of {args.runs}) | {edit['on'][0]:.2f} ms | "
          f"{edit['off'][0]:.2f} ms | {edit_added:+.2f} ms | {edit['on'][1] - edit['off'][1]:+.2f} ms | ≤ +2 ms |")
    print(f"| `bash true`, 100,000-file tree (median of {args.runs}) | {bash['on'][0]:.2f} ms | "
          f"{bash['off'][0]:.2f} ms | {bash_added:+.2f} ms | {bash['on'][1] - bash['off'][1]:+.2f} ms | ≤ +20 ms |")
    print()
    print(f"Storage after {args.edits} one-line edits of a {file_size / 1e6:.2f} MB file (baseline included): "
          f"{stored / 1e6:.2f} MB (target ≤ 2 MB)")
    record("bench-checkpoint", "one-line `edit` in a 10,000-file tree, checkpoints on − off",
           f"{edit['on'][0]:.2f} ms", f"--checkpoints off {edit['off'][0]:.2f} ms", edit["on"][0] / edit["off"][0],
           "on ÷ off, time", "≤ +2 ms", edit_added <= 2)
    record("bench-checkpoint", "`bash true` in a 100,000-file tree, checkpoints on − off",
           f"{bash['on'][0]:.2f} ms", f"--checkpoints off {bash['off'][0]:.2f} ms", bash["on"][0] / bash["off"][0],
           "on ÷ off, time", "≤ +20 ms", bash_added <= 20)
    record("bench-checkpoint", f"storage for {args.edits} one-line edits of a 1 MB file", f"{stored / 1e6:.2f} MB",
           f"the file {file_size / 1e6:.2f} MB", stored / 2e6, "toold ÷ target", "≤ 2 MB", stored <= 2e6)


if __name__ == "__main__":
    main()
