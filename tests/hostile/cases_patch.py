"""apply_patch with thousands of files: taking one path lock per file used to recurse once per
file and overflowed the stack past about 5,300 added files; 3,000 took 34 s."""
from hostile import INITIALIZE, header, ping_after, send

SNAPSHOT = send({"jsonrpc": "2.0", "id": "snap", "method": "snapshot",
                 "params": {"sessionID": "s", "agent": "build", "model": "gpt-5",
                            "rules": [{"action": "edit", "resource": "*", "effect": "allow"}]}}) + \
    '< {"id":"snap","result":{"snapshot":"$capture:snap"}}\n'


def many_added_files(count):
    patch = "*** Begin Patch\n" + "".join(
        f"*** Add File: many/d{i // 200}/f{i}.txt\n+file {i}\n+second line\n" for i in range(count)) + "*** End Patch"
    call = send({"jsonrpc": "2.0", "id": "patch", "method": "call",
                 "params": {"snapshot": "${snap}", "sessionID": "s", "agent": "build", "messageID": "m",
                            "callID": "c", "name": "apply_patch", "input": {"patchText": patch}}})
    return (header(f"apply_patch adding {count:,} files succeeds, is answered, and toold still serves.",
                   "%modes pipe", "%timeout 120")
            + INITIALIZE + SNAPSHOT + call
            + '< {"id":"patch","result":{"status":"completed"}}\n'
            + f'check many/d0/f0.txt "file 0\\nsecond line\\n"\n'
            + f'check many/d{(count - 1) // 200}/f{count - 1}.txt "file {count - 1}\\nsecond line\\n"\n'
            + ping_after())


def cases():
    return [("add_6000_files", many_added_files(6000))]
