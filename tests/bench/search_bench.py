#!/usr/bin/env python3
"""Measures toold's grep and glob against ripgrep in one run. Driven by scripts/bench-search,
which builds toold and passes the commands; this file generates the synthetic tree, sends the
calls, checks that the counts agree and prints the table. A benchmark, not a test: slow numbers
never fail it, disagreeing counts do.

toold runs as a daemon (one per tree, already started, spoken to over JSON-RPC); rg runs as a
process per query, as opencode runs it: `rg -nH --hidden --no-messages --field-match-separator=|
--regexp PATTERN PATH`, its whole output read. Warm cache: each query runs once on both sides
before it is timed; then --runs rounds, toold and rg one after the other in each, alternating
which goes first, every result of both checked; the medians of each side.

Then glob `*.ts` over two trees of empty files where it matches many (20,000 of 100,000 and
200,000 of 1,000,000, generated once under the same folder): toold reads every match's
modification time to show the 100 newest, rg only lists them; wall time and CPU time (toold's
daemon against the rg processes), on their own with --only-glob.
"""
import argparse
import os
import random
import resource
import re
import statistics
import subprocess
import sys
import time

from bench_summary import record

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files_bench import Toold  # noqa: E402  (the JSON-RPC client the file benchmark uses)

SYNTHETIC_BYTES = 1 << 30
MANY_FILES = 200_000
SYNTHETIC_FILES = 8192
WORDS = ("alpha beta gamma delta epsilon request response handler buffer socket stream parser token "
         "value index vector matrix kernel thread mutex signal future promise widget layout render "
         "cache store query record schema table column filter mapper reducer").split()


def start_tree(root, gitignore):
    """Starts a generated tree as a git repository with that root .gitignore; False when the tree
    was completed by an earlier run."""
    if os.path.exists(os.path.join(root, ".complete")):
        return False
    os.makedirs(root, exist_ok=True)
    subprocess.run(["git", "init", "-q", root], check=True)
    with open(os.path.join(root, ".gitignore"), "w") as out:
        out.write(gitignore)
    return True


def make_synthetic(root):
    """1 GiB of text in SYNTHETIC_FILES files over 64 folders, in a git repository whose
    .gitignore hides one folder in eight (ripgrep honours .gitignore only in a repository)."""
    if not start_tree(root, "".join(f"/dir{d:02d}/\n" for d in range(0, 64, 8)) + "*.tmp\n"):
        return
    rng = random.Random(7)
    per_file = SYNTHETIC_BYTES // SYNTHETIC_FILES
    for f in range(SYNTHETIC_FILES):
        folder = os.path.join(root, f"dir{f % 64:02d}")
        os.makedirs(folder, exist_ok=True)
        lines, size = [], 0
        while size < per_file:
            line = " ".join(rng.choice(WORDS) for _ in range(9)) + f" {rng.randrange(100000)}\n"
            lines.append(line)
            size += len(line)
        with open(os.path.join(folder, f"file{f:05d}.txt"), "w") as out:
            out.write("".join(lines))
    open(os.path.join(root, ".complete"), "w").close()


def make_many(root):
    """MANY_FILES small files of code-like text, eight levels of folders at most, in a git
    repository whose ignore rules (a root .gitignore and one in each top folder) hide about a fifth
    of them: build output, vendored modules, logs. A tree where walking and ignoring cost more
    than reading, as in a large monorepo."""
    if not start_tree(root, "build/\nnode_modules/\n*.log\n/generated/\n"):
        return
    rng = random.Random(11)
    extensions = [".c"] * 10 + [".h"] * 10 + [".py"] * 20 + [".js"] * 20 + [".md"] * 10 + [".txt"] * 10 + [".log"] * 5 + [".json"] * 15
    tops = [f"pkg{t:02d}" for t in range(20)] + ["generated"]
    for top in tops:
        os.makedirs(os.path.join(root, top), exist_ok=True)
        if top != "generated":
            with open(os.path.join(root, top, ".gitignore"), "w") as out:
                out.write("*.tmp\n/cache/\n!keep.log\n")
    for f in range(MANY_FILES):
        top = tops[f % len(tops)]
        depth = 1 + f % 4
        parts = [top] + [rng.choice(("src", "lib", "build", "node_modules", "cache", "test", "util", "core"))
                         for _ in range(depth)]
        folder = os.path.join(root, *parts)
        os.makedirs(folder, exist_ok=True)
        lines = []
        for _ in range(rng.randrange(4, 24)):
            a, b = rng.choice(WORDS), rng.choice(WORDS)
            lines.append(rng.choice((f"{a}_{b}_t {b}_{f % 997};", f"def {a}_{b}(self, {b}):", f"// {a} {b} {rng.randrange(1000)}",
                                     f"widget_{rng.randrange(100000)} = render_{a}({b})", f"const {a} = require('{b}');")))
        with open(os.path.join(folder, f"f{f:06d}{extensions[f % len(extensions)]}"), "w") as out:
            out.write("\n".join(lines) + "\n")
    open(os.path.join(root, ".complete"), "w").close()


GLOB_TREES = ((100_000, 20_000), (1_000_000, 200_000))  # (files, of which match *.ts)


def make_glob_tree(root, files, matches):
    """`files` empty files, `matches` of them *.ts spread evenly among the rest (*.js, *.json,
    *.md), 500 to a folder in two levels of folders, in a git repository: a listing that only
    walks, matches names and, for toold, reads the matches' modification times. Empty files made
    relative to an open folder, so even the 1M-file tree takes a minute or two, once."""
    if not start_tree(root, "build/\n"):
        return
    others = (".js", ".json", ".md")
    per_folder, per_top = 500, 100
    every = files // matches
    folder_fd = -1
    for f in range(files):
        if f % per_folder == 0:
            if folder_fd >= 0:
                os.close(folder_fd)
            folder = os.path.join(root, f"top{f // (per_folder * per_top):03d}", f"dir{(f // per_folder) % per_top:03d}")
            os.makedirs(folder, exist_ok=True)
            folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        name = f"file{f:07d}" + (".ts" if f % every == 0 else others[f % 3])
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=folder_fd))
    if folder_fd >= 0:
        os.close(folder_fd)
    open(os.path.join(root, ".complete"), "w").close()


def rg_count(root, pattern, extra=()):
    output = subprocess.run(["rg", "-nH", "--hidden", "--no-messages", "--field-match-separator=|", *extra,
                             "--regexp", pattern, root], capture_output=True).stdout
    return output.count(b"\n")


def rg_files(root, glob):
    output = subprocess.run(["rg", "--files", "--hidden", "--glob=!.git/*", f"--glob={glob}"], cwd=root,
                            capture_output=True).stdout
    return output.count(b"\n")


def timed(action):
    start = time.perf_counter()
    value = action()
    return (time.perf_counter() - start) * 1000, value


def paired_medians(ours, theirs, expected, runs, what):
    """Medians of toold's and rg's times, measured round by round, alternating which goes first,
    so a change of load during the run lands on both sides alike. Every result of both is checked
    against `expected`, not only the first."""
    ours(), theirs()  # warm both
    times = ([], [])
    for round_ in range(runs):
        order = [(0, ours, "toold"), (1, theirs, "rg")]
        if round_ % 2:
            order.reverse()
        for side, action, who in order:
            elapsed, value = timed(action)
            if value != expected:
                raise RuntimeError(f"{what}: {who} gave {value} in round {round_ + 1}, expected {expected}")
            times[side].append(elapsed)
    return statistics.median(times[0]), statistics.median(times[1])


def toold_grep(toold, pattern):
    def run():
        text = toold.call("grep", {"pattern": pattern})
        found = re.match(r"Found (\d+) matches", text)
        return int(found.group(1)) if found else 0
    return run


def toold_glob(toold, pattern):
    def run():
        toold.calls += 1
        result = toold.request("call", {"snapshot": toold.snapshots["claude-sonnet-4"], "sessionID": "bench",
                                        "agent": "build", "messageID": "m", "callID": f"c{toold.calls}",
                                        "name": "glob", "input": {"pattern": pattern}})
        if result["status"] != "completed":
            raise RuntimeError(result["error"]["message"])
        return result["metadata"]["total"]
    return run


def cpu_ms(pid):
    """The CPU time (user and system) process `pid` has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def children_cpu_ms():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def glob_rows(toold_binary, folder, runs):
    """glob `*.ts` over trees where it has many matches, whose modification times toold reads to
    keep the 100 newest: wall time and CPU time, toold's (the daemon's) against rg's processes."""
    rows = []
    for files, matches in GLOB_TREES:
        root = os.path.realpath(os.path.join(folder, f"glob-{files}"))
        print(f"Generating a tree of {files:,} files (the first time takes a while)...", file=sys.stderr)
        make_glob_tree(root, files, matches)
        data = os.path.join(folder, ".toold-data")
        os.makedirs(data, exist_ok=True)
        config = os.path.join(data, "toold.json")
        with open(config, "w") as out:
            out.write('{"permission": {"doom_loop": "allow"}}')
        toold = Toold(f"{toold_binary} --directory {root} --data-dir {data} --config {config}", root)
        listed = rg_files(root, "*.ts")
        if listed != matches or toold_glob(toold, "*.ts")() != matches:
            raise RuntimeError(f"glob over {files:,} files: expected {matches:,} matches from both")
        ours_cpu, theirs_cpu = cpu_ms(toold.process.pid), children_cpu_ms()
        toold_ms, rg_ms = paired_medians(toold_glob(toold, "*.ts"), lambda: rg_files(root, "*.ts"), matches, runs,
                                         f"glob over {files:,} files")
        # Both sides ran runs + 1 times (one warm-up each).
        ours_cpu = (cpu_ms(toold.process.pid) - ours_cpu) / (runs + 1)
        theirs_cpu = (children_cpu_ms() - theirs_cpu) / (runs + 1)
        toold.close()
        rows.append((f"{files:,} files", f"glob `*.ts` (wall)", matches, toold_ms, rg_ms))
        rows.append((f"{files:,} files", f"glob `*.ts` (CPU)", matches, ours_cpu, theirs_cpu))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--toold", required=True, help="the toold binary")
    parser.add_argument("--boost", required=True, help="the Boost headers folder")
    parser.add_argument("--synthetic", required=True, help="where the synthetic 1 GiB tree is made")
    parser.add_argument("--many", required=True, help="where the generated tree of 200,000 files is made")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only-glob", action="store_true", help="measure the glob trees alone")
    args = parser.parse_args()
    folder = os.path.dirname(os.path.realpath(args.synthetic))
    if args.only_glob:
        print_rows(glob_rows(args.toold, folder, args.runs))
        return

    print("Generating the synthetic tree (the first time takes a while)...", file=sys.stderr)
    make_synthetic(args.synthetic)
    make_many(args.many)
    # Per tree: a literal, a case-insensitive literal, an alternation, a regex with no literal to
    # look for first (the engine runs over every byte), and a pattern with no match; then a glob.
    trees = [("Boost headers", os.path.realpath(args.boost),
              ["shared_ptr", "(?i)allocator", "mutex|condition_variable|semaphore", r"\w+_t\b", "zq_no_such_identifier_zq"], "*.hpp"),
             ("synthetic 1 GiB", os.path.realpath(args.synthetic),
              ["kernel thread", "(?i)MUTEX SIGNAL", "widget [0-9]+$|render 4242", r"\b\d{3}$", "zq_no_such_word_zq"], "*.txt"),
             ("200,000 files", os.path.realpath(args.many),
              ["socket_stream", "(?i)MUTEX_SIGNAL", "widget_4[0-9]+ |render_cache", r"\w+_t\b", "zq_no_such_word_zq"], "*.c")]
    kinds = ["literal", "case-insensitive literal", "regex alternation", "regex without a literal", "no match"]
    rows = []
    for name, root, patterns, glob in trees:
        data = os.path.join(os.path.dirname(os.path.realpath(args.synthetic)), ".toold-data")
        os.makedirs(data, exist_ok=True)
        # Repeating one call is what a benchmark does; toold would ask about it as a doom loop.
        config = os.path.join(data, "toold.json")
        with open(config, "w") as out:
            out.write('{"permission": {"doom_loop": "allow"}}')
        toold = Toold(f"{args.toold} --directory {root} --data-dir {data} --config {config}", root)
        for kind, pattern in zip(kinds, patterns):
            rg_lines = rg_count(root, pattern)
            ours = toold_grep(toold, pattern)()
            if ours != rg_lines:
                raise RuntimeError(f"{name}, {pattern!r}: toold found {ours} matching lines, rg {rg_lines}")
            toold_ms, rg_ms = paired_medians(toold_grep(toold, pattern), lambda: rg_count(root, pattern), rg_lines,
                                             args.runs, f"{name}, {pattern!r}")
            rows.append((name, f"grep {kind} `{pattern}`", rg_lines, toold_ms, rg_ms))
        rg_listed = rg_files(root, glob)
        ours = toold_glob(toold, glob)()
        if ours != rg_listed:
            raise RuntimeError(f"{name}, glob {glob}: toold listed {ours} files, rg {rg_listed}")
        toold_ms, rg_ms = paired_medians(toold_glob(toold, glob), lambda: rg_files(root, glob), rg_listed, args.runs,
                                         f"{name}, glob {glob}")
        rows.append((name, f"glob `{glob}`", rg_listed, toold_ms, rg_ms))
        toold.close()
    print_rows(rows + glob_rows(args.toold, folder, args.runs))


def print_rows(rows):
    print("| tree | query | lines or files | toold ms | rg ms | toold ÷ rg |")
    print("|---|---|---:|---:|---:|---:|")
    for tree, query, count, ours, theirs in rows:
        print(f"| {tree} | {query} | {count:,} | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f} |")
        kind = "CPU time" if query.endswith("(CPU)") else "wall time"
        record("bench-search", f"{tree}: {query} ({count:,})", f"{ours:.1f} ms", f"rg {theirs:.1f} ms", ours / theirs,
               f"toold ÷ rg, {kind}", "≤ 1.0", ours <= theirs)


if __name__ == "__main__":
    main()
