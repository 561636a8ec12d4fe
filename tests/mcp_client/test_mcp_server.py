#!/usr/bin/env python3
"""A small MCP server over stdio for toold's tests of its MCP client: one JSON-RPC message per
line. Its tools exercise what the client must handle; its options misbehave on demand.

  test_mcp_server.py [--pidfile FILE] [--grandchild FILE] [--ignore-sigterm] [--ignore-stdin-close]
                     [--crash-on-start] [--no-init] [--hang-list] [--page-size N] [--long-name]
                     [--collide] [--resources] [--events FILE] [--stderr-lines N] [--http-launcher]
                     [--protocol-version V] [--only NAME,NAME] [--log-flood N]

--log-flood N sends N log messages (notifications/message) once initialized. --only keeps the tools named. Other arguments are ignored (a directory, as server-filesystem takes them). initialize is answered
with the version toold offered, or V.

Tools: echo {text}; add {a, b} (output schema: {sum}); slow {ms}; progress {steps, intervalMs};
fail {message?}; media (an image and an audio item); links (a resource link and embedded
resources); big {bytes} (a reply line of that size); crash (exits at once); change_tools {times?} (adds or
removes the tool `extra` and sends notifications/tools/list_changed, `times` times in a row;
answers how many tools/list it has answered); elicit {message} (asks toold's client);
roots (asks toold for its roots); sample (asks toold for sampling). With --http-launcher its only
tool is start_http, which starts test_mcp_http_server.py and answers its base URL.
"""
import base64
import json
import os
import signal
import subprocess
import sys
import threading
import time

args = sys.argv[1:]


def option(name, default=None):
    return args[args.index(name) + 1] if name in args else default


write_lock = threading.Lock()
cancelled = set()
answers = {}
answer_events = {}
next_request = [1000]
extra_tools = [False]
list_requests = [0]


def send(message):
    data = json.dumps(message) + "\n"
    with write_lock:
        sys.stdout.write(data)
        sys.stdout.flush()


def event(text):
    path = option("--events")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")


def ask(method, params):
    """A request to toold; waits for its answer."""
    with write_lock:
        next_request[0] += 1
        rid = next_request[0]
    done = threading.Event()
    answer_events[rid] = done
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    done.wait(10)
    return answers.pop(rid, {"error": {"message": "no answer"}})


OBJECT = {"type": "object"}
TOOLS = [
    {"name": "echo", "description": "Echoes text", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "add", "description": "Adds", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
     "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}},
    {"name": "slow", "description": "Sleeps", "inputSchema": {"type": "object", "properties": {"ms": {"type": "integer"}}}},
    {"name": "progress", "description": "Reports progress", "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}, "intervalMs": {"type": "integer"}}}},
    {"name": "fail", "description": "Fails", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
    {"name": "media", "description": "Image and audio", "inputSchema": OBJECT},
    {"name": "links", "description": "Resource links", "inputSchema": OBJECT},
    {"name": "big", "description": "A big reply", "inputSchema": {"type": "object", "properties": {"bytes": {"type": "integer"}}}},
    {"name": "crash", "description": "Exits", "inputSchema": OBJECT},
    {"name": "change_tools", "description": "Changes the tool list", "inputSchema": OBJECT},
    {"name": "elicit", "description": "Asks the user", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
    {"name": "roots", "description": "Asks for roots", "inputSchema": OBJECT},
    {"name": "sample", "description": "Asks for sampling", "inputSchema": OBJECT},
]
if "--http-launcher" in args:
    TOOLS = [{"name": "start_http", "description": "Starts test_mcp_http_server.py; answers its base URL", "inputSchema": OBJECT}]
if option("--only"):
    TOOLS = [tool for tool in TOOLS if tool["name"] in option("--only").split(",")]
if "--long-name" in args:
    TOOLS.append({"name": "a_tool_name_that_is_far_too_long_for_any_provider_to_accept_as_is", "description": "long", "inputSchema": OBJECT})
if "--structured" in args:
    TOOLS.append({"name": "structured", "description": "Lines as text and as structured output",
                  "inputSchema": {"type": "object", "properties": {"lines": {"type": "integer"}}},
                  "outputSchema": {"type": "object", "properties": {"content": {"type": "string"}, "lines": {"type": "integer"}},
                                   "required": ["content", "lines"], "additionalProperties": False}})
if "--collide" in args:
    TOOLS.append({"name": "read.file", "description": "dotted", "inputSchema": OBJECT})
    TOOLS.append({"name": "read_file", "description": "underscored", "inputSchema": OBJECT})


def tool_list():
    tools = list(TOOLS)
    if extra_tools[0]:
        tools.append({"name": "extra", "description": "Added later", "inputSchema": OBJECT})
    return tools


def text(value):
    return {"content": [{"type": "text", "text": value}]}


def call(rid, name, arguments, token):
    if name == "echo":
        return text(arguments.get("text", ""))
    if name == "add":
        total = arguments["a"] + arguments["b"]
        return {"content": [{"type": "text", "text": str(total)}], "structuredContent": {"sum": total}}
    if name == "slow":
        deadline = time.time() + arguments.get("ms", 1000) / 1000.0
        while time.time() < deadline:
            if rid in cancelled:
                return None
            time.sleep(0.01)
        return text("slept")
    if name == "progress":
        steps = arguments.get("steps", 3)
        for step in range(1, steps + 1):
            time.sleep(arguments.get("intervalMs", 0) / 1000.0)
            if rid in cancelled:
                return None
            if token is not None:
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": step, "total": steps, "message": "step %d" % step}})
        return text("done")
    if name == "fail":
        if "message" in arguments:
            return {"content": [{"type": "text", "text": arguments["message"]}], "isError": True}
        return {"content": [], "isError": True}
    if name == "media":
        return {"content": [{"type": "image", "data": base64.b64encode(b"\x89PNG").decode(), "mimeType": "image/png"},
                            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}
    if name == "links":
        return {"content": [{"type": "resource_link", "uri": "test://doc/1", "name": "doc1"},
                            {"type": "resource", "resource": {"uri": "test://doc/2", "text": "embedded text"}},
                            {"type": "resource", "resource": {"uri": "test://doc/3", "blob": "AQID", "mimeType": "application/octet-stream"}}]}
    if name == "big":
        return text("x" * arguments.get("bytes", 17 * 1024 * 1024))
    if name == "structured":
        count = arguments.get("lines", 10)
        lines = "".join("line %d of the structured output, long enough to look like code\n" % i for i in range(1, count + 1))
        return {"content": [{"type": "text", "text": lines}], "structuredContent": {"content": lines, "lines": count}}
    if name == "crash":
        os._exit(3)
    if name == "change_tools":
        times = arguments.get("times", 1)
        for _ in range(times):
            extra_tools[0] = not extra_tools[0]
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return text("changed %d times; %d tools/list so far" % (times, list_requests[0]))
    if name == "elicit":
        answer = ask("elicitation/create", {"message": arguments.get("message", "?"), "requestedSchema": {"type": "object", "properties": {}}})
        return text(json.dumps(answer.get("result", answer.get("error"))))
    if name == "roots":
        answer = ask("roots/list", {})
        return text(json.dumps(answer.get("result", answer.get("error"))))
    if name == "sample":
        answer = ask("sampling/createMessage", {"messages": [], "maxTokens": 1})
        return text(json.dumps(answer.get("error", answer.get("result"))))
    if name == "start_http":
        # Kept in this process's group, so it ends with this server.
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_mcp_http_server.py")
        child = subprocess.Popen([sys.executable, script], stdout=subprocess.PIPE, text=True)
        return text(child.stdout.readline().strip())
    if name == "extra":
        return text("extra")
    return {"content": [{"type": "text", "text": "unknown tool " + name}], "isError": True}


def run_call(rid, params):
    token = (params.get("_meta") or {}).get("progressToken")
    result = call(rid, params.get("name"), params.get("arguments") or {}, token)
    if result is None:
        event("cancelled %s" % rid)
        return
    send({"jsonrpc": "2.0", "id": rid, "result": result})


def handle(message):
    method = message.get("method")
    rid = message.get("id")
    if method is None:
        if rid in answer_events:
            answers[rid] = message
            answer_events.pop(rid).set()
        return
    params = message.get("params") or {}
    if method == "initialize":
        if "--no-init" in args:
            return
        capabilities = {"tools": {"listChanged": True}, "logging": {}}
        if "--resources" in args:
            capabilities["resources"] = {}
        version = option("--protocol-version", params.get("protocolVersion", "2025-06-18"))
        send({"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": version,
              "capabilities": capabilities, "serverInfo": {"name": "test-mcp-server", "version": "1"}}})
        event("initialize " + json.dumps(params.get("capabilities", {}), sort_keys=True))
    elif method == "notifications/initialized":
        for n in range(int(option("--log-flood", "0"))):
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "logger": "flood", "data": "flood line %d" % n}})
    elif method == "notifications/cancelled":
        # The notice is written before the call's thread can see the cancellation: that thread
        # writes "cancelled" as soon as it does, and the fixtures check the two in this order.
        event("cancel-notice %s %s" % (params.get("requestId"), params.get("reason")))
        cancelled.add(params.get("requestId"))
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": rid, "result": {}})
    elif method == "tools/list":
        if "--hang-list" in args:
            return
        list_requests[0] += 1
        tools = tool_list()
        size = int(option("--page-size", "0"))
        if size > 0:
            start = int(params.get("cursor", "0"))
            page = tools[start:start + size]
            result = {"tools": page}
            if start + size < len(tools):
                result["nextCursor"] = str(start + size)
            send({"jsonrpc": "2.0", "id": rid, "result": result})
        else:
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}})
    elif method == "tools/call":
        threading.Thread(target=run_call, args=(rid, params), daemon=True).start()
    elif method == "resources/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"resources": [
            {"uri": "test://doc/1", "name": "doc1", "mimeType": "text/plain"}]}})
    elif method == "resources/templates/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"resourceTemplates": [
            {"uriTemplate": "test://doc/{n}", "name": "docs"}]}})
    elif method == "resources/read":
        uri = params.get("uri")
        if uri == "test://doc/1":
            send({"jsonrpc": "2.0", "id": rid, "result": {"contents": [{"uri": uri, "mimeType": "text/plain", "text": "the first doc"}]}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32002, "message": "Resource not found: %s" % uri}})
    elif rid is not None:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no method " + method}})


def main():
    if option("--pidfile"):
        with open(option("--pidfile"), "w") as f:
            f.write(str(os.getpid()))
    if "--crash-on-start" in args:
        sys.stderr.write("crashing on start as asked\n")
        sys.exit(7)
    if "--ignore-sigterm" in args:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if option("--grandchild"):
        child = subprocess.Popen(["sleep", "300"])
        with open(option("--grandchild"), "w") as f:
            f.write(str(child.pid))
    for i in range(int(option("--stderr-lines", "0"))):
        sys.stderr.write("stderr line %d\n" % i)
    sys.stderr.flush()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        handle(message)
    if "--ignore-stdin-close" in args:
        while True:
            time.sleep(1)


main()
