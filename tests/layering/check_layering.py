#!/usr/bin/env python3
"""Checks that every #include of toold's sources points down the layering of
docs/architecture.md: each folder (a "room") may include only itself and the rooms listed for it.

  check_layering.py SOURCE_ROOT

Prints every include that breaks the table, and exits 1 when there is one. The CMake targets
follow the same table, but a header-only include would not show up as a link error; this does.
"""
import pathlib
import re
import sys

# Who may include whom, directly. Listed whole (not derived), so that a new edge is a decision
# made here, in review, rather than a side effect of another one.
ALLOWED = {
    "protocol": set(),
    "core/base": {"protocol"},
    "core/schema": {"core/base", "protocol"},
    "core/output": {"core/base", "protocol"},
    "core/process": {"core/base", "protocol"},
    # process: only for the folder of toold's executable, where toold-web.so is installed.
    "core/net": {"core/process", "core/base", "protocol"},
    "core/files": {"core/output", "core/base", "protocol"},
    # The walker, git's ignore rules and globs: the search tools walk with them, and checkpoints
    # watch and scan the folders they keep.
    "core/walk": {"core/base", "protocol"},
    # Checkpoints: the store of what calls changed, and restoring it; durable writes and the journal
    # are files', which folders count is walk's. Below tools (the call pipeline starts and finishes
    # each call's recorder) and workspace.
    "core/checkpoint": {"core/walk", "core/files", "core/output", "core/base", "protocol"},
    # The OS sandbox of the commands toold starts: how to wrap a process, what the kernel offers.
    "core/sandbox": {"core/process", "core/base", "protocol"},
    "core/permission": {"core/sandbox", "core/files", "core/output", "core/base", "protocol"},
    "core/tools": {"core/permission", "core/checkpoint", "core/sandbox", "core/schema", "core/output", "core/process",
                   "core/files", "core/base", "protocol"},
    "core/sources": {"core/net", "core/tools", "core/checkpoint", "core/permission", "core/sandbox", "core/schema", "core/output", "core/process",
                     "core/files", "core/base", "protocol"},
    # The MCP client: a tool source above tools, process, net (remote servers) and permission (for
    # the config's errors).
    "core/sources/mcp": {"core/net", "core/tools", "core/checkpoint", "core/permission", "core/sandbox", "core/schema", "core/output", "core/process",
                         "core/files", "core/base", "protocol"},
    # Language servers: their config (and the formatters'), the client, documents and diagnostics;
    # servers are processes, started in the sandbox, and the config's errors are permission's.
    "core/lsp": {"core/permission", "core/sandbox", "core/files", "core/output", "core/process", "core/base", "protocol"},
    "core/workspace": {"core/tools", "core/checkpoint", "core/permission", "core/sandbox", "core/files", "core/output", "core/base",
                       "protocol"},
    # core's own folder holds only the service that assembles the rooms.
    "core": {"core/net", "core/checkpoint", "core/walk", "core/sources", "core/workspace", "core/lsp", "core/tools", "core/permission", "core/sandbox", "core/schema",
             "core/output", "core/process", "core/files", "core/base", "protocol"},
    # Built-in tools know the core, never the wire.
    "builtins": {"core/net", "core/checkpoint", "core/walk", "builtins/codemode", "core", "core/sources", "core/workspace", "core/lsp", "core/tools",
                 "core/permission", "core/sandbox", "core/schema", "core/output", "core/process", "core/files",
                 "core/base"},
    # Code Mode's engine and catalog: they know no tool model, only how to start and read a
    # worker process (and bounded_json for what it writes).
    "builtins/codemode": {"core/process", "core/base", "protocol"},
    # The server: everything below it, never the REPL or the test-only methods.
    "daemon": {"core/net", "core/checkpoint", "core/walk", "builtins", "builtins/codemode", "core", "core/sources", "core/sources/mcp", "core/workspace", "core/lsp",
               "core/tools", "core/permission", "core/sandbox", "core/schema", "core/output", "core/process", "core/files",
               "core/base", "protocol"},
    # Test-only methods and tools sit beside main, which installs them.
    "daemon/testing": {"core/net", "core/checkpoint", "core/walk", "daemon", "builtins", "builtins/codemode", "core", "core/sources", "core/sources/mcp",
                       "core/workspace", "core/lsp", "core/tools",
                       "core/permission", "core/sandbox", "core/schema", "core/output", "core/process",
                       "core/files", "core/base", "protocol"},
    # The REPL is a client: it speaks the wire to a toold it starts, and knows nothing inside it.
    "daemon/repl": {"protocol", "core/process"},
    # The sandbox launcher links nothing of toold's: it shares only the words of its command line.
    "daemon/sandbox": {"core/sandbox"},
}

# Single files allowed more than their room, each with its reason.
FILE_EXCEPTIONS = {
    # main installs the test-only methods and tools when toold is started with --test-methods.
    "daemon/main.cpp": {"daemon/testing"},
    # The lsp tool shows a language server's answer of an unexpected shape with bounded_json,
    # which renders any JSON a peer sent within a depth and a size.
    "builtins/lsp/lsp_render_parts.cpp": {"protocol"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(relative: pathlib.PurePosixPath) -> str | None:
    """The room a source or header belongs to: the longest ALLOWED key that is a folder of it.
    builtins' sub-folders are one room with builtins (they are the built-ins' own helpers), except
    builtins/codemode, a room of its own below them."""
    parts = relative.parts[:-1]
    for length in range(len(parts), 0, -1):
        candidate = "/".join(parts[:length])
        if candidate in ALLOWED:
            return candidate
    return None


def main() -> int:
    root = pathlib.Path(sys.argv[1]).resolve()
    breaches = []
    checked = 0
    for top in ("protocol", "core", "builtins", "daemon"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            relative = pathlib.PurePosixPath(path.relative_to(root).as_posix())
            room = room_of(relative)
            if room is None:
                breaches.append(f"{relative}: not in any room of the table")
                continue
            checked += 1
            for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
                target_room = room_of(pathlib.PurePosixPath(target))
                if target_room is None or target_room == room:
                    continue  # a system or third-party header, or the room's own
                if target_room not in ALLOWED[room] | FILE_EXCEPTIONS.get(str(relative), set()):
                    breaches.append(f"{relative}: includes {target} ({room} may not depend on {target_room})")
    for breach in breaches:
        print(breach)
    print(f"{checked} files checked, {len(breaches)} includes against the layering")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
