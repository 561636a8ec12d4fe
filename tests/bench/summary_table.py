#!/usr/bin/env python3
"""Turns the summary lines the benchmarks wrote (see bench_summary.py) into the Markdown table the
README keeps: one row per measure, the ratio against the yardstick measured in the same run.

  summary_table.py SUMMARY.jsonl
"""
import json
import sys


def main():
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    print("| bench | measure | toold | yardstick (same run) | ratio | ratio is | target | met |")
    print("|---|---|---:|---|---:|---|---|:-:|")
    for row in rows:
        met = {True: "yes", False: "**no**", None: ""}[row.get("met")]
        # A number, or the text a script wrote itself ("1.16x", or "" where there is no ratio).
        ratio = f"{row['ratio']:.2f}" if isinstance(row["ratio"], (int, float)) else row["ratio"]
        print(f"| {row['bench']} | {row['measure']} | {row['toold']} | {row['yardstick']} | {ratio} | "
              f"{row['means']} | {row.get('target', '')} | {met} |")
    missed = sum(1 for row in rows if row.get("met") is False)
    print()
    print(f"{len(rows)} measures, {sum(1 for r in rows if r.get('met') is True)} targets met, {missed} missed.")


if __name__ == "__main__":
    main()
