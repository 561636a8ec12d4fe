#!/usr/bin/env python3
"""A scripted fake model on 127.0.0.1 for driving real coding hosts (Claude Code, Codex, opencode).

It speaks three wire formats, each streamed as server-sent events:

  POST /v1/chat/completions   OpenAI chat completions (opencode's openai-compatible provider)
  POST /v1/responses          OpenAI Responses API (Codex)
  POST /v1/messages           Anthropic Messages (Claude Code; also /v1/messages/count_tokens)

and plays a script of assistant turns: each step is a call of one of toold's tools (named by
toold's own name and mapped to whatever name the host gave it), then expectations on the result
the host sends back with its next request, then a final text turn. Requests that carry none of
toold's tools (a title, a summary, a quota probe) are side requests: they get a short plausible
answer and are not steps. Everything the host sent is written to a JSON-lines log; each step's
outcome (passed, failed with the reason and the texts, skipped) goes to the report.

Python's standard library only, so it runs wherever the hosts do.

Script steps (a list of dicts):
  name        shown in the report
  tool        toold's tool name (read, bash, execute, ...)
  args        the call's input; "${var}" in a string is replaced by a captured value
  expect      regexes the result text must all match (re.S | re.M)
  reject      regexes the result text must not match
  capture     {var: regex with one group}: values later steps may use
  when        a var name: the step runs only when it was captured (else it is skipped, saying
              `when_note` if given)
  until       a regex: the call is repeated until the result matches, at most `max` times
  max         bound for `until` (default 10)
  repeat      the call is made this many times in a row (default 1); expectations apply to the last
  optional    when the host does not offer the tool the step is skipped, not failed
  error_ok    an error result (is_error) is acceptable (default false: an error fails the step
              unless an `expect` regex matches it)
Plus a final {"final": "text"} (added when absent).
"""

import argparse
import json
import os
import re
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from turn_script import SERVER_NAME, Script, ToolSet, _now



def _text_of(content):
    """Flattens a tool result's content (string, list of blocks, dict) into text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                if "text" in block and isinstance(block["text"], str):
                    parts.append(block["text"])
                elif block.get("type") in ("image", "input_image"):
                    parts.append("[image]")
                else:
                    parts.append(json.dumps(block))
        return "\n".join(parts)
    if isinstance(content, dict):
        if isinstance(content.get("content"), (list, str)):
            return _text_of(content["content"])
        if isinstance(content.get("output"), (list, str)):
            return _text_of(content["output"])
        return json.dumps(content)
    return str(content)


class JsonLog:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.f = open(path, "a", encoding="utf-8") if path else None

    def write(self, obj):
        if not self.f:
            return
        obj = dict(obj)
        obj.setdefault("t", round(_now(), 3))
        with self.lock:
            self.f.write(json.dumps(obj) + "\n")
            self.f.flush()


# --- wire formats --------------------------------------------------------------------------

def _anthropic_tools(body):
    return ToolSet([t.get("name", "") for t in body.get("tools", []) or []], raw=body.get("tools"))


def _anthropic_results(body):
    out = {}
    for m in body.get("messages", []) or []:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for b in m["content"]:
            if isinstance(b, dict) and b.get("type") == "tool_result":
                out[b.get("tool_use_id")] = (_text_of(b.get("content")), bool(b.get("is_error")))
    return out


def _chat_tools(body):
    names = []
    for t in body.get("tools", []) or []:
        fn = t.get("function") or {}
        names.append(fn.get("name") or t.get("name", ""))
    return ToolSet(names, raw=body.get("tools"))


def _chat_results(body):
    out = {}
    for m in body.get("messages", []) or []:
        if m.get("role") == "tool":
            out[m.get("tool_call_id")] = (_text_of(m.get("content")), False)
    return out


def _responses_tools(body):
    names, namespaced = [], {}
    searchable = False
    defs = list(body.get("tools", []) or [])
    # Tools a tool search loaded arrive in the conversation, not in `tools`.
    for item in body.get("input", []) if isinstance(body.get("input"), list) else []:
        if isinstance(item, dict) and item.get("type") == "tool_search_output":
            defs += item.get("tools", []) or []
    for t in defs:
        if t.get("type") == "tool_search":
            searchable = True
            continue
        ttype = t.get("type")
        if ttype == "function":
            names.append(t.get("name", ""))
        elif ttype == "namespace" or isinstance(t.get("tools"), list):
            ns = t.get("name") or t.get("namespace") or ""
            inner = []
            for it in t.get("tools", []) or []:
                inner.append(it.get("name") or (it.get("function") or {}).get("name", ""))
            namespaced[ns] = inner
        else:
            names.append(t.get("name") or ttype or "")
    return ToolSet(names, namespaced, raw=defs, searchable=searchable)


def _responses_results(body):
    out = {}
    inp = body.get("input", [])
    if not isinstance(inp, list):
        return out
    for item in inp:
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output",
                                                             "mcp_tool_call_output"):
            output = item.get("output")
            is_error = False
            if isinstance(output, dict):
                is_error = output.get("success") is False
                output = output.get("content", output)
            out[item.get("call_id")] = (_text_of(output), is_error)
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-model/1"

    def log_message(self, fmt, *args):  # the JSON log has everything; keep stderr quiet
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = self._read_chunked()
        enc = self.headers.get("Content-Encoding", "")
        if enc in ("gzip", "zstd", "br", "deflate") and raw:
            import gzip
            import zlib
            if enc == "gzip":
                raw = gzip.decompress(raw)
            elif enc == "deflate":
                raw = zlib.decompress(raw)
            else:
                self.server.log.write({"warning": f"body with Content-Encoding {enc} cannot be read"})
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")[:2000]}

    def _read_chunked(self):
        data = b""
        while True:
            line = self.rfile.readline()
            size = int(line.strip().split(b";")[0] or b"0", 16)
            if size == 0:
                self.rfile.readline()
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def do_GET(self):
        self.server.log.write({"request": "GET", "path": self.path})
        if self.path.rstrip("/").endswith("/models"):
            self._json({"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake",
                                                     "created": 0}],
                        "models": []})
            return
        self._json({}, 404)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = self._body()
        path = self.path.split("?")[0]
        self.server.log.write({"request": "POST", "path": path, "headers": {k: v for k, v in self.headers.items()
                                                                           if k.lower() not in ("authorization", "x-api-key")},
                               "body": body})
        script = self.server.script
        if path.endswith("/messages/count_tokens"):
            self._json({"input_tokens": 1000})
            return
        if path.endswith("/messages"):
            tools, results, kind = _anthropic_tools(body), _anthropic_results(body), "anthropic"
        elif path.endswith("/chat/completions"):
            tools, results, kind = _chat_tools(body), _chat_results(body), "chat"
        elif path.endswith("/responses"):
            tools, results, kind = _responses_tools(body), _responses_results(body), "responses"
        else:
            script.deviation(f"unexpected request POST {path}")
            self._json({"error": {"message": f"unknown path {path}"}}, 404)
            return
        if tools.has_toold():
            script.mark_request()
            reply = script.next_turn(tools, results)
            main = True
        else:
            with script.lock:
                script.side_requests += 1
            reply = ("text", "Host test session")
            main = False
        self.server.log.write({"reply": list(reply), "main": main, "path": path})
        stream = body.get("stream", False) if isinstance(body, dict) else False
        if kind == "anthropic":
            self._anthropic(reply, body, stream)
        elif kind == "chat":
            self._chat(reply, body, stream)
        else:
            self._responses(reply, body, stream)
        if main:
            script.mark_sent()

    # --- writers ----------------------------------------------------------------------------
    def _json(self, obj, code=200):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse_start(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _event(self, name, obj):
        data = ""
        if name:
            data += f"event: {name}\n"
        data += "data: " + (obj if isinstance(obj, str) else json.dumps(obj)) + "\n\n"
        self.wfile.write(data.encode())
        self.wfile.flush()

    def _anthropic(self, reply, body, stream):
        msg_id = "msg_" + uuid.uuid4().hex[:24]
        model = body.get("model", "claude-fake")
        usage = {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        if reply[0] == "call":
            _, name, _ns, call_id, args = reply
            content = [{"type": "tool_use", "id": call_id, "name": name, "input": args}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": reply[1]}]
            stop = "end_turn"
        if not stream:
            self._json({"id": msg_id, "type": "message", "role": "assistant", "model": model, "content": content,
                        "stop_reason": stop, "stop_sequence": None, "usage": usage})
            return
        self._sse_start()
        self._event("message_start", {"type": "message_start", "message": {
            "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}})
        block = content[0]
        if block["type"] == "tool_use":
            self._event("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
            self._event("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
        else:
            self._event("content_block_start", {"type": "content_block_start", "index": 0,
                                                "content_block": {"type": "text", "text": ""}})
            self._event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                "delta": {"type": "text_delta", "text": block["text"]}})
        self._event("content_block_stop", {"type": "content_block_stop", "index": 0})
        self._event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 20}})
        self._event("message_stop", {"type": "message_stop"})

    def _chat(self, reply, body, stream):
        cid = "chatcmpl-" + uuid.uuid4().hex[:20]
        model = body.get("model", "fake-model")
        created = int(_now())
        usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        if reply[0] == "call":
            _, name, _ns, call_id, args = reply
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": reply[1]}
            finish = "stop"
        if not stream:
            self._json({"id": cid, "object": "chat.completion", "created": created, "model": model,
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage})
            return
        self._sse_start()

        def chunk(delta, finish_reason=None, with_usage=False):
            c = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
            if with_usage:
                c["usage"] = usage
            self._event(None, c)

        chunk({"role": "assistant", "content": ""})
        if reply[0] == "call":
            tc = message["tool_calls"][0]
            chunk({"tool_calls": [{"index": 0, "id": tc["id"], "type": "function",
                                   "function": {"name": tc["function"]["name"], "arguments": ""}}]})
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": tc["function"]["arguments"]}}]})
        else:
            chunk({"content": reply[1]})
        chunk({}, finish)
        self._event(None, {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                           "choices": [], "usage": usage})
        self._event(None, "[DONE]")

    def _responses(self, reply, body, stream):
        rid = "resp_" + uuid.uuid4().hex[:24]
        model = body.get("model", "fake-model")
        usage = {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 20,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 120}
        if reply[0] == "search":
            _, call_id, query = reply
            item = {"type": "tool_search_call", "id": "ts_" + uuid.uuid4().hex[:20], "call_id": call_id,
                    "execution": "client", "arguments": {"query": query, "limit": 50}, "status": "completed"}
        elif reply[0] == "call":
            _, name, ns, call_id, args = reply
            item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:20], "call_id": call_id, "name": name,
                    "arguments": json.dumps(args), "status": "completed"}
            if ns:
                item["namespace"] = ns
        else:
            item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:20], "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": reply[1], "annotations": []}]}
        response = {"id": rid, "object": "response", "created_at": int(_now()), "model": model, "status": "completed",
                    "output": [item], "usage": usage}
        if not stream:
            self._json(response)
            return
        self._sse_start()
        seq = [0]

        def ev(name, obj):
            obj = dict(obj, type=name, sequence_number=seq[0])
            seq[0] += 1
            self._event(name, obj)

        ev("response.created", {"response": dict(response, status="in_progress", output=[], usage=None)})
        ev("response.in_progress", {"response": dict(response, status="in_progress", output=[], usage=None)})
        if item["type"] == "tool_search_call":
            ev("response.output_item.added", {"output_index": 0, "item": dict(item, status="in_progress")})
        elif item["type"] == "function_call":
            ev("response.output_item.added", {"output_index": 0, "item": dict(item, arguments="", status="in_progress")})
            ev("response.function_call_arguments.delta", {"output_index": 0, "item_id": item["id"],
                                                          "delta": item["arguments"]})
            ev("response.function_call_arguments.done", {"output_index": 0, "item_id": item["id"],
                                                         "arguments": item["arguments"]})
        else:
            text = item["content"][0]["text"]
            ev("response.output_item.added", {"output_index": 0, "item": dict(item, content=[], status="in_progress")})
            ev("response.content_part.added", {"output_index": 0, "item_id": item["id"], "content_index": 0,
                                               "part": {"type": "output_text", "text": "", "annotations": []}})
            ev("response.output_text.delta", {"output_index": 0, "item_id": item["id"], "content_index": 0,
                                              "delta": text})
            ev("response.output_text.done", {"output_index": 0, "item_id": item["id"], "content_index": 0,
                                             "text": text})
            ev("response.content_part.done", {"output_index": 0, "item_id": item["id"], "content_index": 0,
                                              "part": item["content"][0]})
        ev("response.output_item.done", {"output_index": 0, "item": item})
        ev("response.completed", {"response": response})


class FakeModel:
    """The server on 127.0.0.1:<free port>, run on a thread."""

    def __init__(self, steps, log_path=None, port=0):
        self.log = JsonLog(log_path)
        self.script = Script(steps, log=self.log)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.httpd.script = self.script
        self.httpd.log = self.log
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", required=True, help="a JSON file: a list of steps")
    ap.add_argument("--log", help="JSON-lines log of every request and reply")
    ap.add_argument("--report", help="where to write the report (JSON) at exit")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file", help="write the port here once listening")
    ap.add_argument("--seconds", type=float, default=600, help="stop after this long")
    a = ap.parse_args()
    with open(a.script, encoding="utf-8") as f:
        steps = json.load(f)
    fm = FakeModel(steps, a.log, a.port).start()
    if a.port_file:
        with open(a.port_file, "w") as f:
            f.write(str(fm.port))
    print(fm.base_url, flush=True)
    deadline = _now() + a.seconds
    try:
        while _now() < deadline and not fm.script.finished:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    fm.stop()
    rep = fm.script.report()
    if a.report:
        with open(a.report, "w") as f:
            json.dump(rep, f, indent=2)
    failed = [s for s in rep["steps"] if s["status"] != "passed"]
    sys.exit(1 if failed or rep["deviations"] else 0)


if __name__ == "__main__":
    main()
