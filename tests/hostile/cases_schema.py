"""Hostile schemas and the validations they make costly (docs/security.md, "Schemas").

- `register` with schemas nested 200 to 100,000 levels deep (items, properties, allOf, not): a
  schema that fits in a frame but is deeper than toold's schema limit (128 levels) is refused with
  -32602 naming that limit; deeper ones make the frame deeper than the protocol's 512 levels and
  are refused (-32600) before any schema is looked at. A schema of 129 levels must be refused by
  the schema limit itself.
- calls whose validation was exponential (nested anyOf/allOf over $refs), quadratic (uniqueItems
  over 20,000 items, 100,000 required keys): each ends with a clear answer, and while the worst
  runs, a ping and the call's cancellation are answered within 50 ms (400 ms in sanitizer builds).
"""
import json
import os

from hostile import INITIALIZE, header, ping_after, send

# A sanitizer build runs toold several times slower; the bound is about reading, not speed.
WITHIN_MS = 400 if os.environ.get("TOOLD_SANITIZE") else 50
# The timeouts that tell linear from quadratic work (seconds against minutes) stretch under
# ThreadSanitizer, which slows parsing and validating a megabyte of JSON by an order of magnitude.
COST_TIMEOUT = 20 if "thread" in os.environ.get("TOOLD_SANITIZE", "") else 5
SCHEMA_DEPTH_LIMIT = 128


def nested_schema_text(keyword, depth):
    """The schema as JSON text, `keyword` wrapped `depth` times around {} (built as text: Python's
    json module would recurse)."""
    opening, closing = {
        "items": ('{"items":', "}"),
        "not": ('{"not":', "}"),
        "properties": ('{"properties":{"a":', "}}"),
        "allOf": ('{"allOf":[', "]}"),
    }[keyword]
    return opening * depth + "{}" + closing * depth


def register_text(schema_text, id_="r", raw=False):
    """The register request; as `>raw` bytes when `raw`, so that the runner does not walk the deep
    value itself."""
    frame = ('{"jsonrpc":"2.0","id":"' + id_ + '","method":"register","params":{"scope":"s","tools":{"t":'
             '{"description":"d","handler":{"type":"client"},"inputSchema":' + schema_text + "}}}}")
    if raw:
        return '>raw "' + frame.replace('"', '\\"') + '\\n"\n'
    return "> " + frame + "\n"


def registered(schema):
    """The handshake, `schema` registered for the client tool "t", and a snapshot captured as snap."""
    return (INITIALIZE + send({"jsonrpc": "2.0", "method": "notifications/initialized"}) +
            register_text(json.dumps(schema, separators=(",", ":"))) +
            '<* {"id":"r","result":{"scope":"s"}}\n'
            '<* {"method":"notifications/tools/list_changed"}\n' +
            send({"jsonrpc": "2.0", "id": "snap", "method": "snapshot",
                  "params": {"sessionID": "s", "agent": "build"}}) +
            '< {"id":"snap","result":{"snapshot":"$capture:snap"}}\n')


def call(id_, value):
    return send({"jsonrpc": "2.0", "id": id_, "method": "call",
                 "params": {"snapshot": "${snap}", "sessionID": "s", "agent": "build", "messageID": "m",
                            "callID": id_, "name": "t", "input": value}})


def invalid_input(id_, message_re):
    return ('< {"id":"' + id_ + '","result":{"status":"error","error":{"type":"tool.invalid_input",'
            '"message":' + json.dumps("$re:" + message_re) + "}}}\n")


def executed(id_):
    """The input was valid: toold runs the client tool, which answers "ok"."""
    return ('< {"id":"$capture:exec_' + id_ + '","method":"tool/execute","params":{"callID":"' + id_ + '"}}\n' +
            '> {"jsonrpc":"2.0","id":"${exec_' + id_ + '}","result":"ok"}\n' +
            '< {"id":"' + id_ + '","result":{"status":"completed"}}\n')


def exponential_schema(levels):
    """Level i: anyOf of two allOf branches that both lead to level i+1; each level doubles the work
    of a naive validator (the issue's 2 KB schema: 21 levels took 76 s)."""
    defs = {}
    for i in range(levels):
        nxt = f"#/$defs/l{i + 1}"
        defs[f"l{i}"] = {"anyOf": [{"allOf": [{"$ref": nxt}, {"$ref": nxt}]},
                                   {"allOf": [{"$ref": nxt}, {"type": "string"}]}]}
    defs[f"l{levels}"] = {"type": "object", "required": ["zz"]}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/l0"}}, "$defs": defs}


def alive_within(id_):
    return (send({"jsonrpc": "2.0", "id": id_, "method": "ping"}) + f"within {WITHIN_MS}\n" +
            f'< {{"id":"{id_}","result":{{}}}}\n')


def cases():
    out = []
    for keyword in ("items", "properties", "allOf", "not"):
        # 200 levels fit in a frame (at most 2 JSON levels a schema level, under the frame's 512):
        # the schema limit refuses them, naming itself.
        text = header(f"register with an input schema of 200 nested {keyword}: refused by the schema limit.",
                      "%modes pipe")
        text += INITIALIZE + register_text(nested_schema_text(keyword, 200), raw=True)
        text += ('< {"id":"r","error":{"code":-32602,"message":"$re:nested more than 128 levels deep"},'
                 '"result":"$absent"}\n')
        out.append((f"register_{keyword}_200_deep", text + ping_after()))
        # Deeper schemas make the frame itself deeper than 512 levels: refused before anything
        # walks it (the request's id cannot be read then, so the answer's id is null).
        for depth in (600, 2000, 10000, 100000):
            text = header(f"register with an input schema of {depth} nested {keyword}: the frame is refused.",
                          "%modes pipe", "%timeout 20")
            text += INITIALIZE + register_text(nested_schema_text(keyword, depth), raw=True)
            text += ('< {"id":null,"error":{"code":-32600,"data":{"maxDepth":512},'
                     '"message":"$re:nested deeper than 512 levels"}}\n')
            out.append((f"register_{keyword}_{depth}_deep", text + ping_after()))
    # One level over the schema limit, far below any frame limit: the schema limit refuses it.
    text = header(f"A schema of {SCHEMA_DEPTH_LIMIT + 1} levels is refused with -32602 naming the limit.",
                  "%modes pipe")
    text += INITIALIZE + register_text(nested_schema_text("items", SCHEMA_DEPTH_LIMIT))
    text += ('< {"id":"r","error":{"code":-32602,"message":"$re:nested more than 128 levels deep; '
             'toold accepts at most 128"}}\n')
    out.append(("register_over_schema_limit", text + ping_after()))

    # The exponential schema: the call ends as invalid_input "too costly" within the budget, and
    # toold reads on meanwhile.
    text = header("An exponential schema (40 levels of anyOf/allOf over $refs): a ping is answered at once while\n"
                  "the validation runs off the reader, which ends as invalid_input within its budget.",
                  "%modes pipe", "%timeout 30")
    text += registered(exponential_schema(40)) + call("c1", {"x": {}})
    text += alive_within("during")
    text += invalid_input("c1", "too costly")
    out.append(("exponential_schema_budget", text + ping_after()))

    text = header("Cancelling a call whose validation is running: -32800 at once, and toold still serves.",
                  "%modes pipe", "%timeout 30")
    text += registered(exponential_schema(40)) + call("c1", {"x": {}})
    text += alive_within("during")
    text += send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "c1"}})
    text += f"within {WITHIN_MS}\n"
    text += '< {"id":"c1","error":{"code":-32800}}\n'
    text += alive_within("after_cancel")
    out.append(("exponential_schema_cancel", text + ping_after()))

    unique = {"type": "object", "properties": {"a": {"type": "array", "uniqueItems": True}}}
    text = header("uniqueItems over 20,000 items (13 s when every pair was compared): equal items are refused,\n"
                  "distinct ones pass, each in well under the fixture's timeout.", "%modes pipe",
                  f"%timeout {COST_TIMEOUT}")
    text += registered(unique)
    text += call("equal", {"a": [0] * 20000}) + invalid_input("equal", r"a: Expected unique items; \[0\] and \[1\] are equal")
    text += call("distinct", {"a": list(range(20000))}) + executed("distinct")
    out.append(("unique_items_20000", text + ping_after()))

    keys = [f"k{i}" for i in range(100000)]
    text = header("required with 100,000 keys (over a minute when each was searched for linearly).",
                  "%modes pipe", f"%timeout {COST_TIMEOUT}")
    text += registered({"type": "object", "required": keys})
    text += call("missing", {}) + invalid_input("missing", r"k0: Missing key")
    text += call("present", {k: 1 for k in keys}) + executed("present")
    out.append(("required_100000", text + ping_after()))
    return out
