#!/usr/bin/env python3
"""A small Streamable HTTP MCP server for toold's tests, on 127.0.0.1 only. It prints its base URL
(http://127.0.0.1:PORT) on stdout and serves until killed.

  POST /mcp   initialize (answers with an Mcp-Session-Id, which every later request must carry),
              tools/list, tools/call: echo {text} answered as JSON; progress {steps} answered as
              server-sent events (progress notifications, then the result); notifications: 202.
  POST /auth  always 401 (a server that wants OAuth).
  DELETE /mcp ends the session.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SESSION = "session-1"
TOOLS = [
    {"name": "echo", "description": "Echoes text", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "progress", "description": "Reports progress over SSE", "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}}}},
]


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

    def do_DELETE(self):
        self.reply(200 if self.headers.get("Mcp-Session-Id") == SESSION else 404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        message = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/auth":
            return self.reply(401, {"error": "unauthorized"})
        method = message.get("method")
        rid = message.get("id")
        if method != "initialize" and self.headers.get("Mcp-Session-Id") != SESSION:
            return self.reply(400, {"error": "missing session"})
        if method == "initialize":
            result = {"protocolVersion": message["params"].get("protocolVersion"),
                      "capabilities": {"tools": {}}, "serverInfo": {"name": "test-http", "version": "1"}}
            return self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": result}, {"Mcp-Session-Id": SESSION})
        if rid is None or method is None:
            return self.reply(202)
        if method == "tools/list":
            return self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        if method == "tools/call":
            params = message.get("params", {})
            arguments = params.get("arguments", {})
            if params.get("name") == "echo":
                return self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": arguments.get("text", "")}]}})
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
            return
        return self.reply(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no method " + method}})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
