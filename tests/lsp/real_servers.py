#!/usr/bin/env python3
"""toold with real language servers: clangd, pylsp, typescript-language-server and pyright.

Starts the real toold over stdio (newline-delimited JSON-RPC) in a temporary workspace with
`--lsp on`, reads and edits files through `call` as an agent would, and checks what the servers'
verdicts become in the answers: an error an edit causes comes in the same answer, fixing it clears
it, an error that was there before is counted and not listed, the lsp tool's locations, lsp/status,
and that no server outlives toold. The fixtures in tests/fixtures/lsp/ test the same paths against
a fake server; this test is about what real servers send.

  real_servers.py --toold PATH --server clangd|pylsp|typescript|pyright [--peers DIR]

--peers is the folder scripts/lsp-peers installs the npm servers into; typescript and pyright are
skipped (exit 77) without it, clangd and pylsp when their program is not installed.
"""
import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
failures = []
started = []  # every toold started, killed at the end if a failed exchange left it running


def check(what, ok, compared):
    """Records a failed expectation with what was compared; the run goes on to the next check."""
    if ok:
        print(f"ok    {what}")
    else:
        print(f"FAIL  {what}\n      {compared}")
        failures.append(what)
    return ok


class Toold:
    """toold on stdio with one snapshot for session "s"; answers are matched by id, notifications kept."""

    def __init__(self, toold, workspace, data, env):
        self.process = subprocess.Popen([toold, "--directory", workspace, "--data-dir", data, "--lsp", "on"],
                                        cwd=workspace, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(os.path.join(data, "stderr.log"), "wb"))
        started.append(self.process)
        self.messages = queue.Queue()
        self.notifications = []
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25"})
        self.snapshot = self.request("snapshot", {"sessionID": "s", "agent": "build"})["snapshot"]

    def _read(self):
        for line in self.process.stdout:
            self.messages.put(json.loads(line))
        self.messages.put(None)

    def request(self, method, params, timeout=90):
        self.next_id += 1
        ident = self.next_id
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
                                  + "\n").encode())
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no answer to {method} within {timeout} s")
            if message is None:
                raise RuntimeError(f"toold closed its output (waiting for {method})")
            if "method" in message:
                self.notifications.append(message)
                continue
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def call(self, name, tool_input):
        return self.request("call", {"snapshot": self.snapshot, "sessionID": "s", "agent": "build",
                                     "messageID": "m", "callID": f"c{self.next_id}", "name": name,
                                     "input": tool_input})

    def close(self):
        """Closes stdin and waits for toold; returns its exit status."""
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def text(outcome):
    return "".join(part.get("text", "") for part in outcome.get("content", []))


def errors_of(outcome, file):
    """The error items metadata.diagnostics holds for `file` (a relative path)."""
    for entry in outcome.get("metadata", {}).get("diagnostics", []):
        if entry.get("file") == file and not entry.get("other"):
            return [item for item in entry.get("items", []) if item.get("severity") == "error"], entry
    return None, None


def write_files(workspace, files):
    for path, content in files.items():
        full = os.path.join(workspace, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as out:
            out.write(content)


def wait_for_diagnostics(toold, path, predicate, timeout=30):
    """Polls lsp/diagnostics until the file's diagnostics satisfy `predicate` — what a model's
    thinking time between a read and an edit gives the server in practice."""
    deadline = time.monotonic() + timeout
    while True:
        diagnostics = toold.request("lsp/diagnostics", {"path": path})["diagnostics"]
        if predicate(diagnostics) or time.monotonic() > deadline:
            return diagnostics
        time.sleep(0.1)


def expect_new_error(toold, path, old, new, pattern, what):
    start = time.monotonic()
    outcome = toold.call("edit", {"filePath": path, "oldString": old, "newString": new})
    answer = text(outcome)
    if os.environ.get("TOOLD_LSP_TEST_VERBOSE"):
        print(f"{time.monotonic() - start:.2f} s: {answer}")
    check(f"{what}: the edit's answer carries the block",
          outcome.get("status") == "completed" and "LSP errors detected in this file, please fix:" in answer
          and f'<diagnostics file="' in answer, f"answer: {answer!r}")
    check(f"{what}: an ERROR line matches {pattern!r}", re.search(pattern, answer) is not None, f"answer: {answer!r}")
    errors, entry = errors_of(outcome, path)
    # The read opened the file and the edit waited for that version's verdict: the error is known new.
    check(f"{what}: metadata.diagnostics has the error, new", bool(errors) and all(e.get("new") is True for e in errors)
          and entry.get("received") is True, f"metadata: {outcome.get('metadata', {}).get('diagnostics')}")
    return outcome


def expect_cleared(toold, path, old, new, what):
    outcome = toold.call("edit", {"filePath": path, "oldString": old, "newString": new})
    answer = text(outcome)
    check(f"{what}: the fixed file's answer has no block", answer == "Edit applied successfully.", f"answer: {answer!r}")
    errors, entry = errors_of(outcome, path)
    check(f"{what}: metadata.diagnostics received, no errors", errors == [] and entry.get("received") is True,
          f"metadata: {outcome.get('metadata', {}).get('diagnostics')}")


def status_of(toold, name):
    return [server for server in toold.request("lsp/status", {})["running"] if server["name"] == name]


def close_and_check_servers(toold, pids):
    """Closes toold, then checks that the servers it started (and their process groups) are gone in 3 s."""
    status = toold.close()
    check("toold exits cleanly when its input closes", status == 0, f"exit status {status}")
    deadline = time.monotonic() + 3
    while True:
        left = [pid for pid in pids if alive(pid) or group_members(pid)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    check("no server process outlives toold", pids and not left,
          f"server pids {pids}; still there: {[(pid, group_members(pid)) for pid in left]}")


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def group_members(pgid):
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry))
    return members


# --- clangd ---------------------------------------------------------------------------------------

MAIN_CPP = """#include "geometry.h"

int main() {
  int a = area(2, 3);
  return a == 6 ? 0 : 1;
}
"""

OLD_CPP = """int broken() { return undeclared_name; }

int fine() { return 1; }
"""


def test_clangd(toold_path, workspace, data, env):
    entries = [{"directory": workspace, "file": f"src/{name}",
                "command": f"c++ -std=c++20 -Iinclude -c src/{name}"} for name in ("main.cpp", "old.cpp")]
    write_files(workspace, {
        "compile_commands.json": json.dumps(entries, indent=2),
        "include/geometry.h": "#pragma once\n\nint area(int w, int h);\n",
        "src/main.cpp": MAIN_CPP,
        "src/old.cpp": OLD_CPP,
    })
    toold = Toold(toold_path, workspace, data, env)
    toold.call("read", {"filePath": "src/main.cpp"})
    expect_new_error(toold, "src/main.cpp", "area(2, 3)", "area(2, 3, 4)",
                     r"ERROR \[4:11\] [^\n]*'area'", "clangd, a call with one argument too many")
    expect_cleared(toold, "src/main.cpp", "area(2, 3, 4)", "area(2, 3)", "clangd, the call fixed")

    # The lsp tool: `area` on line 4 of main.cpp, column 11.
    position = {"filePath": "src/main.cpp", "line": 4, "character": 11}
    definition = text(toold.call("lsp", {"operation": "goToDefinition", **position}))
    check("clangd, goToDefinition lands in the header by its relative path",
          re.search(r"^include/geometry\.h:3:\d+: int area\(int w, int h\);", definition, re.M) is not None,
          f"answer: {definition!r}")
    references = text(toold.call("lsp", {"operation": "findReferences", **position}))
    check("clangd, findReferences lists the header and main.cpp",
          "include/geometry.h" in references and "src/main.cpp" in references and workspace not in references,
          f"answer: {references!r}")

    # An error there from the start is the file's, not the edit's: counted, not listed.
    toold.call("read", {"filePath": "src/old.cpp"})
    before = wait_for_diagnostics(toold, "src/old.cpp", lambda found: any(d["severity"] == "error" for d in found))
    check("clangd, the old error is published after the read",
          any("undeclared_name" in d["message"] for d in before), f"lsp/diagnostics: {before}")
    outcome = toold.call("edit", {"filePath": "src/old.cpp", "oldString": "return 1;", "newString": "return 2;"})
    answer = text(outcome)
    check("clangd, an unrelated edit counts the old error and does not list it",
          answer == "Edit applied successfully.\n\n1 error in this file was already there before this change; not listed.",
          f"answer: {answer!r}")
    errors, entry = errors_of(outcome, "src/old.cpp")
    check("clangd, metadata marks the old error not new",
          entry is not None and entry.get("newErrors") == 0 and len(errors) == 1 and errors[0].get("new") is False,
          f"metadata: {outcome.get('metadata', {}).get('diagnostics')}")

    running = status_of(toold, "clangd")
    check("clangd, lsp/status shows one clangd ready, rooted at the workspace",
          len(running) == 1 and running[0]["state"] == "ready" and running[0]["root"] == workspace
          and running[0].get("pid"), f"running: {running}")
    close_and_check_servers(toold, [server["pid"] for server in running if server.get("pid")])


# --- Python: pylsp, pyright ------------------------------------------------------------------------

def test_python(server, toold_path, workspace, data, env):
    write_files(workspace, {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0.1.0"\n',
        "pkg/__init__.py": "",
        "pkg/mod.py": "def double(x):\n    return x * 2\n",
    })
    toold = Toold(toold_path, workspace, data, env)
    toold.call("read", {"filePath": "pkg/mod.py"})
    # pyflakes through pylsp says "undefined name 'y'"; pyright says `"y" is not defined`.
    pattern = r"ERROR \[2:12\] undefined name 'y'" if server == "pylsp" else r'ERROR \[2:12\] "y" is not defined'
    expect_new_error(toold, "pkg/mod.py", "return x * 2", "return y * 2", pattern, f"{server}, an undefined name")
    expect_cleared(toold, "pkg/mod.py", "return y * 2", "return x * 2", f"{server}, the name fixed")
    running = status_of(toold, server)
    check(f"{server}, lsp/status shows it ready, rooted at the workspace",
          len(running) == 1 and running[0]["state"] == "ready" and running[0]["root"] == workspace,
          f"running: {running}")
    close_and_check_servers(toold, [s["pid"] for s in running if s.get("pid")])


# --- typescript-language-server --------------------------------------------------------------------

def test_typescript(toold_path, workspace, data, env):
    write_files(workspace, {
        "package.json": '{"name": "t", "private": true}\n',
        "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022"}, "include": ["src"]}\n',
        "src/a.ts": 'export const s: string = "x";\n',
    })
    toold = Toold(toold_path, workspace, data, env)
    toold.call("read", {"filePath": "src/a.ts"})
    expect_new_error(toold, "src/a.ts", 'export const s: string = "x";\n',
                     'export const s: string = "x";\nconst n: number = "x";\n',
                     r"ERROR \[2:7\] Type 'string' is not assignable to type 'number'", "typescript, a type error")
    expect_cleared(toold, "src/a.ts", 'const n: number = "x";\n', 'export const n: number = 1;\n',
                   "typescript, the type fixed")
    running = status_of(toold, "typescript")
    check("typescript, lsp/status shows it ready, rooted at the workspace",
          len(running) == 1 and running[0]["state"] == "ready" and running[0]["root"] == workspace,
          f"running: {running}")
    close_and_check_servers(toold, [s["pid"] for s in running if s.get("pid")])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toold", required=True)
    parser.add_argument("--server", required=True, choices=["clangd", "pylsp", "typescript", "pyright"])
    parser.add_argument("--peers", default="", help="the folder scripts/lsp-peers installed into")
    args = parser.parse_args()

    env = dict(os.environ)
    # Only the server under test may serve its files: pyright wins over pylsp when both are on PATH.
    path = [d for d in env.get("PATH", "").split(os.pathsep) if not os.path.exists(os.path.join(d, "pyright-langserver"))]
    if args.server in ("typescript", "pyright"):
        bin_dir = os.path.join(os.path.abspath(args.peers), "node_modules", ".bin") if args.peers else ""
        program = "typescript-language-server" if args.server == "typescript" else "pyright-langserver"
        if not bin_dir or not os.access(os.path.join(bin_dir, program), os.X_OK) or not shutil.which("node"):
            print(f"{args.server}: {program} is not installed (scripts/lsp-peers installs it); skipped")
            return SKIP
        path.insert(0, bin_dir)
    else:
        if not shutil.which(args.server, path=os.pathsep.join(path)):
            print(f"{args.server}: not installed (Debian package {'clangd' if args.server == 'clangd' else 'python3-pylsp'}); skipped")
            return SKIP
    env["PATH"] = os.pathsep.join(path)

    scratch = os.path.realpath(tempfile.mkdtemp(prefix=f"toold-lsp-{args.server}-"))
    workspace, data = os.path.join(scratch, "workspace"), os.path.join(scratch, "data")
    os.makedirs(workspace)
    os.makedirs(data)
    # Correctness, not speed, is tested here: a loaded machine may take seconds for a first parse.
    with open(os.path.join(workspace, "toold.json"), "w") as out:
        out.write('{"lsp": {"diagnosticsTimeout": 45000}}')
    try:
        if args.server == "clangd":
            test_clangd(args.toold, workspace, data, env)
        elif args.server == "typescript":
            test_typescript(args.toold, workspace, data, env)
        else:
            test_python(args.server, args.toold, workspace, data, env)
    except Exception as error:  # a broken protocol exchange is a failure too, with toold's log
        check("the exchange with toold", False, repr(error))
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()
    if failures:
        with open(os.path.join(data, "stderr.log"), errors="replace") as log:
            print("toold's stderr (last 40 lines):\n" + "".join(log.readlines()[-40:]))
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{args.server}: {len(failures)} failed" if failures else f"{args.server}: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
