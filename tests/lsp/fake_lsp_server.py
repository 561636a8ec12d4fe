#!/usr/bin/env python3
"""A fake language server for toold's tests: LSP over stdio (Content-Length framing), stdlib only.

The language it serves is described in fake_lsp_language.py. Its behaviour is picked by the
environment:

  FAKE_LSP_MODE       normal (default), crash_on_request, crash_at_start, never_initialize, flood,
                      huge, deep, bad_ids, outside, indexing, no_version (see MODES below)
  FAKE_LSP_LOG        a file to which one line per received message is appended:
                        <method> id=<json id or -> [uri=<uri> version=<n>]      (requests, notifications)
                        response id=<json id> result=<json> | error=<json>      (answers to our requests)
                        invalid <reason>                                         (frames it could not use)
  FAKE_LSP_DELAY_MS   wait this long before the first diagnostics of each document (a slow server)
  FAKE_LSP_TWO_PHASE  1: publish an empty list, then the real diagnostics 100 ms later
  FAKE_LSP_OUTSIDE    1: findReferences adds a Location in /etc/hosts

Right after `initialized` it asks the client three things, whose answers it logs: id 1
`workspace/configuration`, id "register-1" `client/registerCapability` and id 2
`window/workDoneProgress/create`. Its ids overlap the client's on purpose: the two id spaces are
separate.
"""
import heapq
import json
import os
import select
import sys
import time
from urllib.parse import quote, unquote, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_lsp_language as language  # noqa: E402

MODES = {
    "normal": "answers everything",
    "crash_on_request": "exits 3, unanswered, at the first request but initialize and shutdown",
    "crash_at_start": "prints a line to stderr and exits 1",
    "never_initialize": "reads until end of input and answers nothing",
    "flood": "after each didOpen, 5,000 publishDiagnostics of 50 diagnostics, then as normal",
    "huge": "answers hover with a 50 MB string",
    "deep": "answers hover with arrays nested 10,000 deep",
    "bad_ids": "before each answer: answers to ids never sent and one with neither result nor error",
    "outside": "also publishes diagnostics for /etc/passwd and for files outside the workspace",
    "indexing": "an Indexing progress that never ends; diagnostics only after FAKE_LSP_DELAY_MS (10 s)",
    "no_version": "publishes diagnostics without a version",
}

MODE = os.environ.get("FAKE_LSP_MODE", "normal")
LOG = os.environ.get("FAKE_LSP_LOG")
TWO_PHASE = os.environ.get("FAKE_LSP_TWO_PHASE") == "1"
OUTSIDE_REFERENCE = os.environ.get("FAKE_LSP_OUTSIDE") == "1"


def delay_seconds():
    default = "10000" if MODE == "indexing" else "0"
    try:
        return max(int(os.environ.get("FAKE_LSP_DELAY_MS", default)), 0) / 1000.0
    except ValueError:
        return 0.0


def log(line):
    if not LOG:
        return
    try:
        with open(LOG, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    except OSError:
        pass


def compact(value):
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 2000 else text[:2000] + "..."


INVALID = {}  # what next_message returns for a frame that is not a JSON object (already logged)


class Transport:
    """Frames in and out. Input is read from fd 0 into a buffer of our own, so that select() can
    wait for input and for the next scheduled publication at once."""

    def __init__(self):
        self.buffer = b""
        self.closed = False

    def next_message(self):
        """A parsed message from the buffer, INVALID for a frame that is not a JSON object, or None
        when no whole frame is buffered yet."""
        while True:
            end = self._header_end()
            if end is None:
                return None
            header_length, body_start = end
            length = None
            for raw in self.buffer[:header_length].split(b"\n"):
                name, colon, value = raw.decode("latin-1").partition(":")
                if colon and name.strip().lower() == "content-length":
                    try:
                        length = int(value.strip())
                    except ValueError:
                        length = None
            if length is None or length < 0:
                log("invalid header without a usable Content-Length")
                self.buffer = self.buffer[body_start:]
                continue
            if len(self.buffer) < body_start + length:
                return None
            body = self.buffer[body_start:body_start + length]
            self.buffer = self.buffer[body_start + length:]
            try:
                message = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                log("invalid body that is not JSON")
                return INVALID
            if not isinstance(message, dict):
                log("invalid body that is not a JSON object")
                return INVALID
            return message

    def _header_end(self):
        """(length of the header block, offset of the body) once a blank line is buffered. Blank
        lines before any header are skipped."""
        while self.buffer[:2] == b"\r\n" or self.buffer[:1] == b"\n":
            self.buffer = self.buffer[2:] if self.buffer[:1] == b"\r" else self.buffer[1:]
        candidates = [(index, len(mark)) for mark in (b"\r\n\r\n", b"\n\n", b"\n\r\n")
                      for index in [self.buffer.find(mark)] if index >= 0]
        if not candidates:
            return None
        index, size = min(candidates)
        return index, index + size

    def fill(self, timeout):
        """Waits up to `timeout` seconds (None: forever) for input; False at end of input."""
        ready, _, _ = select.select([0], [], [], timeout)
        if not ready:
            return True
        data = os.read(0, 1 << 16)
        if not data:
            self.closed = True
            return False
        self.buffer += data
        return True


def write_body(body):
    out = sys.stdout.buffer
    out.write(b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    out.write(body)
    out.flush()


def send(message):
    message = dict(message, jsonrpc="2.0")
    write_body(json.dumps(message, separators=(",", ":")).encode("utf-8"))


class Server:
    def __init__(self):
        self.documents = {}        # uri -> {"text", "version"}
        self.published = set()     # uris whose first publication was already scheduled
        self.not_before = {}       # uri -> earliest time of its next publication (keeps order)
        self.timers = []           # heap of (time, sequence, callable)
        self.sequence = 0
        self.initialized = False
        self.root = None           # the workspace folder's path, from initialize

    # -- scheduling ------------------------------------------------------------------------------
    def at(self, when, action):
        self.sequence += 1
        heapq.heappush(self.timers, (when, self.sequence, action))

    def run_due(self):
        while self.timers and self.timers[0][0] <= time.monotonic():
            heapq.heappop(self.timers)[2]()

    def timeout(self):
        return max(self.timers[0][0] - time.monotonic(), 0) if self.timers else None

    # -- diagnostics -----------------------------------------------------------------------------
    def publish(self, uri, version, items):
        params = {"uri": uri, "diagnostics": items}
        if MODE != "no_version" and version is not None:
            params["version"] = version
        send({"method": "textDocument/publishDiagnostics", "params": params})

    def schedule_diagnostics(self, uri):
        document = self.documents.get(uri)
        if document is None:
            return
        text, version = document["text"], document["version"]
        now = time.monotonic()
        when = max(now, self.not_before.get(uri, now))
        if uri not in self.published:
            self.published.add(uri)
            when += delay_seconds()
        if TWO_PHASE:
            self.at(when, lambda: self.publish(uri, version, []))
            when += 0.1
        self.at(when, lambda: self.publish(uri, version, language.diagnostics(text)))
        if MODE == "outside":
            self.at(when, self.publish_outside)
        self.not_before[uri] = when

    def publish_outside(self):
        problem = [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 4}},
                    "severity": 1, "source": "fake", "message": "outside the workspace"}]
        self.publish("file:///etc/passwd", None, problem)
        if self.root:
            parent = os.path.dirname(self.root.rstrip("/")) or "/"
            self.publish(uri_of_path(os.path.join(parent, "fake_lsp_outside.py")), None, problem)
            self.publish(uri_of_path(self.root.rstrip("/") + "/../fake_lsp_escape.py"), None, problem)

    def flood(self, uri, version):
        item = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
                "severity": 2, "source": "fake", "message": "flood"}
        params = {"uri": uri, "diagnostics": [item] * 50}
        if version is not None:
            params["version"] = version
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params},
                          separators=(",", ":")).encode("utf-8")
        for _ in range(5000):
            write_body(body)

    # -- server-to-client requests ---------------------------------------------------------------
    def ask_client(self):
        send({"id": 1, "method": "workspace/configuration", "params": {"items": [{"section": "fake"}]}})
        send({"id": "register-1", "method": "client/registerCapability", "params": {"registrations": [
            {"id": "fake-watch", "method": "workspace/didChangeWatchedFiles",
             "registerOptions": {"watchers": [{"globPattern": "**/*.py"}]}}]}})
        token = "fake-indexing" if MODE == "indexing" else "fake-progress"
        send({"id": 2, "method": "window/workDoneProgress/create", "params": {"token": token}})
        if MODE == "indexing":
            send({"method": "$/progress", "params": {"token": token, "value": {
                "kind": "begin", "title": "Indexing", "cancellable": False, "percentage": 0}}})

    # -- incoming messages -----------------------------------------------------------------------
    def handle(self, message):
        if message is INVALID:
            return
        method = message.get("method")
        has_id = "id" in message
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if not isinstance(method, str):
            if has_id and ("result" in message or "error" in message):
                outcome = ("result=" + compact(message["result"])) if "result" in message \
                    else ("error=" + compact(message["error"]))
                log("response id=" + compact(message["id"]) + " " + outcome)
            else:
                log("invalid message " + compact(message))
            return
        self.log_received(method, message, params)
        if MODE == "never_initialize":
            return
        if not has_id:
            self.notification(method, params)
            return
        if MODE == "crash_on_request" and method not in ("initialize", "shutdown"):
            sys.stdout.buffer.flush()
            os._exit(3)
        if not self.initialized and method != "initialize":
            send({"id": message["id"], "error": {"code": -32002, "message": "Server not initialized"}})
            return
        if MODE == "bad_ids":
            send({"id": 999999, "result": None})
            send({"id": "x", "result": {"stray": True}})
            send({"id": 999998})
        self.request(message["id"], method, params)

    def log_received(self, method, message, params):
        line = method + " id=" + (compact(message["id"]) if "id" in message else "-")
        document = params.get("textDocument") if isinstance(params.get("textDocument"), dict) else {}
        if method in ("textDocument/didOpen", "textDocument/didChange", "textDocument/didSave",
                      "textDocument/didClose"):
            line += " uri=" + str(document.get("uri"))
            if method in ("textDocument/didOpen", "textDocument/didChange"):
                line += " version=" + compact(document.get("version"))
        log(line)

    def notification(self, method, params):
        document = params.get("textDocument") if isinstance(params.get("textDocument"), dict) else {}
        uri = document.get("uri")
        if method == "initialized":
            self.ask_client()
        elif method == "exit":
            sys.stdout.buffer.flush()
            os._exit(0)
        elif not isinstance(uri, str):
            return
        elif method == "textDocument/didOpen":
            text = document.get("text") if isinstance(document.get("text"), str) else ""
            self.documents[uri] = {"text": text, "version": document.get("version")}
            if MODE == "flood":
                self.flood(uri, document.get("version"))
            self.schedule_diagnostics(uri)
        elif method == "textDocument/didChange" and uri in self.documents:
            changes = params.get("contentChanges") if isinstance(params.get("contentChanges"), list) else []
            for change in changes:
                self.documents[uri]["text"] = language.apply_change(self.documents[uri]["text"], change)
            self.documents[uri]["version"] = document.get("version")
            self.schedule_diagnostics(uri)
        elif method == "textDocument/didSave" and uri in self.documents:
            if isinstance(params.get("text"), str):
                self.documents[uri]["text"] = params["text"]
            self.schedule_diagnostics(uri)
        elif method == "textDocument/didClose":
            self.documents.pop(uri, None)

    def text_of(self, uri):
        """An open document's text, else the file's own (a client may ask before opening)."""
        if uri in self.documents:
            return self.documents[uri]["text"]
        path = path_of_uri(uri)
        try:
            with open(path, encoding="utf-8", errors="replace") as source:
                return source.read()
        except (OSError, TypeError, ValueError):
            return ""

    def request(self, request_id, method, params):
        document = params.get("textDocument") if isinstance(params.get("textDocument"), dict) else {}
        uri = document.get("uri") if isinstance(document.get("uri"), str) else ""
        pos = params.get("position")
        text = self.text_of(uri) if uri else ""
        if method == "initialize":
            self.initialize(params)
            result = {"capabilities": CAPABILITIES, "serverInfo": {"name": "fake-lsp", "version": "1"}}
        elif method == "shutdown":
            result = None
        elif method in ("textDocument/definition", "textDocument/implementation"):
            result = language.definition(uri, text, pos)
        elif method == "textDocument/references":
            result = language.references(uri, text, pos)
            if OUTSIDE_REFERENCE:
                result.append({"uri": "file:///etc/hosts", "range": {
                    "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}})
        elif method == "textDocument/hover":
            if MODE in ("huge", "deep"):
                self.hover_oversized(request_id)
                return
            result = language.hover(text, pos)
        elif method == "textDocument/documentSymbol":
            result = language.document_symbols(text)
        elif method == "workspace/symbol":
            result = language.workspace_symbols(self.documents, params.get("query"))
        elif method == "textDocument/prepareCallHierarchy":
            result = language.call_hierarchy_item(uri, text, pos)
        elif method in ("callHierarchy/incomingCalls", "callHierarchy/outgoingCalls"):
            direction = "incoming" if method == "callHierarchy/incomingCalls" else "outgoing"
            result = language.calls(params.get("item"), direction)
        else:
            send({"id": request_id, "error": {"code": -32601, "message": "Method not found: " + method}})
            return
        send({"id": request_id, "result": result})

    def initialize(self, params):
        self.initialized = True
        folders = params.get("workspaceFolders")
        uri = folders[0].get("uri") if isinstance(folders, list) and folders and isinstance(folders[0], dict) \
            else params.get("rootUri")
        self.root = path_of_uri(uri) if isinstance(uri, str) else params.get("rootPath")
        if not isinstance(self.root, str):
            self.root = None
        log("initialize root=" + str(self.root))

    def hover_oversized(self, request_id):
        head = b'{"jsonrpc":"2.0","id":' + json.dumps(request_id).encode("utf-8") + b',"result":'
        if MODE == "huge":
            value = b'{"contents":{"kind":"plaintext","value":"' + b"x" * (50 * 1024 * 1024) + b'"}}'
        else:
            value = b"[" * 10000 + b"]" * 10000
        write_body(head + value + b"}")


CAPABILITIES = {
    "positionEncoding": "utf-16",
    "textDocumentSync": {"openClose": True, "change": 1, "save": {"includeText": False}},
    "hoverProvider": True,
    "definitionProvider": True,
    "referencesProvider": True,
    "documentSymbolProvider": True,
    "workspaceSymbolProvider": True,
    "implementationProvider": True,
    "callHierarchyProvider": True,
}


def path_of_uri(uri):
    """The path of a file:// URI (percent-decoded), or None."""
    if not isinstance(uri, str) or not uri.startswith("file://"):
        return None
    return unquote(urlparse(uri).path)


def uri_of_path(path):
    return "file://" + quote(path, safe="/-._~")


def main():
    if MODE not in MODES:
        sys.stderr.write("fake_lsp_server: unknown FAKE_LSP_MODE " + MODE + "\n")
        return 2
    if MODE == "crash_at_start":
        sys.stderr.write("fake_lsp_server: crashing at start, as asked\n")
        sys.stderr.flush()
        return 1
    transport, server = Transport(), Server()
    while True:
        message = transport.next_message()
        if message is not None:
            server.handle(message)
            server.run_due()
            continue
        if transport.closed:
            return 0
        try:
            if not transport.fill(server.timeout()):
                return 0
        except BrokenPipeError:
            return 0
        server.run_due()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        os._exit(0)
