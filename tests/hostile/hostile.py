"""What the case modules of tests/hostile/ share: the opening handshake and the closing ping."""
import json

INITIALIZE = '> {"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n' \
             '< {"id":"init","result":"$any"}\n'


def header(comment, *directives):
    """The fixture's opening comment lines and directives."""
    lines = [f"# {line}" for line in comment.strip().splitlines()]
    lines += list(directives)
    return "\n".join(lines) + "\n"


def send(message):
    """A `>` line holding one message, compact."""
    return "> " + (message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))) + "\n"


def ping_after(id_="alive"):
    """toold still serves: a ping is answered (within the fixture's %timeout)."""
    return send({"jsonrpc": "2.0", "id": id_, "method": "ping"}) + \
        f'< {{"id":"{id_}","result":{{}}}}\n'


def nested(depth, open_="[", close="]", leaf="0"):
    """A JSON text nested `depth` levels deep."""
    return open_ * depth + leaf + close * depth


def nested_object(depth, key="a", leaf="0"):
    return '{"' + key + '":' + ("{\"" + key + "\":") * (depth - 1) + leaf + "}" * depth
