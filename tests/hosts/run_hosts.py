#!/usr/bin/env python3
"""Runs real coding hosts headless against the scripted fake model (fake_model.py), each with
toold as its MCP server over stdio, and checks one realistic turn of toold's tools.

  run_hosts.py --toold PATH --hosts-dir DIR [--host claude|codex|opencode ...] [--quick]
               [--keep] [--timeout S] [--toold-arg ARG ...] [--report FILE]

For each host: a temporary workspace, HOME and host config pointing the host at the fake model
on 127.0.0.1; the host runs one prompt; the fake model plays the script (turn.py) and judges
every result the host sends back. Prints per host a table of steps (passed/failed/skipped), the
host's round trip per call and toold's own time for it (from toold's debug log), and the reason
of each failure. Exits 1 when any step failed, 0 otherwise.

Stdlib only. Every process started here is stopped by its id at the end.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fake_model  # noqa: E402
import turn  # noqa: E402

PROMPT = "Work through the task with the toold tools you are given."


def log(msg):
    print(msg, flush=True)


# --- hosts -----------------------------------------------------------------------------------

class Host:
    name = ""
    package = ""

    def __init__(self, hosts_dir, toold, toold_args, tmp, base_url, tool_timeout_s):
        self.hosts_dir = hosts_dir
        self.toold = toold
        self.toold_args = toold_args
        self.tmp = tmp
        self.base_url = base_url
        self.tool_timeout_s = tool_timeout_s
        self.home = os.path.join(tmp, "home")
        self.ws = os.path.join(tmp, "ws")
        os.makedirs(self.home, exist_ok=True)

    def bin(self, name):
        return os.path.join(self.hosts_dir, "node_modules", ".bin", name)

    def base_env(self):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "TMPDIR": os.path.join(self.tmp, "tmp"),
            # The hosts must reach nothing but the fake model: no proxy from the caller's shell.
            "NO_PROXY": "127.0.0.1,localhost",
        }
        os.makedirs(env["TMPDIR"], exist_ok=True)
        return env

    def version(self):
        try:
            out = subprocess.run([self.command()[0], "--version"], capture_output=True, text=True, timeout=60,
                                 env=self.base_env())
            return (out.stdout or out.stderr).strip().splitlines()[0]
        except (OSError, subprocess.SubprocessError, IndexError):
            return "unknown"


class Claude(Host):
    name = "claude"
    package = "@anthropic-ai/claude-code"

    def command(self):
        return [self.bin("claude")]

    def setup(self):
        # alwaysLoad: toold's tools are in the first request rather than deferred behind Claude
        # Code's tool search (and Claude Code waits for toold to connect before it).
        cfg = {"mcpServers": {"toold": {"type": "stdio", "command": self.toold, "args": self.toold_args,
                                        "alwaysLoad": True}}}
        path = os.path.join(self.tmp, "mcp.json")
        with open(path, "w") as f:
            json.dump(cfg, f, indent=2)
        # Claude Code's own permission layer must let toold's tools run headless, and its
        # duplicate built-ins are turned off so the model sees toold's alone.
        settings = {
            "permissions": {"allow": ["mcp__toold"],
                            "deny": ["Bash", "Read", "Edit", "Write", "MultiEdit", "Grep", "Glob", "NotebookEdit",
                                     "WebFetch", "WebSearch"]},
        }
        spath = os.path.join(self.tmp, "claude-settings.json")
        with open(spath, "w") as f:
            json.dump(settings, f, indent=2)
        argv = self.command() + ["-p", PROMPT, "--mcp-config", path, "--strict-mcp-config",
                                 "--settings", spath, "--allowedTools", "mcp__toold",
                                 "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5",
                                 "--no-session-persistence"]
        env = self.base_env()
        env.update({
            "ANTHROPIC_BASE_URL": self.base_url,
            "ANTHROPIC_API_KEY": "dummy",
            # toold must be connected before the first model request, or its tools are missing
            # from it.
            "MCP_CONNECTION_NONBLOCKING": "false",
            "MCP_TIMEOUT": "60000",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
        })
        if self.tool_timeout_s:
            env["MCP_TOOL_TIMEOUT"] = str(self.tool_timeout_s * 1000)
        return argv, env


class Codex(Host):
    name = "codex"
    package = "@openai/codex"

    def command(self):
        return [self.bin("codex")]

    def setup(self):
        codex_home = os.path.join(self.tmp, "codex-home")
        os.makedirs(codex_home, exist_ok=True)

        def toml_str(s):
            return json.dumps(s)

        args = ", ".join(toml_str(a) for a in self.toold_args)
        config = f"""model = "gpt-5.5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
# Codex's own shell tool duplicates toold's bash; the model should use toold's.
shell_tool = false
# No network but the fake model: plugin and app syncs would only fail and log.
plugins = false
remote_plugin = false
apps = false
in_app_updates = false

[model_providers.fake]
name = "fake model"
base_url = "{self.base_url}/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
supports_websockets = false

[mcp_servers.toold]
command = {toml_str(self.toold)}
args = [{args}]
# Codex refuses to start the turn without toold rather than run it without toold's tools.
required = true
startup_timeout_sec = 60
{f"tool_timeout_sec = {self.tool_timeout_s}" if self.tool_timeout_s else "# tool_timeout_sec: the default (60 s)"}
# Codex asks before any tool not marked read-only; headless, nobody can answer.
default_tools_approval_mode = "approve"
"""
        with open(os.path.join(codex_home, "config.toml"), "w") as f:
            f.write(config)
        argv = self.command() + ["exec", "--strict-config", "--skip-git-repo-check", "--json", "-C", self.ws, PROMPT]
        env = self.base_env()
        env.update({"CODEX_HOME": codex_home, "OPENAI_API_KEY": "dummy", "RUST_LOG": "warn"})
        return argv, env


class Opencode(Host):
    name = "opencode"
    package = "opencode-ai"

    def command(self):
        return [self.bin("opencode")]

    def setup(self):
        cfg = {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "model": "fake/fake-model",
            "small_model": "fake/fake-model",
            "provider": {"fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Fake model",
                "options": {"baseURL": self.base_url + "/v1", "apiKey": "dummy"},
                "models": {"fake-model": {"name": "Fake model", "tool_call": True,
                                          "limit": {"context": 200000, "output": 32000}}}}},
            "mcp": {"toold": {"type": "local", "command": [self.toold] + self.toold_args, "enabled": True}},
            # opencode's own tools that toold duplicates are denied, which takes them out of the
            # model's tool list; toold's (toold_*) stay allowed, toold's own rules decide.
            "permission": {"*": "allow", "bash": "deny", "read": "deny", "edit": "deny", "glob": "deny",
                           "grep": "deny", "list": "deny", "todowrite": "deny", "webfetch": "deny",
                           "task": "deny", "skill": "deny", "question": "deny"},
        }
        if self.tool_timeout_s:
            cfg["mcp"]["toold"]["timeout"] = self.tool_timeout_s * 1000
        with open(os.path.join(self.ws, "opencode.json"), "w") as f:
            json.dump(cfg, f, indent=2)
        argv = self.command() + ["run", "--format", "json", PROMPT]
        env = self.base_env()
        env.update({
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_SHARE": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "OPENCODE_DISABLE_CLAUDE_CODE": "1",
            "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
            "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
        })
        return argv, env


HOSTS = {"claude": Claude, "codex": Codex, "opencode": Opencode}


# --- processes ---------------------------------------------------------------------------------

def stop_group(proc, grace=5.0):
    """Stops the host's process group (it was started as a session leader), by its id."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def stop_strays(marker):
    """Stops processes left behind that name this run's folder (a toold the host started in a
    group of its own), each by its pid."""
    me = os.getpid()
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmd:
            found.append(int(pid))
    for sig in (signal.SIGTERM, signal.SIGKILL):
        alive = []
        for pid in found:
            try:
                os.kill(pid, sig)
                alive.append(pid)
            except ProcessLookupError:
                pass
        if not alive:
            break
        time.sleep(1.0)
        found = [p for p in alive if os.path.exists(f"/proc/{p}")]
    return found


# --- toold's log ------------------------------------------------------------------------------

def toold_times(log_path):
    """toold's own duration of each tools/call, from its debug log's reply lines
    (`--> reply:tools/call(7) ok 12.345ms`), in the order they were answered: a list of
    (request id, outcome, ms). The script makes one call at a time, so the order is the calls'."""
    out = []
    if not os.path.exists(log_path):
        return out
    rx = re.compile(r"--> reply:tools/call\((.*?)\) (\S+) ([\d.]+)ms")
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = rx.search(line)
            if m:
                out.append((m.group(1), m.group(2), float(m.group(3))))
    return out


# --- one host ------------------------------------------------------------------------------

def write_workspace(ws):
    os.makedirs(os.path.join(ws, "src"), exist_ok=True)
    with open(os.path.join(ws, "src", "app.py"), "w") as f:
        f.write("VERSION = 1\n\n")
        for i in range(1, 100):
            f.write(f"def handler_{i}(request):\n    return {{'id': {i}, 'path': request}}\n\n")
    with open(os.path.join(ws, "src", "util.py"), "w") as f:
        f.write("# TODO: cache the answers\n\ndef helper():\n    return 42\n")
    with open(os.path.join(ws, "README.md"), "w") as f:
        f.write("# demo\n\nA small project the host test turns over.\n")
    with open(os.path.join(ws, "notes.md"), "w") as f:
        f.write("notes\n")


def write_toold_config(ws, data_dir):
    mcp_server = os.path.join(os.path.dirname(HERE), "mcp_client", "test_mcp_server.py")
    cfg = {
        # An MCP server of toold's own that takes 2 s to start: its tools must be in the host's
        # first tools/list all the same (hosts that ignore list_changed never see later ones).
        # Direct tools, not Code Mode, so the host lists them.
        "mcp": {"slowstart": {"type": "local", "command": ["sh", "-c", f"sleep 2; exec python3 {mcp_server}"],
                              "codemode": False}},
        # The edit must be asked, so the ask route is exercised.
        "permission": {"edit": {"*": "ask"}},
        # Code Mode: glob and the todo tools run inside programs, and a command tool declared here
        # (registered tools default to Code Mode).
        "codemode": {"enabled": True, "tools": {"glob": True, "todowrite": True, "todoread": True}},
        "tools": {"line_count": {
            "description": "Counts the lines of a file of the workspace",
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            "handler": {"type": "command", "argv": ["python3", "-c",
                        "import json,sys; p=json.load(sys.stdin)['path']; print(sum(1 for _ in open(p)))"]}}},
    }
    with open(os.path.join(ws, "toold.json"), "w") as f:
        json.dump(cfg, f, indent=2)


def run_host(host_cls, args, results):
    tmp = tempfile.mkdtemp(prefix=f"toold-host-{host_cls.name}-")
    marker = tmp
    ws = os.path.join(tmp, "ws")
    data_dir = os.path.join(tmp, "toold-data")
    toold_log = os.path.join(tmp, "toold.log")
    os.makedirs(ws)
    write_workspace(ws)
    write_toold_config(ws, data_dir)
    toold_args = ["--directory", ws, "--data-dir", data_dir, "--log-level", "debug", "--log-file", toold_log,
                  "--unattended", "allow"] + list(args.toold_arg)
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            steps = json.load(f)
    else:
        steps = turn.steps(host_cls.name, quick=args.quick)
    fm = fake_model.FakeModel(steps, log_path=os.path.join(tmp, "model.jsonl")).start()
    host = host_cls(args.hosts_dir, args.toold, toold_args, tmp, fm.base_url, tool_timeout_s=args.tool_timeout)
    version = host.version()
    argv, env = host.setup()
    out_path, err_path = os.path.join(tmp, "host.out"), os.path.join(tmp, "host.err")
    log(f"== {host_cls.name} ({version}); files in {tmp}")
    started = time.time()
    timed_out = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=ws, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True)
        try:
            # Wait for the host's exit; the script's end is a cue to wait briefly only.
            deadline = started + args.timeout
            while proc.poll() is None and time.time() < deadline:
                if fm.script.finished and time.time() - fm.script.finished_at > 60:
                    break
                time.sleep(0.5)
            if proc.poll() is None:
                timed_out = not fm.script.finished
        finally:
            stop_group(proc)
    elapsed = time.time() - started
    strays = stop_strays(marker)
    fm.stop()
    rep = fm.script.report()
    for st, o in zip([x for x in steps if "final" not in x], rep["steps"]):
        # A step that changes a file is checked on disk too: what the model read is not enough.
        if st.get("file") and o["status"] == "passed":
            rel, want = st["file"]
            try:
                with open(os.path.join(ws, rel), encoding="utf-8") as f:
                    have = f.read()
            except OSError as e:
                have = str(e)
            if want not in have:
                o["status"] = "failed"
                o["reason"] = f"{rel} does not contain {want!r} after the call"
    rep.update({"host": host_cls.name, "version": version, "exit": proc.returncode, "seconds": round(elapsed, 1),
                "timed_out": timed_out, "dir": tmp, "strays_killed": strays})
    # The tool definitions as the host passed them to the model: names, descriptions, schemas.
    with open(os.path.join(tmp, "tools.json"), "w") as f:
        json.dump(fm.script.tool_defs, f, indent=2)
    times = toold_times(toold_log)
    rep["toold_calls"] = [(rid, outcome, round(ms, 1)) for rid, outcome, ms in times]
    with open(err_path, errors="replace") as f:
        rep["host_stderr_tail"] = f.read()[-3000:]
    with open(out_path, errors="replace") as f:
        rep["host_stdout_tail"] = f.read()[-3000:]
    results.append(rep)
    print_host(rep)
    if not args.keep and all(s["status"] in ("passed", "skipped") for s in rep["steps"]):
        shutil.rmtree(tmp, ignore_errors=True)
        rep["dir"] = None
    return rep


def print_host(rep):
    steps = rep["steps"]
    passed = sum(1 for s in steps if s["status"] == "passed")
    failed = [s for s in steps if s["status"] not in ("passed", "skipped")]
    log(f"-- {rep['host']} {rep['version']}: {passed}/{len(steps)} steps passed, {len(failed)} failed, "
        f"{rep['seconds']} s, exit {rep['exit']}{' (timed out)' if rep['timed_out'] else ''}, "
        f"{rep['main_requests']} model requests (+{rep['side_requests']} side), {rep['tool_searches']} tool searches")
    # toold's own times in order of its calls, matched to the script's calls by order.
    toold_ms = [ms for _, _, ms in rep.get("toold_calls", [])]
    k = 0
    log(f"   {'step':<28} {'status':<11} {'calls':>5} {'host ms':>9} {'toold ms':>9}")
    for s in steps:
        host_ms = sum(c["host_ms"] for c in s["calls"])
        tms = None
        if s["calls"] and toold_ms:
            part = toold_ms[k:k + len(s["calls"])]
            k += len(s["calls"])
            tms = sum(part) if part else None
        log(f"   {s['name']:<28} {s['status']:<11} {len(s['calls']):>5} {host_ms if s['calls'] else '':>9} "
            f"{'' if tms is None else round(tms, 1):>9}")
    for s in steps:
        if s["status"] not in ("passed",) and s.get("reason"):
            log(f"   * {s['name']} ({s['status']}): {s['reason'][:2500]}")
    for d in rep["deviations"]:
        log(f"   ! {d}")
    if failed and rep.get("host_stderr_tail"):
        log("   host stderr (end): " + rep["host_stderr_tail"][-800:].replace("\n", "\n     "))


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--toold", default=os.path.join(root, "build", "daemon", "toold"))
    ap.add_argument("--hosts-dir", default=os.path.join(root, ".hosts"))
    ap.add_argument("--host", action="append", choices=sorted(HOSTS), help="(repeatable) default: all")
    ap.add_argument("--quick", action="store_true", help="skip the 75 s silent command")
    ap.add_argument("--keep", action="store_true", help="keep each host's folder even when it passed")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per host")
    ap.add_argument("--tool-timeout", type=int, default=0,
                    help="set the hosts' own per-call MCP timeout to this many seconds (default: leave each "
                         "host's default, which is what a user meets first)")
    ap.add_argument("--toold-arg", action="append", default=[], help="(repeatable) extra argument for toold")
    ap.add_argument("--script", help="a JSON list of steps to play instead of the realistic turn")
    ap.add_argument("--report", help="write every host's report here (JSON)")
    args = ap.parse_args()
    args.toold = os.path.abspath(args.toold)
    if not os.access(args.toold, os.X_OK):
        log(f"hosts: toold not found at {args.toold}")
        return 2
    results = []
    for name in args.host or ["claude", "codex", "opencode"]:
        try:
            run_host(HOSTS[name], args, results)
        except Exception as e:  # one host's breakage must not hide the others' results
            import traceback
            traceback.print_exc()
            results.append({"host": name, "steps": [{"name": "run", "status": "failed", "calls": [],
                                                     "reason": f"the harness failed: {e}"}], "deviations": []})
    if args.report:
        with open(args.report, "w") as f:
            json.dump(results, f, indent=2)
    log("")
    total_p = total_f = 0
    for r in results:
        p = sum(1 for s in r["steps"] if s["status"] == "passed")
        f_ = sum(1 for s in r["steps"] if s["status"] not in ("passed", "skipped"))
        total_p += p
        total_f += f_
        log(f"{r['host']}: {p} passed, {f_} failed")
    log(f"hosts: {total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())
