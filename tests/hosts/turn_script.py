"""The script a fake model plays (see fake_model.py for the step format): the tools a host offered,
and the state of one scripted turn (which step is due, what each result must say, what was
captured), kept apart from the wire formats that carry it."""

import re
import threading
import time
import uuid

SERVER_NAME = "toold"  # the name the hosts are given for toold's MCP server


def _now():
    return time.time()


def _substitute(value, variables):
    if isinstance(value, str):
        missing = []

        def repl(m):
            name = m.group(1)
            if name not in variables:
                missing.append(name)
                return m.group(0)
            return str(variables[name])

        out = re.sub(r"\$\{(\w+)\}", repl, value)
        if missing:
            raise KeyError(missing[0])
        return out
    if isinstance(value, list):
        return [_substitute(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, variables) for k, v in value.items()}
    return value


class ToolSet:
    """The tools a host offered in one request, with a way to find toold's by toold's name."""

    def __init__(self, names, namespaced=None, raw=None, searchable=False):
        self.raw = raw or []  # the definitions as the host sent them
        # The host defers some tools behind a search tool the model calls (Codex's tool_search).
        self.searchable = searchable
        self.names = list(names)  # flat function names
        # namespace name -> list of inner tool names (Codex may group an MCP server's tools)
        self.namespaced = namespaced or {}

    def has_toold(self):
        if self.searchable:
            return True
        if self.namespaced:
            for ns in self.namespaced:
                if SERVER_NAME in ns:
                    return True
        return any(SERVER_NAME in n for n in self.names)

    def find(self, tool):
        """Returns (name, namespace) the host knows toold's `tool` by, or None."""
        candidates = [f"mcp__{SERVER_NAME}__{tool}", f"{SERVER_NAME}_{tool}", f"{SERVER_NAME}__{tool}",
                      f"{SERVER_NAME}.{tool}", f"mcp__{SERVER_NAME}_{tool}"]
        for c in candidates:
            if c in self.names:
                return (c, None)
        for ns, inner in self.namespaced.items():
            if SERVER_NAME not in ns:
                continue
            for c in [tool] + candidates:
                if c in inner:
                    return (c, ns)
        # Last resort: a unique name that ends with the tool's name after a separator and
        # mentions the server.
        ends = [n for n in self.names if SERVER_NAME in n and re.search(r"[_.:]" + re.escape(tool) + r"$", n)]
        if len(ends) == 1:
            return (ends[0], None)
        return None

    def all_names(self):
        out = list(self.names)
        for ns, inner in self.namespaced.items():
            out += [f"{ns}::{n}" for n in inner]
        return out


class Script:
    """The script's state machine: which call is pending, what was captured, each step's fate."""

    def __init__(self, steps, final_text="All steps are done.", report_path=None, log=None):
        self.steps = [dict(s) for s in steps if "final" not in s]
        finals = [s["final"] for s in steps if "final" in s]
        self.final_text = finals[0] if finals else final_text
        self.index = 0  # the step to issue next (or pending)
        self.repeat_done = 0  # calls of the current step answered so far
        self.pending = None  # {call_id, step, sent_at, tool_name}
        self.variables = {}
        self.outcomes = []  # one dict per step, in order
        self.deviations = []
        self.finished = False
        self.finished_at = None
        self.final_sent = False
        self.lock = threading.Lock()
        self.report_path = report_path
        self.log = log
        self.last_reply = None  # (pending call id, reply) to answer a retried request alike
        self.searching = None  # the call id of a tool search the host answers next
        self.searched = set()  # toold tool names searched for once already
        self.searches = 0
        self.tools_seen = None
        self.tool_defs = None
        self.main_requests = 0
        self.side_requests = 0
        self.started = _now()

    # --- outcomes -------------------------------------------------------------------------
    def _outcome(self, step):
        name = step.get("name", step.get("tool"))
        for o in self.outcomes:
            if o["name"] == name:
                return o
        o = {"name": name, "tool": step.get("tool"), "status": "pending", "calls": [], "reason": ""}
        self.outcomes.append(o)
        return o

    def _finish_step(self, status, reason=""):
        step = self.steps[self.index]
        o = self._outcome(step)
        o["status"] = status
        if reason:
            o["reason"] = reason
        self.index += 1
        self.repeat_done = 0

    def deviation(self, text):
        self.deviations.append(text)
        if self.log:
            self.log.write({"deviation": text})

    # --- the next turn --------------------------------------------------------------------
    def next_turn(self, tools, results):
        """Given the host's tools and the tool results in its request (call_id -> (text, is_error)),
        returns ("call", host_name, namespace, call_id, args) or ("text", text)."""
        with self.lock:
            self.main_requests += 1
            if self.tools_seen is None:
                self.tools_seen = tools.all_names()
                self.tool_defs = tools.raw
            if self.searching is not None:
                # The host answered the search with the tools it loaded; they are in `tools` now.
                self.searching = None
            elif self.pending is not None:
                res = results.get(self.pending["call_id"])
                if res is None:
                    # A retried request (no answer to our last call in it): answer as before.
                    if self.last_reply is not None and self.last_reply[0] == self.pending["call_id"]:
                        self.deviation(f"request without the result of call {self.pending['call_id']} "
                                       f"(step {self.pending['name']}): answered with the same call again")
                        return self.last_reply[1]
                    self.deviation(f"the result of call {self.pending['call_id']} is missing")
                    res = ("", True)
                self._judge(res)
            reply = self._issue(tools)
            self.last_reply = (self.pending["call_id"] if self.pending else None, reply)
            return reply

    def _judge(self, res):
        text, is_error = res
        p = self.pending
        self.pending = None
        step = self.steps[self.index]
        o = self._outcome(step)
        rtt = p.get("answered_at", _now()) - p["sent_at"]
        o["calls"].append({"call_id": p["call_id"], "args": p["args"], "host_ms": round(rtt * 1000),
                           "is_error": bool(is_error), "result": text[:4000],
                           "result_bytes": len(text.encode())})
        self.repeat_done += 1
        flags = re.S | re.M
        if step.get("until"):
            if re.search(step["until"], text, flags):
                self._check_expectations(step, text, is_error)
                return
            if self.repeat_done >= step.get("max", 10):
                self._finish_step("failed", f"after {self.repeat_done} calls the result never matched "
                                  f"/{step['until']}/; last result: {text[-1500:]!r}")
            return
        if self.repeat_done < step.get("repeat", 1):
            return
        self._check_expectations(step, text, is_error)

    def _check_expectations(self, step, text, is_error):
        flags = re.S | re.M
        problems = []
        for rx in step.get("expect", []):
            if not re.search(rx, text, flags):
                problems.append(f"expected /{rx}/")
        for rx in step.get("reject", []):
            if re.search(rx, text, flags):
                problems.append(f"must not match /{rx}/")
        if is_error and not step.get("error_ok") and not step.get("expect"):
            problems.append("the host reported an error result")
        for var, rx in step.get("capture", {}).items():
            m = re.search(rx, text, flags)
            if m:
                self.variables[var] = m.group(1)
        if problems:
            # The end is where a host's cut shows (a lost hint, a lost exit status).
            shown = text if len(text) <= 1500 else text[:300] + "\n[…]\n" + text[-1200:]
            self._finish_step("failed", "; ".join(problems) + f"; the result{' (is_error)' if is_error else ''} "
                              f"was ({len(text.encode())} bytes): {shown!r}")
        else:
            self._finish_step("passed")

    def _issue(self, tools):
        while self.index < len(self.steps):
            step = self.steps[self.index]
            o = self._outcome(step)
            if step.get("when") and step["when"] not in self.variables:
                self._finish_step("skipped", step.get("when_note") or f"runs only after ${{{step['when']}}} was captured")
                continue
            if step.get("skip"):
                self._finish_step("skipped", step["skip"])
                continue
            found = tools.find(step["tool"])
            if found is None and tools.searchable and step["tool"] not in self.searched:
                # Deferred behind the host's tool search: search as a model would, once.
                self.searched.add(step["tool"])
                self.searches += 1
                call_id = "call_" + uuid.uuid4().hex[:20]
                self.searching = call_id
                return ("search", call_id, f"toold {step['tool']}")
            if found is None:
                if step.get("optional"):
                    self._finish_step("skipped", f"the host does not offer toold's {step['tool']} "
                                      f"({step.get('optional')})")
                else:
                    self._finish_step("failed", f"the host does not offer toold's {step['tool']}; it offered: "
                                      + ", ".join(n for n in tools.all_names() if SERVER_NAME in n))
                continue
            try:
                args = _substitute(step.get("args", {}), self.variables)
            except KeyError as e:
                self._finish_step("skipped", f"needs ${{{e.args[0]}}}, which no earlier result gave")
                continue
            call_id = "call_" + uuid.uuid4().hex[:20]
            name, namespace = found
            self.pending = {"call_id": call_id, "name": o["name"], "args": args, "sent_at": _now()}
            o["host_name"] = name if namespace is None else f"{namespace}{name}"
            return ("call", name, namespace, call_id, args)
        if self.final_sent:
            self.deviation("a model request after the final answer")
        self.final_sent = True
        if not self.finished:
            self.finished = True
            self.finished_at = _now()
        return ("text", self.final_text)

    def mark_sent(self):
        """The reply stream ended: the host's round trip starts now."""
        with self.lock:
            if self.pending is not None:
                self.pending["sent_at"] = _now()

    def mark_request(self):
        with self.lock:
            if self.pending is not None and "answered_at" not in self.pending:
                self.pending["answered_at"] = _now()

    def report(self):
        with self.lock:
            # Steps never reached.
            for s in self.steps[self.index:]:
                o = self._outcome(s)
                if o["status"] == "pending":
                    o["status"] = "not reached"
                    if self.pending and self.pending["name"] == o["name"]:
                        o["reason"] = "the host never sent this call's result (it stopped or was stopped first)"
            return {"steps": self.outcomes, "deviations": self.deviations, "finished": self.finished,
                    "variables": self.variables, "tools": self.tools_seen,
                    "main_requests": self.main_requests, "side_requests": self.side_requests,
                    "tool_searches": self.searches}
