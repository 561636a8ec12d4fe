"""JSON at the boundary: numbers beyond double range and values nested past the depth limit.

Each was a crash: nlohmann raises number overflow as out_of_range, which the parse-error handler
did not catch, and a value parsed iteratively was then copied, compared or dumped recursively.
Now every parse failure is -32700 and a frame nested deeper than 512 levels is refused with
-32600 (data: {"maxDepth": 512}) before anything walks it; toold keeps serving.
"""
import json

from hostile import INITIALIZE, header, nested, nested_object, ping_after, send

DEEP = 100_000
LIMIT = 512
HUGE_INTEGER = "1" + "7" * 99_999  # 100,000 digits

PARSE_ERROR = '< {"id":null,"error":{"code":-32700,"message":"$re:^Parse error: .*number overflow"}}\n'
TOO_DEEP = '< {"id":null,"error":{"code":-32600,"message":"$re:nested deeper than 512 levels",' \
           '"data":{"$exact":{"maxDepth":512}}}}\n'


def frame(body):
    """A frame sent as raw bytes: the runner itself could not parse 1e999, and need not parse
    100,000 levels."""
    return '>raw "' + body.replace("\\", "\\\\").replace('"', '\\"') + '\\n"\n'


def case(comment, *lines, directives=()):
    return header(comment, *directives) + "".join(lines) + ping_after()


def cases():
    yield "params_1e999", case(
        "[1e999] as params, before initialize: a parse error, not an abort.",
        frame('{"jsonrpc":"2.0","id":1,"method":"ping","params":[1e999]}'), PARSE_ERROR)
    yield "params_integer_100000_digits", case(
        "A 100,000-digit integer in params: beyond double range, a parse error whose message is cut.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":' + HUGE_INTEGER + '}}'),
        '< {"id":null,"error":{"code":-32700,"message":"$re:^Parse error: number overflow parsing \'1777.{0,300}$"}}\n')
    yield "id_1e999", case(
        "1e999 as a request's id.",
        frame('{"jsonrpc":"2.0","id":1e999,"method":"ping"}'), PARSE_ERROR)
    yield "id_integer_100000_digits", case(
        "A 100,000-digit integer as a request's id.",
        frame('{"jsonrpc":"2.0","id":' + HUGE_INTEGER + ',"method":"ping"}'), PARSE_ERROR)
    yield "response_error_code_1e999", case(
        "1e999 as the error code of a response.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":"toold-1","error":{"code":1e999,"message":"no"}}'), PARSE_ERROR)
    yield "response_error_code_beyond_32_bits", case(
        "An error code that does not fit 32 bits is a malformed response: logged, never answered.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":"toold-1","error":{"code":4294967296,"message":"no"}}'),
        directives=("%stderr integer \"code\" of 32 bits",))
    yield "params_deep", case(
        "params 100,000 levels deep, before initialize.",
        frame('{"jsonrpc":"2.0","id":1,"method":"ping","params":' + nested(DEEP) + '}'), TOO_DEEP)
    yield "params_deep_objects", case(
        "params 100,000 objects deep, after initialize.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":' + nested_object(DEEP) + '}'), TOO_DEEP)
    yield "batch_deep", case(
        "A batch whose one element is 100,000 levels deep is refused whole: it was never parsed.",
        frame('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","params":' +
              nested(DEEP) + '}]'), TOO_DEEP)
    yield "response_id_deep", case(
        "A response whose id is 100,000 levels deep.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":' + nested(DEEP) + ',"result":{}}'), TOO_DEEP)
    yield "response_result_deep", case(
        "A response whose result is 100,000 levels deep (as an answer to permission/ask or tool/execute).",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":"toold-1","result":{"output":' + nested(DEEP) + '}}'), TOO_DEEP)
    yield "response_error_data_deep", case(
        "A response whose error.data is 100,000 levels deep.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":"toold-1","error":{"code":-1,"message":"no","data":' + nested(DEEP) + '}}'),
        TOO_DEEP)
    yield "initialize_capabilities_deep", case(
        "initialize with capabilities 100,000 levels deep is refused, and leaves toold uninitialized.",
        frame('{"jsonrpc":"2.0","id":"deep","method":"initialize","params":{"protocolVersion":"2025-11-25",'
              '"capabilities":{"experimental":' + nested_object(DEEP) + '}}}'), TOO_DEEP,
        send({"jsonrpc": "2.0", "id": "list", "method": "tools/list"}),
        '< {"id":"list","error":{"code":-32002}}\n',
        INITIALIZE)
    # The frame is an object (1), then params: LIMIT levels in all.
    yield "frame_at_depth_limit", case(
        "A frame exactly 512 levels deep is served; one level more is refused.",
        frame('{"jsonrpc":"2.0","id":1,"method":"ping","params":' + nested(LIMIT - 1) + '}'),
        '< {"id":1,"result":{}}\n',
        frame('{"jsonrpc":"2.0","id":2,"method":"ping","params":' + nested(LIMIT) + '}'),
        TOO_DEEP)
    # Tool input is further bounded by the schema validator; this depth passes it, and the value
    # goes through validation, the tool, the output check and the content text whole.
    inner = 200
    echoed = {"id": 1, "result": {"isError": False, "content": [
        {"type": "text", "text": "$re:^\\{\"v\":\\[{%d}0\\]{%d}\\}$" % (inner, inner)}]}}
    yield "echo_deep_input", case(
        "A tool input 200 levels deep is echoed whole.",
        INITIALIZE,
        frame('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_echo","arguments":{"v":' +
              nested(inner) + '}}}'),
        "< " + json.dumps(echoed, separators=(",", ":")) + "\n",
        directives=("%args --test-methods",))
