"""Runaway work inside tools: a regex whose cost per start position is huge, an edit whose result
amplifies its input, and tool bodies that block every worker. Each must end (or be refused) with a
clear answer while toold goes on serving."""
from hostile import INITIALIZE, header, ping_after, send

INITIALIZED = send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def snapshot(id_, session, name):
    return send({"jsonrpc": "2.0", "id": id_, "method": "snapshot", "params": {"sessionID": session, "agent": "build"}}) + \
        f'< {{"jsonrpc": "2.0", "id": {id_}, "result": {{"snapshot": "$capture:{name}"}}}}\n'


def call(id_, snap, session, tool, input_):
    return send({"jsonrpc": "2.0", "id": id_, "method": "call",
                 "params": {"snapshot": "${" + snap + "}", "sessionID": session, "agent": "build",
                            "messageID": "m", "callID": f"c{id_}", "name": tool, "input": input_}})


def grep_bounded_repetition():
    # 16 MB of letters on one line, after the "!" the regex requires (so the regex runs on the line):
    # each start position scans 60,000 letters before failing for want of another "!", which
    # PCRE2's JIT does not count against its match limit (hours of work).
    letters = "!" + "a" * 16_000_000
    return header("""
grep with a bounded repetition over a 16 MB line is given up after its time budget (1 s plus 1 s
per 16 MiB), the file is named in a note, and toold still answers.""", "%modes pipe", "%timeout 30",
                  f"%file big.txt <<EOF\n{letters}\nEOF", "%file small.txt <<EOF\nword!\nEOF") + \
        INITIALIZE + INITIALIZED + snapshot(1, "s", "snap") + \
        call(2, "snap", "s", "grep", {"pattern": r"\p{L}{1,60000}!"}) + \
        '< {"jsonrpc": "2.0", "id": 2, "result": {"status": "completed", "content": [{"type": "text",\n' \
        '   "text": "$re:^Found 1 matches\\\\n.*small.txt:\\\\n  Line 1: word!\\\\n\\\\n\\\\(Skipped 1 file whose search ran ' \
        'past its time limit \\\\(1 s, plus 1 s per 16 MiB of the file\\\\): .*/big.txt\\\\)$"}]}}\n' + \
        ping_after()


def edit_replace_all_amplifies():
    # 64 Ki "a", each to become 1,100 "b": 72 MB if it were built (and under the 100,000 places
    # one edit may replace, so it is the result's size that refuses it).
    text = "a" * (1 << 16)
    return header("""
edit with replaceAll that would make a file over 64 MiB is refused before the result is built,
naming the limit; the file is unchanged and toold still answers.""", "%modes pipe", "%timeout 30",
                  f"%file a.txt <<EOF\n{text}\nEOF") + \
        INITIALIZE + INITIALIZED + snapshot(1, "s", "snap") + \
        call(2, "snap", "s", "edit", {"filePath": "a.txt", "oldString": "a", "newString": "b" * 1100, "replaceAll": True}) + \
        '< {"jsonrpc": "2.0", "id": 2, "result": {"status": "error", "error": {"message":\n' \
        '   "$re:^The edit would make .*a.txt larger than 64 MiB \\\\(at least [0-9]+ bytes\\\\), the limit for an ' \
        'edit\'s result; nothing was changed\\\\."}}}\n' + \
        f'check a.txt "{text}\\n"\n' + ping_after()


def edit_replace_all_too_many_places():
    # 1 MiB of "a", each to become "b": the result does not grow, but a million places would each
    # cost a position and a replacement before the first byte is written.
    text = "a" * (1 << 20)
    return header("""
edit with replaceAll of a one-byte oldString over 1 MiB (a million places) is refused before the
places are collected, naming the limit of 100,000; the file is unchanged and toold still answers.""",
                  "%modes pipe", "%timeout 30", f"%file a.txt <<EOF\n{text}\nEOF") + \
        INITIALIZE + INITIALIZED + snapshot(1, "s", "snap") + \
        call(2, "snap", "s", "edit", {"filePath": "a.txt", "oldString": "a", "newString": "b", "replaceAll": True}) + \
        '< {"jsonrpc": "2.0", "id": 2, "result": {"status": "error", "error": {"message":\n' \
        '   "$re:^oldString occurs more than 100000 times in .*a.txt, more than one edit replaces; ' \
        'nothing was changed\\\\."}}}\n' + \
        f'check a.txt "{text}\\n"\n' + ping_after()


def block_both_workers():
    """Calls 3 and 4 of session a hold both worker threads (test_sleep, as a read of a file that
    never answers would), session b's snapshot being snapB."""
    return call(3, "snapA", "a", "test_sleep", {"ms": 600000}) + \
        call(4, "snapA", "a", "test_sleep", {"ms": 600000}) + \
        "wait 100\n"


def release_both_workers():
    """Cancels calls 3 and 4, and toold still answers."""
    return send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}}) + \
        send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 4}}) + \
        '<* {"jsonrpc": "2.0", "id": 3, "error": {"code": -32800}}\n' + \
        '<* {"jsonrpc": "2.0", "id": 4, "error": {"code": -32800}}\n' + \
        ping_after()


def blocked_workers_read():
    # Two bodies that hold their worker threads (test_sleep, as a read of a file that never answers
    # would), in one session; reads in another session must still complete: a small file's on the
    # session's queue, a folder's on a worker the pool adds.
    return header("""
Both workers blocked by tool bodies of one session: a small read in another session completes
without a worker (its path relative, absolute, or with "." and ".." in it), a folder's read once
the pool grows; the blocked calls are then cancelled and toold still answers.""", "%modes pipe",
                  "%args --test-methods", "%timeout 5",
                  "%stderr worker pool: work waited over 100 ms with all 2 threads busy; added one",
                  "%file notes.txt <<EOF\nhello\nEOF", "%file sub/keep.txt <<EOF\nkept\nEOF") + \
        INITIALIZE + INITIALIZED + snapshot(1, "a", "snapA") + snapshot(2, "b", "snapB") + block_both_workers() + \
        call(5, "snapB", "b", "read", {"filePath": "notes.txt"}) + \
        '< {"jsonrpc": "2.0", "id": 5, "result": {"status": "completed", "content": [{"type": "text", "text": "$re:1: hello"}]}}\n' + \
        call(7, "snapB", "b", "read", {"filePath": "${workspace}/notes.txt"}) + \
        '< {"jsonrpc": "2.0", "id": 7, "result": {"status": "completed", "content": [{"type": "text", "text": "$re:1: hello"}]}}\n' + \
        call(8, "snapB", "b", "read", {"filePath": "./sub/../notes.txt"}) + \
        '< {"jsonrpc": "2.0", "id": 8, "result": {"status": "completed", "content": [{"type": "text", "text": "$re:1: hello"}]}}\n' + \
        call(6, "snapB", "b", "read", {"filePath": "."}) + \
        '< {"jsonrpc": "2.0", "id": 6, "result": {"status": "completed", "content": [{"type": "text", "text": "$re:notes.txt"}]}}\n' + \
        release_both_workers()


def blocked_workers_large_read():
    # A file over the session queue's 1 MiB is read on a worker: with both workers held, its read
    # waits for the pool to grow (the stderr line proves it went there) and then pages correctly.
    lines = "".join(f"line {i:05d} of a file too large to read on the session's queue, padded out\n"
                    for i in range(1, 20001))
    return header("""
With both workers blocked, a read of a file over 1 MiB goes to a worker the pool adds (a small
file's read would not wait for one) and shows the right window.""", "%modes pipe", "%args --test-methods",
                  "%timeout 5", "%stderr worker pool: work waited over 100 ms with all 2 threads busy; added one",
                  f"%file big.txt <<EOF\n{lines}EOF") + \
        INITIALIZE + INITIALIZED + snapshot(1, "a", "snapA") + snapshot(2, "b", "snapB") + block_both_workers() + \
        call(5, "snapB", "b", "read", {"filePath": "big.txt", "offset": 19999, "limit": 5}) + \
        '< {"jsonrpc": "2.0", "id": 5, "result": {"status": "completed", "content": [{"type": "text", "text": ' \
        r'"$re:\\n19999: line 19999 of a file.*\\n20000: line 20000 .*\\n\\n\\(End of file - total 20000 lines\\)"}]}}' + '\n' + \
        release_both_workers()


def cases():
    return [
        ("blocked_workers_large_read", blocked_workers_large_read()),
        ("grep_bounded_repetition", grep_bounded_repetition()),
        ("edit_replace_all_amplifies", edit_replace_all_amplifies()),
        ("edit_replace_all_too_many_places", edit_replace_all_too_many_places()),
        ("blocked_workers_read", blocked_workers_read()),
    ]
