"""Shell lines built to slip past the bash permission scan, run through the real daemon.

Each is asked about or denied as it must be, and toold still answers afterwards: a wrapped shell's
script is read (a deny of `rm *` holds), a script fed to a shell on stdin or through a process
substitution asks for the whole line (literal-only), and brace expansions too large or nested too
deep to expand fail closed the same way instead of costing time or memory.
"""
import json

from hostile import header, ping_after, send

RULES = [{"action": "bash", "resource": "*", "effect": "ask"}, {"action": "bash", "resource": "rm *", "effect": "deny"}]


def _opening():
    return (send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {"permission": {}}}})
            + '< {"id":"init","result":"$any"}\n'
            + send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            + send({"jsonrpc": "2.0", "id": "snap", "method": "snapshot",
                    "params": {"sessionID": "s1", "agent": "build", "rules": RULES}})
            + '< {"id":"snap","result":{"snapshot":"$capture:snap"}}\n')


def _call(command):
    return send({"jsonrpc": "2.0", "id": "run", "method": "call",
                 "params": {"snapshot": "${snap}", "sessionID": "s1", "agent": "build", "messageID": "m1",
                            "callID": "c1", "name": "bash", "input": {"command": command}}})


def _denied(comment, command):
    return (header(comment, "%skip tool/progress") + _opening() + _call(command)
            + '< {"id":"run","result":{"status":"error","error":{"message":'
            + '"$re:^Permission denied: the rule .* forbids bash on \\"rm -rf x\\""}}}\n'
            + ping_after())


def _literal(comment, command, problem):
    return (header(comment, "%skip tool/progress") + _opening() + _call(command)
            + '< {"id":"$capture:ask","method":"permission/ask","params":{"action":"bash","literal":true,'
            + '"resources":' + json.dumps([command]) + ',"metadata":{"unparsed":' + json.dumps("$re:" + problem) + '}}}\n'
            + send('{"jsonrpc":"2.0","id":"${ask}","result":{"reply":"reject"}}')
            + '< {"id":"run","error":{"code":-32001}}\n'
            + ping_after())


def cases():
    yield "wrapped_shell_script", _denied(
        "A shell behind a chain of wrappers: its -c script is read, so the deny of rm holds.",
        "nohup /usr/bin/env -i nice -n 5 stdbuf -oL timeout 5 bash -c 'rm -rf x'")
    yield "find_exec_shell", _denied(
        "A shell run by find -exec with -c: its script is read too.",
        "find . -maxdepth 0 -exec sh -c 'rm -rf x' \\;")
    yield "coproc_body", _denied("A coprocess's command is the command asked about.", "coproc W { rm -rf x; }")
    yield "trap_action", _denied("A trap action runs later; it is read like a -c script.", "trap 'rm -rf x' EXIT")
    yield "braced_command", _denied("Braces make the words that run: {rm,-rf,x} is rm -rf x.", "{rm,-rf,x}")
    yield "process_substitution_script", _literal(
        "bash <(…) runs a script the scanner cannot see: the whole line, literal-only.",
        "bash <(printf 'rm -rf x')", "process substitution")
    yield "here_document_script", _literal(
        "A script in a here-document fed to sh: the whole line, literal-only.",
        "sh <<EOF\nrm -rf x\nEOF", "here-document")
    yield "huge_brace_sequence", _literal(
        "A sequence of a billion words is not expanded: the line fails closed at once.",
        "echo {1..1000000000}", "brace expansion")
    yield "brace_product", _literal(
        "Forty groups of two make 2^40 words: refused before the product is built.",
        "echo " + "{a,b}" * 40, "brace expansion")
    depth = 100000
    yield "deep_braces", _literal(
        "Braces nested 100,000 deep: refused past 64 levels.",
        "echo " + "{a," * depth + "b" + "}" * depth, "brace expansion")
