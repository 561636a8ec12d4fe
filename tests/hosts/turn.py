"""The realistic turn every host plays: toold's tools by toold's names (the fake model maps them to
the host's names), with what a correct toold must answer. Expectations are regexes on the result
text the host hands back to the model, so they also catch what a host cuts away.

The workspace (run_hosts.write_workspace): src/app.py (VERSION = 1 and 99 handlers, 299 lines),
src/util.py (a TODO), README.md, notes.md; toold.json asks for every edit, puts glob, the todo
tools and the command tool line_count into Code Mode, and has toold connect to an MCP server
(tests/mcp_client/test_mcp_server.py as `slowstart`, 2 s late) whose tools stay direct.
"""

# The five inner calls of the Code Mode program: each kind of tool Code Mode reaches (a moved
# built-in, a config command tool, the todo pair), and one of them twice with other input.
CODEMODE_PROGRAM = """const py = await tools.glob({pattern: "src/*.py"});
const md = await tools.glob({pattern: "*.md"});
const lines = await tools.line_count({path: "src/app.py"});
await tools.todowrite({todos: [{content: "review handlers", status: "pending", priority: "high"}]});
const todos = await tools.todoread({});
return {py: py.split("\\n").filter(Boolean).length, md: md.split("\\n").filter(Boolean).length,
        lines: Number(lines), todos: JSON.parse(todos).length, marker: "program-done"};
"""

# What a result that a host's timeout killed, or an ask nobody saw, looks like: never acceptable.
NOT_A_PERSON = r"(?i)user (rejected|dismissed|declined)"


def steps(host, quick=False):
    s = [
        # toold's MCP server `slowstart` (2 s to start) serves `echo`: toold names it slowstart_echo.
        {"name": "MCP server's tool", "tool": "slowstart_echo", "args": {"text": "echo through toold"},
         "expect": [r"echo through toold"]},
        {"name": "list", "tool": "list", "args": {"path": "."},
         "expect": [r"src/", r"app\.py", r"util\.py"]},
        {"name": "read with offset", "tool": "read", "args": {"filePath": "src/app.py", "offset": 40, "limit": 10},
         "expect": [r"(?m)^40: ", r"(?m)^49: ", r"offset=50"], "reject": [r"(?m)^39: "]},
        {"name": "grep", "tool": "grep", "args": {"pattern": "TODO|VERSION", "path": "src"},
         "expect": [r"Found 2 match", r"util\.py", r"VERSION = 1"]},
        # toold.json asks for every edit; a headless host must get it through toold's unattended
        # route, not a form nobody sees.
        {"name": "edit (ask)", "tool": "edit",
         "args": {"filePath": "src/app.py", "oldString": "VERSION = 1", "newString": "VERSION = 2"},
         "expect": [r"Edit applied successfully"], "reject": [NOT_A_PERSON], "file": ("src/app.py", "VERSION = 2")},
        {"name": "bash ok", "tool": "bash", "args": {"command": "echo hello from bash && pwd", "description": "Say hello"},
         "expect": [r"hello from bash"]},
        {"name": "bash exit 3", "tool": "bash",
         "args": {"command": "echo about to fail; exit 3", "description": "Fail on purpose"},
         "expect": [r"about to fail", r"exited with code 3"], "error_ok": True},
        {"name": "bash progress", "tool": "bash",
         "args": {"command": "for i in 1 2 3 4 5; do echo step $i; sleep 1; done; echo progress-done",
                  "description": "Count slowly"},
         "expect": [r"step 1", r"step 5", r"progress-done"]},
        # A silent command longer than the hosts' 60 s: toold must keep the call alive or hand it to
        # the background and say how to follow it.
        {"name": "bash silent 75 s", "tool": "bash",
         "args": {"command": "sleep 75; echo slow-done", "description": "Wait silently"},
         "expect": [r"slow-done|shell-\d+"], "reject": [NOT_A_PERSON, r"(?i)\btimed out\b"],
         "capture": {"slow_shell": r"\b(shell-\d+)\b"},
         "skip": "skipped by --quick" if quick else None},
        {"name": "follow the 75 s job", "tool": "bash_output", "when": "slow_shell",
         "when_note": "not needed: the 75 s command was not handed to the background",
         "skip": "skipped by --quick" if quick else None,
         "args": {"shellId": "${slow_shell}", "wait": 30}, "until": r"slow-done", "max": 6},
        {"name": "background job", "tool": "bash",
         "args": {"command": "for i in 1 2 3; do echo tick $i; sleep 2; done; echo bg-finished",
                  "description": "Tick in the background", "background": True},
         "expect": [r"shell-\d+", r"bash_output"], "capture": {"bg_shell": r"\b(shell-\d+)\b"}},
        {"name": "follow the job to its end", "tool": "bash_output", "when": "bg_shell",
         "when_note": "not possible: the answer the host passed on names no job",
         "args": {"shellId": "${bg_shell}", "wait": 30}, "until": r"bg-finished", "max": 8,
         "expect": [r"bg-finished"]},
        # 100,000 lines: toold cuts them; the hint how to continue and the saved file must reach
        # the model through the host's own cut.
        {"name": "100,000 lines", "tool": "bash", "args": {"command": "seq 100000", "description": "Print many lines"},
         "expect": [r"(?m)^1$", r"(?m)^100000$", r"(?i)full output is in"],
         "capture": {"full_output": r"full output is in (/\S+?/tool_\w+)"}},
        {"name": "read the continuation", "tool": "read", "when": "full_output",
         "when_note": "not possible: the answer the host passed on names no saved output",
         "args": {"filePath": "${full_output}", "offset": 99991, "limit": 20},
         "expect": [r"(?m)^99991: 99991$", r"(?m)^100000: 100000$"]},
        # Three identical calls with identical answers: the third is held as a loop, and the
        # model is told so (whoever could or could not answer the doom-loop ask).
        {"name": "doom loop x3", "tool": "grep", "args": {"pattern": "handler_7\\b", "path": "src"}, "repeat": 3,
         "expect": [r"(?i)repeats the last two"], "error_ok": True},
        # A headless host cannot answer; toold must say so truthfully (or not offer question).
        {"name": "question", "tool": "question", "optional": "not offered, as for a host that cannot answer",
         "args": {"questions": [{"question": "Which database?", "header": "Database",
                                 "options": [{"label": "sqlite", "description": "a file"},
                                             {"label": "postgres", "description": "a server"}]}]}},
        {"name": "Code Mode execute", "tool": "execute", "args": {"code": CODEMODE_PROGRAM},
         "expect": [r"program-done", r'"py": 2', r'"md": 2', r'"lines": 299', r'"todos": 1']},
        {"final": "Done: the toold tools answered every step."},
    ]
    # question: whatever toold answers must be true for a host run without a person.
    for st in s:
        if st.get("name") == "question":
            st["expect"] = [r"(?i)no one (can|could) answer|User has answered"]
            st["reject"] = [NOT_A_PERSON]
            st["error_ok"] = True
        if st.get("skip") is None:
            st.pop("skip", None)
    return s
