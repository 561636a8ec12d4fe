#!/usr/bin/env python3
"""Kills toold with SIGKILL in the middle of a multi-file apply_patch, starts it again on the same
workspace and data directory, and checks that the patch is all there or not there at all, and that
no staging file (".name.toold-...") and no journal is left. Each trial kills at a random moment of
the call (the spread is measured first, on a call that is not killed).

    apply_patch_kill.py --toold PATH [--trials N] [--files N] [--seed N]
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def start(toold, workspace, data, log):
    return subprocess.Popen([toold, "--directory", workspace, "--data-dir", data, "--log-level", "info"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)


def send(process, ident, method, params):
    process.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n").encode())
    process.stdin.flush()


def answer(process, ident):
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"toold closed its output waiting for {ident}")
        message = json.loads(line)
        if message.get("id") == ident and "method" not in message:
            return message


def request(process, ident, method, params):
    send(process, ident, method, params)
    return answer(process, ident)


def prepare(workspace, files):
    """The workspace before the patch, and the patch: update, add and delete, in many folders."""
    for i in range(files):
        os.makedirs(os.path.join(workspace, f"old{i % 7}"), exist_ok=True)
        with open(os.path.join(workspace, f"old{i % 7}", f"e{i}.txt"), "w") as out:
            out.write("".join(f"line {k} of {i}\n" for k in range(20)))
    patch = ["*** Begin Patch"]
    for i in range(files):
        if i % 4 == 3:
            patch.append(f"*** Delete File: old{i % 7}/e{i}.txt")
        else:
            patch += [f"*** Update File: old{i % 7}/e{i}.txt", "@@", f" line 0 of {i}", f"-line 1 of {i}",
                      f"+LINE ONE of {i}", f" line 2 of {i}"]
        patch += [f"*** Add File: new{i % 5}/deep/n{i}.txt", f"+new file {i}"]
    patch.append("*** End Patch")
    return "\n".join(patch)


def state_of(workspace, files):
    """'old', 'new' or 'mixed', with the paths in each state when mixed."""
    seen = {"old": [], "new": []}
    for i in range(files):
        path = os.path.join(workspace, f"old{i % 7}", f"e{i}.txt")
        if i % 4 == 3:
            seen["old" if os.path.exists(path) else "new"].append(path)
        else:
            with open(path) as f:
                text = f.read()
            seen["new" if f"LINE ONE of {i}" in text else "old"].append(path)
        added = os.path.join(workspace, f"new{i % 5}", "deep", f"n{i}.txt")
        seen["new" if os.path.exists(added) else "old"].append(added)
    if not seen["new"]:
        return "old", seen
    if not seen["old"]:
        return "new", seen
    return "mixed", seen


def leftovers(*roots):
    found = []
    for root in roots:
        for folder, _, names in os.walk(root):
            found += [os.path.join(folder, n) for n in names if ".toold-" in n or n.endswith(".journal")
                      or n.endswith(".journal.next")]
    return found


def open_session(process):
    request(process, "init", "initialize", {"protocolVersion": "2025-11-25"})
    return request(process, "snap", "snapshot", {"sessionID": "s", "agent": "build", "model": "gpt-5",
                                                  "rules": [{"action": "edit", "resource": "*", "effect": "allow"}]}
                   )["result"]["snapshot"]


def call_params(snapshot, patch):
    return {"snapshot": snapshot, "sessionID": "s", "agent": "build", "messageID": "m", "callID": "c",
            "name": "apply_patch", "input": {"patchText": patch}}


def trial(args, root, index, delay):
    workspace, data = os.path.join(root, f"w{index}"), os.path.join(root, f"d{index}")
    os.makedirs(workspace)
    os.makedirs(data)
    patch = prepare(workspace, args.files)
    with open(os.path.join(root, f"stderr{index}.log"), "wb") as log:
        process = start(args.toold, workspace, data, log)
        snapshot = open_session(process)
        began = time.perf_counter()
        send(process, "patch", "call", call_params(snapshot, patch))
        if delay is None:
            result = answer(process, "patch")["result"]
            if result["status"] != "completed":
                raise RuntimeError(f"the patch failed: {result}")
            process.stdin.close()
            process.wait(timeout=10)
            return time.perf_counter() - began, None, []
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        restarted = start(args.toold, workspace, data, log)
        request(restarted, "ping", "ping", {})
        restarted.stdin.close()
        restarted.wait(timeout=10)
    with open(os.path.join(root, f"stderr{index}.log"), errors="replace") as log:
        text = log.read()
    replayed = "forward" if "rolled forward" in text else "back" if "rolled back" in text else None
    state, seen = state_of(workspace, args.files)
    problems = []
    if state == "mixed":
        problems.append(f"half applied: {len(seen['new'])} paths new, {len(seen['old'])} old "
                        f"(e.g. new {seen['new'][:2]}, old {seen['old'][:2]})")
    left = leftovers(workspace, data)
    if left:
        problems.append(f"{len(left)} staging or journal files left, e.g. {left[:3]}")
    return state, replayed, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--toold", required=True)
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--files", type=int, default=120)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    root = tempfile.mkdtemp(prefix="toold-crash-")
    failures = 0
    try:
        duration, _, _ = trial(args, root, "calibrate", None)
        states = {"old": 0, "new": 0, "mixed": 0}
        replays = {"forward": 0, "back": 0, None: 0}
        for index in range(args.trials):
            # Mostly inside the call, some just before or after it.
            delay = rng.uniform(0, duration * 1.2)
            state, replayed, problems = trial(args, root, index, delay)
            states[state] += 1
            replays[replayed] += 1
            if problems:
                failures += 1
                print(f"FAIL trial {index} (kill after {delay * 1000:.1f} ms): " + "; ".join(problems))
        print(f"seed {seed}: the call takes {duration * 1000:.0f} ms unkilled; after {args.trials} kills: "
              f"{states['old']} not applied, {states['new']} applied, {states['mixed']} half applied "
              f"({replays['back']} rolled back and {replays['forward']} rolled forward at the restart); "
              f"{failures} trial(s) failed")
    finally:
        if args.keep or failures:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
