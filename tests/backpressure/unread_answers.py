#!/usr/bin/env python3
"""A client that stops reading its answers cannot make toold buffer them without limit.

Writes 100,000 `tools/list` requests without reading stdout, until every request is written or
toold has taken no byte for a while (it stopped reading: back-pressure). Then reads every answer.
toold's peak resident set (VmHWM, read while it still runs) must stay under a bound; before
back-pressure covered the answers it grew past 800 MB. The pause is not asserted: it is timing,
and the peak catches any unbounded growth whenever it happens.

    unread_answers.py TOOLD
"""
import os
import select
import subprocess
import sys
import tempfile

REQUESTS = 100_000
# The answers alone would take ~800 MB, and toold without back-pressure peaked at 2.9 GB. A
# sanitizer build keeps freed memory in quarantine and pads every block (ASan: ~400 MB while
# unread, ~600 MB in all with back-pressure), so its bound is wider but still far below that.
PEAK_LIMIT_MB = 1000 if os.environ.get("TOOLD_SANITIZE") else 160
STALL_SECONDS = 3          # no byte taken for this long: toold stopped reading
ANSWER_TIMEOUT_SECONDS = 120


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/PID/status")


def main():
    toold = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="toold-backpressure-") as scratch:
        workspace, data = os.path.join(scratch, "workspace"), os.path.join(scratch, "data")
        os.mkdir(workspace)
        os.mkdir(data)
        process = subprocess.Popen([toold, "--directory", workspace, "--data-dir", data, "--log-level", "warn"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        stdin, stdout = process.stdin.fileno(), process.stdout.fileno()
        os.set_blocking(stdin, False)
        os.set_blocking(stdout, False)
        payload = (b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n'
                   b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
                   b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"tools/list"}\n' % i
                            for i in range(1, REQUESTS + 1)))
        sent = 0

        def write_some():
            nonlocal sent
            try:
                sent += os.write(stdin, payload[sent:sent + 65536])
            except BlockingIOError:
                pass

        # Phase 1: write only.
        while sent < len(payload):
            _, writable, _ = select.select([], [stdin], [], STALL_SECONDS)
            if not writable:
                break
            write_some()
        stalled_at = sent
        peak_unread = peak_rss_mb(process.pid)

        # Phase 2: read every answer (and write the rest).
        lines, tail = 0, b""
        while lines < REQUESTS + 1:
            readable, writable, _ = select.select([stdout], [stdin] if sent < len(payload) else [], [],
                                                  ANSWER_TIMEOUT_SECONDS)
            if not readable and not writable:
                sys.exit(f"FAIL: toold sent no answer for {ANSWER_TIMEOUT_SECONDS} s after {lines} answers")
            if writable:
                write_some()
            if readable:
                chunk = os.read(stdout, 1 << 20)
                if not chunk:
                    sys.exit(f"FAIL: toold closed stdout after {lines} answers (status {process.wait()})")
                lines += chunk.count(b"\n")
                tail = (tail + chunk)[-(1 << 20):]
        peak = peak_rss_mb(process.pid)
        last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        process.stdin.close()
        status = process.wait(timeout=30)

    print(f"toold stopped reading after {stalled_at} of {len(payload)} bytes of requests"
          if stalled_at < len(payload) else "toold read every request before any answer was read")
    print(f"peak RSS: {peak_unread:.1f} MB while unread, {peak:.1f} MB in all (limit {PEAK_LIMIT_MB} MB)")
    if not last.startswith(b'{"id":%d,' % REQUESTS):
        sys.exit(f"FAIL: the last answer is not that of request {REQUESTS}: {last[:200]!r}")
    if status != 0:
        sys.exit(f"FAIL: toold exited with status {status}")
    if peak > PEAK_LIMIT_MB:
        sys.exit(f"FAIL: toold's peak RSS {peak:.1f} MB is over {PEAK_LIMIT_MB} MB")
    print("PASS")


if __name__ == "__main__":
    main()
