"""Reads that would block, and writes to toold's own tool-output folder.

Files that never end or block on read (/proc/self/pagemap, /proc/kmsg, a device behind a
regular-looking name) used to hold a worker each until two of them stopped every file tool. They
are refused at once, with a message that says why, while the others are pending, and a normal read
still answers. The tool-output folder can be read, but not written, edited or patched.
"""
from hostile import INITIALIZE, header, ping_after, send


def call(id_, name, arguments):
    return send({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                 "params": {"name": name, "arguments": arguments}})


def refused(id_, regex):
    return (f'<* {{"id":{id_},"result":{{"isError":true,'
            f'"content":[{{"type":"text","text":"$re:{regex}"}}]}}}}\n')


def blocking_reads():
    text = header(
        "Three reads of files that never end or block, sent together, each refused at once with the\n"
        "reason; a normal read sent after them is answered too, and so is a ping.",
        "%modes pipe",
        "%timeout 5",
        # The pseudo files lie outside the workspace: let the external_directory asks through,
        # so the refusal tested is the read's own.
        "%args --unattended allow",
        "%symlink notes.txt /dev/zero",
        "%file plain.txt <<EOF",
        "just text",
        "EOF",
    )
    text += INITIALIZE
    text += call(1, "read", {"filePath": "/proc/self/pagemap"})
    text += call(2, "read", {"filePath": "/proc/kmsg"})
    text += call(3, "read", {"filePath": "notes.txt"})
    text += call(4, "read", {"filePath": "plain.txt"})
    text += refused(1, "pagemap is on the proc pseudo file system; toold reads only regular files")
    text += refused(2, "kmsg is on the proc pseudo file system")
    text += refused(3, "notes.txt is a character device; toold reads only regular files")
    text += '<* {"id":4,"result":{"isError":false,"content":[{"type":"text","text":"$re:1: just text"}]}}\n'
    return text + ping_after()


def grep_of_pseudo_file():
    text = header(
        "grep given a file of /proc, or a device behind a regular-looking name, says it cannot read\n"
        "it rather than reading forever.",
        "%modes pipe",
        "%timeout 5",
        "%args --unattended allow",
        "%symlink zero.txt /dev/zero",
    )
    text += INITIALIZE
    text += call(1, "grep", {"pattern": "x", "path": "/proc/self/pagemap"})
    text += call(2, "grep", {"pattern": "x", "path": "zero.txt"})
    text += refused(1, "pagemap is on the proc pseudo file system")
    text += refused(2, "zero.txt is a character device")
    return text + ping_after()


def tool_output_is_read_only():
    text = header(
        "The tool-output folder keeps the full output of earlier calls: read may show it, but write,\n"
        "edit and multiedit may not change it (nor add to it), and the file stays as it was.",
        "%modes pipe",
        "%timeout 5",
        "%args --unattended allow",
        "%file ${data}/tool-output/tool_saved <<EOF",
        "saved output",
        "EOF",
    )
    text += INITIALIZE
    saved = "${data}/tool-output/tool_saved"
    text += call(1, "read", {"filePath": saved})
    text += '<* {"id":1,"result":{"isError":false,"content":[{"type":"text","text":"$re:1: saved output"}]}}\n'
    text += call(2, "edit", {"filePath": saved, "oldString": "saved", "newString": "forged"})
    text += refused(2, "tool_saved is in toold's tool-output folder, which keeps the full output of earlier calls: "
                       "it can be read, but not changed")
    text += call(3, "write", {"filePath": saved, "content": "forged"})
    text += refused(3, "tool-output folder")
    text += call(4, "write", {"filePath": "${data}/tool-output/tool_new", "content": "forged"})
    text += refused(4, "tool-output folder")
    # apply_patch is not offered over MCP; its refusal is a unit test (file_tool_refusals_test).
    text += call(5, "multiedit", {"filePath": saved, "edits": [{"oldString": "saved", "newString": "forged"}]})
    text += refused(5, "tool-output folder")
    text += 'check ${data}/tool-output/tool_saved "saved output\\n"\n'
    text += "check ${data}/tool-output/tool_new absent\n"
    return text + ping_after()


def cases():
    return [
        ("blocking_reads", blocking_reads()),
        ("grep_of_pseudo_file", grep_of_pseudo_file()),
        ("tool_output_is_read_only", tool_output_is_read_only()),
    ]
