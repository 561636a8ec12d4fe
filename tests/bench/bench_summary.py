"""The line each benchmark adds to the summary scripts/bench turns into one table of ratios.

A benchmark appends one JSON object per measure to the file $TOOLD_BENCH_SUMMARY names (nothing
happens when it is unset): what was measured, toold's figure and the yardstick's (each a text with
its unit), the ratio with what it means, and the target with whether it was met.
"""
import json
import os


def record(bench, measure, toold, yardstick, ratio, means, target="", met=None):
    path = os.environ.get("TOOLD_BENCH_SUMMARY")
    if not path:
        return
    line = {"bench": bench, "measure": measure, "toold": toold, "yardstick": yardstick, "ratio": ratio,
            "means": means, "target": target, "met": met}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
