#!/usr/bin/env python3
"""A small Streamable HTTP MCP server for toold's tests, on 127.0.0.1 only. It prints its base URL
(http://127.0.0.1:PORT) on stdout and serves until killed.

  POST /mcp   initialize (answers with a fresh Mcp-Session-Id, which every later request must
              carry), tools/list, tools/call (below); notifications and answers to the server's own
              requests: 202.
  GET /mcp    the listening stream of the session: server-sent events, each with an `id:`; the
              server's requests and notifications outside answers go there. `?nolisten` in the
              URL makes GET answer 405 (a server without one). With `?late` in the initialize URL,
              the session's tools change around the start as toold must not miss: the server
              takes 0.3 s to accept `initialized` and adds the tool `early` meanwhile; once it
              answered the first tools/list it adds `late` and holds the listening stream back until
              then (so no list_changed can tell of it).
  POST /auth  always 401 (a server that wants OAuth).
  DELETE /mcp ends the session.

Tools: echo {text} (JSON answer); progress {steps} (answered as server-sent events: progress
notifications, then the result); ask_roots (sends roots/list on the listening stream, answers what
toold POSTed back); push_list_changed (adds the tool `pushed`, sends
notifications/tools/list_changed on the listening stream, answers once toold re-listed); pushed;
drop_stream (sends a ping request with `retry: 100` on the listening stream, then ends it);
streams (waits for the stream to be opened again and the ping answered; answers the GETs seen,
with their Last-Event-ID headers).
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [
    {"name": "echo", "description": "Echoes text", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "progress", "description": "Reports progress over SSE", "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}}}},
    {"name": "ask_roots", "description": "Asks toold for its roots on the listening stream", "inputSchema": {"type": "object"}},
    {"name": "push_list_changed", "description": "Adds a tool and says so on the listening stream", "inputSchema": {"type": "object"}},
    {"name": "drop_stream", "description": "Ends the listening stream after a ping", "inputSchema": {"type": "object"}},
    {"name": "streams", "description": "The listening streams opened so far", "inputSchema": {"type": "object"}},
]
PUSHED = {"name": "pushed", "description": "Added by push_list_changed", "inputSchema": {"type": "object"}}
EARLY = {"name": "early", "description": "Added on initialized", "inputSchema": {"type": "object"}}
LATE = {"name": "late", "description": "Added after the first tools/list", "inputSchema": {"type": "object"}}
WAIT = 10  # seconds any tool waits for toold before giving up

state = threading.Condition()
sessions = {}  # session id -> {"stream": Stream or None, "gets": [Last-Event-ID], "answers": {id: msg}, "lists": n, "pushed": bool}


class Stream:
    """One open GET: events are written by other threads, under the condition's lock."""

    def __init__(self, handler):
        self.handler = handler
        self.open = True
        self.next_id = 0

    def event(self, payload, extra=""):
        self.next_id += 1
        data = ("%sid: ev-%d\r\ndata: %s\r\n\r\n" % (extra, self.next_id, json.dumps(payload))).encode()
        self.handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.handler.wfile.flush()


def wait_for(predicate):
    """Under `state`: waits until predicate() holds; False after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not predicate():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        state.wait(left)
    return True


def stream_of(session):
    """Under `state`: the session's open listening stream, waited for."""
    ok = wait_for(lambda: sessions[session]["stream"] is not None and sessions[session]["stream"].open)
    return sessions[session]["stream"] if ok else None


def ask(session, rid, method):
    """Sends a request on the listening stream and waits for toold's POSTed answer."""
    with state:
        stream = stream_of(session)
        if stream is None:
            return {"error": "no listening stream"}
        stream.event({"jsonrpc": "2.0", "id": rid, "method": method, "params": {}})
        answers = sessions[session]["answers"]
        if not wait_for(lambda: rid in answers):
            return {"error": "no answer to " + method}
        return answers[rid]


def text(value):
    return {"content": [{"type": "text", "text": value if isinstance(value, str) else json.dumps(value)}]}


def call_tool(session, name, arguments):
    record = sessions[session]
    if name == "echo":
        return text(arguments.get("text", ""))
    if name in ("pushed", "early", "late"):
        return text(name)
    if name == "ask_roots":
        answer = ask(session, "roots-1", "roots/list")
        return text(answer.get("result", answer.get("error")))
    if name == "push_list_changed":
        with state:
            stream = stream_of(session)
            if stream is None:
                return text("no listening stream")
            before = record["lists"]
            record["pushed"] = True
            stream.event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            relisted = wait_for(lambda: record["lists"] > before)
        return text("relisted" if relisted else "not relisted")
    if name == "drop_stream":
        with state:
            stream = stream_of(session)
            if stream is None:
                return text("no listening stream")
            stream.event({"jsonrpc": "2.0", "id": "ping-1", "method": "ping"}, "retry: 100\r\n")
            stream.open = False
            state.notify_all()
        return text("dropped")
    if name == "streams":
        with state:
            wait_for(lambda: len(record["gets"]) >= 2 and "ping-1" in record["answers"])
            ping = record["answers"].get("ping-1", {})
            return text({"gets": record["gets"], "ping": ping.get("result", ping.get("error"))})
    return {"content": [{"type": "text", "text": "unknown tool " + name}], "isError": True}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def session(self):
        session = self.headers.get("Mcp-Session-Id")
        return session if session in sessions else None

    def do_DELETE(self):
        with state:
            session = self.session()
            if session:
                del sessions[session]
                state.notify_all()
        self.reply(200 if session else 404)

    def do_GET(self):
        if "nolisten" in self.path:
            return self.reply(405)
        with state:
            session = self.session()
            if session is None:
                return self.reply(404 if self.headers.get("Mcp-Session-Id") else 400)
            record = sessions[session]
            if record["late"]:
                wait_for(lambda: record["late_added"])
            record["gets"].append(self.headers.get("Last-Event-ID"))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.flush()
            stream = Stream(self)
            record["stream"] = stream
            state.notify_all()
            # Open until dropped or the session ends; toold closing it ends the write that follows.
            while stream.open and sessions.get(session) is record:
                state.wait()
            stream.open = False
            self.close_connection = True
            try:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                pass  # toold had closed it

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        message = json.loads(self.rfile.read(length) or b"{}")
        if self.path.startswith("/auth"):
            return self.reply(401, {"error": "unauthorized"})
        method = message.get("method")
        rid = message.get("id")
        if method == "initialize":
            with state:
                session = "session-%d" % (len(sessions) + 1)
                while session in sessions:
                    session += "x"
                sessions[session] = {"stream": None, "gets": [], "answers": {}, "lists": 0, "pushed": False,
                                     "late": "late" in self.path, "early": False, "late_added": False}
            result = {"protocolVersion": message["params"].get("protocolVersion"),
                      "capabilities": {"tools": {"listChanged": True}}, "serverInfo": {"name": "test-http", "version": "1"}}
            return self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": result}, {"Mcp-Session-Id": session})
        session = self.session()
        if session is None:
            return self.reply(404 if self.headers.get("Mcp-Session-Id") else 400, {"error": "missing session"})
        if method is None and rid is not None:
            # toold's answer to a request the server sent on the listening stream.
            with state:
                sessions[session]["answers"][rid] = message
                state.notify_all()
            return self.reply(202)
        if rid is None or method is None:
            if method == "notifications/initialized" and sessions[session]["late"]:
                time.sleep(0.3)
                with state:
                    sessions[session]["early"] = True
            return self.reply(202)
        if method == "tools/list":
            with state:
                record = sessions[session]
                record["lists"] += 1
                state.notify_all()
                tools = TOOLS + ([PUSHED] if record["pushed"] else []) + ([EARLY] if record["early"] else [])
                tools += [LATE] if record["late_added"] else []
            self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}})
            with state:
                if record["late"] and not record["late_added"]:
                    record["late_added"] = True
                    state.notify_all()
            return
        if method != "tools/call":
            return self.reply(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no method " + method}})
        params = message.get("params", {})
        arguments = params.get("arguments", {})
        if params.get("name") != "progress":
            return self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": call_tool(session, params.get("name"), arguments)})
        token = params.get("_meta", {}).get("progressToken")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def event(payload):
            data = ("event: message\r\ndata: " + json.dumps(payload) + "\r\n\r\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        steps = arguments.get("steps", 2)
        for step in range(1, steps + 1):
            event({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": token, "progress": step, "total": steps}})
        event({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "streamed"}]}})
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
