#!/usr/bin/env python3
"""Measures what toold adds to a language server's verdict on an edit, against the server spoken to
directly, in the same run. Driven by scripts/bench-lsp, which builds toold and passes its command;
this file speaks LSP to clangd, JSON-RPC to toold, checks the answers and prints the table. A
benchmark, not a test: slow numbers never fail it, a wrong answer does.

Both sides get their own copy of the same small C++ project (a header declaring `int area(int, int)`,
src/main.cpp calling it, a compile_commands.json) and the same alternating change to main.cpp, one
that breaks the call's arity and one that fixes it, round by round in turn so that a change of load
lands on both:

  clangd alone   this script as the LSP client of `clangd`: didOpen, then per round didChange with
                 the full text and the next version, timed from sending it to clangd's
                 publishDiagnostics for that version
  toold          the same change as an `edit` call to toold with --lsp on (clangd behind it), timed
                 from sending the call to its answer, which carries the diagnostics
  no server      an `edit` of a .txt file (no server serves it) through a toold with --lsp on and
                 one with --lsp off, neither running a server: what the LSP machinery costs a file
                 it has no server for
"""
import argparse
import json
import os
import queue
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_summary import record  # noqa: E402

FIXED = "area(2, 3)"
BROKEN = "area(2, 3, 4)"
MAIN_CPP = f"""#include "geometry.h"

int main() {{
  int a = {FIXED};
  return a == 6 ? 0 : 1;
}}
"""


def make_project(folder):
    os.makedirs(os.path.join(folder, "include"))
    os.makedirs(os.path.join(folder, "src"))
    with open(os.path.join(folder, "include", "geometry.h"), "w") as out:
        out.write("#pragma once\n\nint area(int w, int h);\n")
    with open(os.path.join(folder, "src", "main.cpp"), "w") as out:
        out.write(MAIN_CPP)
    with open(os.path.join(folder, "notes.txt"), "w") as out:
        out.write("one\ntwo\n")
    with open(os.path.join(folder, "compile_commands.json"), "w") as out:
        json.dump([{"directory": folder, "file": "src/main.cpp",
                    "command": "c++ -std=c++20 -Iinclude -c src/main.cpp"}], out)


class Peer:
    """A child process spoken to in JSON messages, read on a thread so that waits have deadlines."""

    def __init__(self, argv, cwd):
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def next_message(self, deadline):
        message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        if message is None:
            raise RuntimeError(f"{self.process.args[0]} closed its output")
        return message


class Toold(Peer):
    """toold on stdio (newline-delimited JSON-RPC) with one snapshot for session "bench"."""

    def __init__(self, command, cwd):
        super().__init__(shlex.split(command), cwd)
        self.request("initialize", {"protocolVersion": "2025-11-25"})
        self.snapshot = self.request("snapshot", {"sessionID": "bench", "agent": "build"})["snapshot"]

    def _read(self):
        for line in self.process.stdout:
            self.messages.put(json.loads(line))
        self.messages.put(None)

    def request(self, method, params, timeout=60):
        self.next_id += 1
        ident = self.next_id
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
                                  + "\n").encode())
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(deadline)
            if message.get("id") == ident and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def call(self, name, tool_input):
        outcome = self.request("call", {"snapshot": self.snapshot, "sessionID": "bench", "agent": "build",
                                        "messageID": "m", "callID": f"c{self.next_id}", "name": name,
                                        "input": tool_input})
        if outcome.get("status") != "completed":
            raise RuntimeError(f"{name} {tool_input}: {outcome}")
        return outcome

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


class Clangd(Peer):
    """clangd spoken to directly, with the capabilities toold announces, its requests answered as
    toold answers them."""

    def __init__(self, folder):
        super().__init__(["clangd"], folder)
        self.uri = "file://" + os.path.join(folder, "src", "main.cpp")
        self.version = 1
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": "file://" + folder,
            "workspaceFolders": [{"uri": "file://" + folder, "name": os.path.basename(folder)}],
            "capabilities": {"workspace": {"configuration": True, "workspaceFolders": True},
                             "window": {"workDoneProgress": True},
                             "textDocument": {"synchronization": {"didSave": True},
                                              "publishDiagnostics": {"versionSupport": True}},
                             "general": {"positionEncodings": ["utf-16"]}}})
        self.notify("initialized", {})
        self.notify("textDocument/didOpen", {"textDocument": {"uri": self.uri, "languageId": "cpp", "version": 1,
                                                              "text": MAIN_CPP}})
        self.wait_diagnostics(1, time.monotonic() + 60)

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    self.messages.put(None)
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode().partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def handle(self, message):
        """Answers the server's requests (configuration: its defaults, the rest: null)."""
        if "id" in message and "method" in message:
            result = [None] * len(message["params"].get("items", [])) if message["method"] == "workspace/configuration" else None
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + 60
        while True:
            message = self.next_message(deadline)
            self.handle(message)
            if message.get("id") == ident and "method" not in message:
                return message.get("result")

    def wait_diagnostics(self, version, deadline):
        while True:
            message = self.next_message(deadline)
            self.handle(message)
            params = message.get("params", {})
            if (message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == self.uri
                    and params.get("version", version) == version):
                return params["diagnostics"]

    def change(self, text):
        """didChange then didSave, as toold sends them; returns the diagnostics of that version."""
        self.version += 1
        self.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version},
                                               "contentChanges": [{"text": text}]})
        self.notify("textDocument/didSave", {"textDocument": {"uri": self.uri}})
        return self.wait_diagnostics(self.version, time.monotonic() + 60)

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=10)


def median_ms(samples):
    return statistics.median(samples) * 1000


def run(args, scratch):
    config = os.path.join(scratch, "toold.json")
    with open(config, "w") as out:
        # Alternating the same two edits is what a benchmark does; toold would ask about it as a doom loop.
        out.write('{"permission": {"doom_loop": "allow"}}')

    def start_toold(name, lsp):
        folder = os.path.join(scratch, name)
        make_project(folder)
        data = os.path.join(scratch, name + "-data")
        return Toold(f"{args.toold} --directory {shlex.quote(folder)} --data-dir {shlex.quote(data)} "
                     f"--config {shlex.quote(config)} --lsp {lsp}", folder)

    clangd_folder = os.path.join(scratch, "clangd")
    make_project(clangd_folder)
    clangd = Clangd(clangd_folder)
    with_lsp = start_toold("toold", "on")
    with_lsp.call("read", {"filePath": "src/main.cpp"})
    # The .txt edits go to two more toolds that never start a server, so that neither shares a
    # process with clangd's client.
    txt_on = start_toold("toold-txt-on", "on")
    txt_off = start_toold("toold-txt-off", "off")
    for toold in (txt_on, txt_off):
        toold.call("read", {"filePath": "notes.txt"})

    times = {"clangd": [], "toold": [], "txt on": [], "txt off": []}
    text = MAIN_CPP
    # One warm-up round (clangd's first rebuild of the preamble), then the measured ones.
    for round_index in range(args.rounds + 1):
        broken = round_index % 2 == 0
        old, new = (FIXED, BROKEN) if broken else (BROKEN, FIXED)
        text = text.replace(old, new)

        def time_clangd():
            start = time.perf_counter()
            diagnostics = clangd.change(text)
            if any(d.get("severity") == 1 for d in diagnostics) != broken:
                raise RuntimeError(f"clangd, round {round_index}: {diagnostics}")
            return time.perf_counter() - start

        def time_toold():
            start = time.perf_counter()
            outcome = with_lsp.call("edit", {"filePath": "src/main.cpp", "oldString": old, "newString": new})
            elapsed = time.perf_counter() - start
            answer = outcome["content"][0]["text"]
            if ("LSP errors detected in this file" in answer) != broken or "pending" in answer:
                raise RuntimeError(f"toold, round {round_index}: {answer!r}")
            return elapsed

        # Which side goes first changes every two rounds (so each order sees both texts): the one
        # that follows finds the other's clangd still busy with what it does after publishing.
        if (round_index // 2) % 2 == 0:
            elapsed_clangd = time_clangd()
            elapsed_toold = time_toold()
        else:
            elapsed_toold = time_toold()
            elapsed_clangd = time_clangd()

        line_old, line_new = ("one", "uno") if broken else ("uno", "one")
        def time_txt(toold):
            start = time.perf_counter()
            toold.call("edit", {"filePath": "notes.txt", "oldString": line_old, "newString": line_new})
            return time.perf_counter() - start

        if round_index % 2 == 0:
            elapsed_on, elapsed_off = time_txt(txt_on), time_txt(txt_off)
        else:
            elapsed_off, elapsed_on = time_txt(txt_off), time_txt(txt_on)

        if round_index > 0:
            times["clangd"].append(elapsed_clangd)
            times["toold"].append(elapsed_toold)
            times["txt on"].append(elapsed_on)
            times["txt off"].append(elapsed_off)

    clangd.close()
    for toold in (with_lsp, txt_on, txt_off):
        toold.close()
    return {name: median_ms(samples) for name, samples in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toold", required=True, help="toold's command, without --directory/--data-dir/--lsp")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--dir", default=None,
                        help="where the projects go (default: the temporary folder); on a tmpfs such as "
                             "/dev/shm the edit's durable write costs nothing, which leaves the LSP part")
    args = parser.parse_args()
    if not shutil.which("clangd"):
        print("bench-lsp: clangd is not installed (Debian package clangd)", file=sys.stderr)
        return 2

    scratch = os.path.realpath(tempfile.mkdtemp(prefix="toold-bench-lsp-", dir=args.dir))
    try:
        medians = run(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    version = subprocess.run(["clangd", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    ours, peer = medians["toold"], medians["clangd"]
    added, ratio = ours - peer, ours / peer
    target = max(5.0, peer * 0.10)
    on, off = medians["txt on"], medians["txt off"]
    print(f"Server: {version}; projects in {os.path.dirname(scratch)}")
    print()
    print("| query | toold | without toold | toold − without | toold ÷ without (time) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| an edit to its diagnostics, clangd (median of {args.rounds}) | {ours:.2f} ms (`edit`'s answer) | "
          f"{peer:.2f} ms (didChange to publishDiagnostics) | {added:+.2f} ms | {ratio:.2f} | "
          f"≤ +10 % or +5 ms ({target:.1f} ms) |")
    print()
    print(f"toold − without includes the `edit` itself (reading, replacing, writing the file, the answer): "
          f"{on:.2f} ms for the .txt file below; what is left, {added - on:+.2f} ms, is the LSP part.")
    print()
    print("| an edit of a file no server serves | --lsp on | --lsp off | on − off | on ÷ off (time) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| `edit` round trip of a .txt file (median of {args.rounds}) | {on:.2f} ms | {off:.2f} ms | "
          f"{on - off:+.2f} ms | {on / off:.2f} | ≈ 1.0 |")
    record("bench-lsp", "an edit to its diagnostics, clangd", f"{ours:.2f} ms", f"clangd alone {peer:.2f} ms",
           ratio, "toold ÷ yardstick, time", "≤ +10 % or +5 ms", added <= target)
    record("bench-lsp", "`edit` of a file no server serves, --lsp on ÷ off", f"{on:.2f} ms", f"--lsp off {off:.2f} ms",
           on / off, "on ÷ off, time", "≈ 1.0", on / off <= 1.1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
