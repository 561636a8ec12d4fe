#!/usr/bin/env python3
"""Checks the fake language server itself, over pipes, so that the tests built on it rest on a
server that does what its documentation says: the normal conversation, and a few of the modes.

  fake_lsp_server_selftest.py        exits 0 when every check passes
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "fake_lsp_server.py")
SOURCE = "class Greeter:\n    def greet(self):\n        return hello()\n\ndef hello():\n    ERROR: broken here\n" \
         "    x = 1  # WARN: unused\n"


class Peer:
    """The server in a child process, its frames read by a thread into a queue."""

    def __init__(self, mode, workspace, log=None, **env):
        environment = dict(os.environ, FAKE_LSP_MODE=mode, **env)
        if log:
            environment["FAKE_LSP_LOG"] = log
        self.process = subprocess.Popen([sys.executable, SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=environment)
        self.frames = queue.Queue()
        self.workspace = workspace
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.frames.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.frames.put(out.read(length))

    def send(self, message, raw=None):
        body = raw if raw is not None else json.dumps(dict(message, jsonrpc="2.0")).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def body(self, timeout=5):
        body = self.frames.get(timeout=timeout)
        assert body is not None, "the server closed its output"
        return body

    def receive(self, timeout=5):
        return json.loads(self.body(timeout))

    def start(self, strays=0):
        """Initializes; `strays` answers to ids never sent are expected before the real one."""
        self.send({"id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": "file://" + self.workspace, "capabilities": {}}})
        assert [self.receive().get("id") for _ in range(strays)] == [999999, "x", 999998][:strays]
        answer = self.receive()
        assert answer["id"] == 1, answer
        self.send({"method": "initialized", "params": {}})
        asked = [self.receive() for _ in range(3)]
        for request in asked:
            self.send({"id": request["id"], "result": [{"answered": request["method"]}]
                       if request["method"] == "workspace/configuration" else None})
        return answer, asked

    def open(self, uri, version=1, text=SOURCE):
        self.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}}})

    def ask(self, request_id, method, uri, line, character):
        self.send({"id": request_id, "method": method, "params": {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})

    def finish(self, strays=0):
        self.send({"id": 99, "method": "shutdown"})
        assert [self.receive().get("id") for _ in range(strays)] == [999999, "x", 999998][:strays]
        assert self.receive() == {"jsonrpc": "2.0", "id": 99, "result": None}
        self.send({"method": "exit"})
        assert self.process.wait(timeout=5) == 0


def normal_conversation(workspace):
    log = os.path.join(workspace, "received.log")
    peer = Peer("normal", workspace, log)
    answer, asked = peer.start()
    capabilities = answer["result"]["capabilities"]
    assert capabilities["textDocumentSync"]["change"] == 1 and capabilities["hoverProvider"] is True
    assert [request["method"] for request in asked] == [
        "workspace/configuration", "client/registerCapability", "window/workDoneProgress/create"]
    assert asked[0]["params"] == {"items": [{"section": "fake"}]}

    uri = "file://" + workspace + "/a%20b.py"
    peer.open(uri)
    published = peer.receive()
    assert published["method"] == "textDocument/publishDiagnostics", published
    params = published["params"]
    assert params["uri"] == uri and params["version"] == 1
    assert [(d["severity"], d["message"], d["range"]["start"]) for d in params["diagnostics"]] == [
        (1, "broken here", {"line": 5, "character": 4}), (2, "unused", {"line": 6, "character": 13})]

    peer.ask(2, "textDocument/hover", uri, 2, 17)  # on `hello`
    assert peer.receive()["result"]["contents"] == {"kind": "markdown", "value": "```\nhello\n```\nfake hover"}
    peer.ask(3, "textDocument/definition", uri, 2, 17)
    assert peer.receive()["result"] == {"uri": uri, "range": {
        "start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 9}}}
    peer.ask(4, "textDocument/references", uri, 4, 6)
    assert [location["range"]["start"]["line"] for location in peer.receive()["result"]] == [2, 4]
    peer.send({"id": 5, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}})
    outline = peer.receive()["result"]
    assert [(s["name"], s["kind"], s["range"]["end"]["line"]) for s in outline] == [("Greeter", 5, 2), ("hello", 12, 6)]
    assert [(s["name"], s["kind"]) for s in outline[0]["children"]] == [("greet", 6)]
    peer.send({"id": 6, "method": "textDocument/formatting", "params": {"textDocument": {"uri": uri}}})
    assert peer.receive()["error"]["code"] == -32601

    peer.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2},
                                                              "contentChanges": [{"text": "fine\n"}]}})
    assert peer.receive()["params"] == {"uri": uri, "diagnostics": [], "version": 2}
    peer.send(None, raw=b"not json")  # survives a body that is not JSON
    peer.finish()

    with open(log, encoding="utf-8") as received:
        lines = received.read().splitlines()
    assert "textDocument/didOpen id=- uri=" + uri + " version=1" in lines, lines
    assert "textDocument/didChange id=- uri=" + uri + " version=2" in lines, lines
    assert 'response id=1 result=[{"answered":"workspace/configuration"}]' in lines, lines
    assert 'response id="register-1" result=null' in lines, lines
    assert "invalid body that is not JSON" in lines, lines


def crashes(workspace):
    peer = Peer("crash_at_start", workspace)
    assert peer.process.wait(timeout=5) == 1
    assert peer.process.stderr.read().strip()

    peer = Peer("crash_on_request", workspace)
    peer.start()
    peer.ask(2, "textDocument/hover", "file://" + workspace + "/a.py", 0, 0)
    assert peer.process.wait(timeout=5) == 3
    assert peer.frames.get(timeout=5) is None


def publications(workspace):
    uri = "file://" + workspace + "/a.py"
    peer = Peer("no_version", workspace, FAKE_LSP_TWO_PHASE="1", FAKE_LSP_DELAY_MS="200")
    peer.start()
    peer.open(uri)
    first, second = peer.receive(), peer.receive()
    assert first["params"] == {"uri": uri, "diagnostics": []}
    assert len(second["params"]["diagnostics"]) == 2 and "version" not in second["params"]
    peer.finish()

    peer = Peer("outside", workspace)
    peer.start()
    peer.open(uri)
    uris = [peer.receive()["params"]["uri"] for _ in range(4)]
    assert uris[0] == uri and uris[1] == "file:///etc/passwd", uris
    assert uris[3].endswith("/../fake_lsp_escape.py"), uris
    peer.finish()


def hostile_answers(workspace):
    uri = "file://" + workspace + "/a.py"
    peer = Peer("deep", workspace)
    peer.start()
    peer.open(uri)
    peer.receive()
    peer.ask(2, "textDocument/hover", uri, 0, 0)
    body = peer.body()
    assert body.count(b"[") == 10000 and body.endswith(b"]" * 10000 + b"}")
    peer.finish()

    peer = Peer("bad_ids", workspace)
    peer.start(strays=3)
    peer.ask(2, "textDocument/hover", uri, 0, 0)
    assert [peer.receive().get("id") for _ in range(4)] == [999999, "x", 999998, 2]
    peer.finish(strays=3)


def main():
    with tempfile.TemporaryDirectory() as workspace:
        workspace = os.path.realpath(workspace)
        for check in (normal_conversation, crashes, publications, hostile_answers):
            check(workspace)
            print("ok", check.__name__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
