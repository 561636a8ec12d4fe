#!/usr/bin/env python3
"""toold-repl in a real terminal: a tmux pane runs it, keys are typed into it, and the rendered
screen is read back. Covers Tab completion (meta-commands, tools, parameters, paths), the
progress status line replaced by the result, Ctrl-C cancelling the running call and then
clearing the line, the permission prompt asked again after a typo, and toold's log kept off the
prompt line; and a
recorded session replayed by the command :record prints.

    repl_terminal.py PATH/TO/toold-repl      (toold is found next to it)
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

REPL = os.path.realpath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="repl-terminal-")
SOCKET = f"toold-repl-test-{os.getpid()}"
failures = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *args], capture_output=True, text=True, check=check)


def screen():
    """The pane's text, scrollback included, without trailing blank lines."""
    return tmux("capture-pane", "-p", "-J", "-t", "repl", "-S", "-500").stdout.rstrip("\n")


def last_line():
    lines = [line for line in screen().split("\n") if line.strip()]
    return lines[-1].rstrip() if lines else ""


def wait_for(check, what, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    failures.append(f"timed out waiting for {what}\n--- screen ---\n{screen()}\n---")
    return False


def wait_text(text, timeout=20.0):
    return wait_for(lambda: text in screen(), repr(text), timeout)


def type_text(text):
    tmux("send-keys", "-t", "repl", "-l", text)


def press(*keys):
    tmux("send-keys", "-t", "repl", *keys)


def expect(condition, message):
    if not condition:
        failures.append(f"{message}\n--- screen ---\n{screen()}\n---")


def record_and_replay():
    """A session that reads a file, edits it and runs bash (asked about, answered at the prompt),
    recorded with :record: the replay command it prints passes, run as printed in an empty folder
    (the fixture runner gives it a fresh, empty workspace of its own)."""
    work = os.path.join(WORK, "recorded")
    os.makedirs(work)
    with open(os.path.join(work, "notes.txt"), "w") as f:
        f.write("alpha\nbeta\n")
    with open(os.path.join(work, "toold.json"), "w") as f:
        f.write('{"permission": {"bash": "ask"}}\n')
    command = (f"cd {work} && env HOME={WORK} TERM=xterm {REPL} --log-level warn; echo EXITED $?; sleep 60")
    tmux("new-session", "-d", "-s", "repl", "-x", "250", "-y", "50", command)
    if not wait_text("Tab completes, Ctrl-D leaves."):
        return
    type_text("read filePath=notes.txt")
    press("Enter")
    wait_text("── read (id 2) · completed")
    type_text("edit filePath=notes.txt oldString=beta newString=gamma")
    press("Enter")
    wait_text("── edit (id 3) · completed")
    type_text('bash command="cat notes.txt; sleep 0.5; echo done" description=show')
    press("Enter")
    wait_for(lambda: last_line().startswith("allow bash"), "the permission prompt for bash")
    type_text("o")
    press("Enter")
    wait_text("── bash (id 4) · completed")
    type_text(":record session.fixture")
    press("Enter")
    if not wait_text("recorded the conversation in session.fixture"):
        return
    printed = [line for line in screen().split("\n") if "(replay: " in line]
    replay = shlex.split(printed[-1].split("(replay: ", 1)[1].rsplit(")", 1)[0])
    expect(replay[0].startswith("/") and "--toold" in replay and replay[replay.index("--toold") + 1].startswith("/"),
           f"the replay command names no real paths: {replay}")
    fresh = os.path.join(WORK, "fresh")
    os.makedirs(fresh)
    shutil.copy(os.path.join(work, "session.fixture"), fresh)
    run = subprocess.run(replay, cwd=fresh, capture_output=True, text=True, timeout=60)
    with open(os.path.join(work, "session.fixture")) as f:
        recorded = f.read()
    if run.returncode != 0 or "1 passed, 0 failed" not in run.stdout:
        failures.append(f"the recorded fixture does not replay green:\n{run.stdout}{run.stderr}\n--- fixture ---\n{recorded}")
    expect("%file notes.txt <<" in recorded and "\nbeta\n" in recorded, "the fixture lacks notes.txt as it was before the edit")
    type_text(":quit")
    press("Enter")
    wait_text("EXITED 0")


def main():
    with open(os.path.join(WORK, "notes_file.txt"), "w") as f:
        f.write("hello\n")
    os.makedirs(os.path.join(WORK, "sub_dir"))
    with open(os.path.join(WORK, "sub_dir", "inner.txt"), "w") as f:
        f.write("inner\n")
    with open(os.path.join(WORK, "toold.json"), "w") as f:  # so that bash asks
        f.write('{"permission": {"bash": "ask"}}\n')
    command = (f"cd {WORK} && env HOME={WORK} TERM=xterm {REPL} --test-methods --log-level info; "
               "echo EXITED $?; sleep 60")
    tmux("new-session", "-d", "-s", "repl", "-x", "160", "-y", "50", command)
    try:
        if not wait_text("Tab completes, Ctrl-D leaves."):
            return
        wait_for(lambda: last_line() == "toold>", "the prompt")

        # Completion: a tool's name, then its parameter (no blank after the '=').
        type_text("test_pro")
        press("Tab")
        wait_for(lambda: last_line() == "toold> test_progress", "the tool name completed")
        type_text("st")
        press("Tab")
        wait_for(lambda: last_line() == "toold> test_progress steps=", "the parameter completed")
        type_text("1")
        press("Enter")
        wait_text("── test_progress (id 2) · completed")

        # A meta-command, then a tool as its argument.
        type_text(":descr")
        press("Tab")
        type_text("test_sl")
        press("Tab")
        wait_for(lambda: last_line() == "toold> :describe test_sleep", ":describe and the tool completed")
        press("Enter")
        wait_text("test_sleep(ms: integer)")

        # A path parameter completes file names: a blank after a file (even right after a
        # parameter's completion, which adds none), a '/' and no blank after a folder.
        type_text("test_path pa")
        press("Tab")
        wait_for(lambda: last_line() == "toold> test_path path=", "the path parameter completed")
        type_text("sub_d")
        press("Tab")
        type_text("X")
        wait_for(lambda: last_line() == "toold> test_path path=sub_dir/X", "a '/' after the completed folder")
        press("C-u")
        type_text("test_path pa")
        press("Tab")
        wait_for(lambda: last_line() == "toold> test_path path=", "the path parameter completed")
        type_text("notes_f")
        press("Tab")
        type_text("X")
        wait_for(lambda: last_line() == "toold> test_path path=notes_file.txt X", "a blank after the completed file")
        press("BSpace")
        press("Enter")
        wait_text('"inside":true')

        # A method with a '$' in it, and a file read with key=@FILE.
        type_text("$/test/ec")
        press("Tab")
        wait_for(lambda: last_line() == "toold> $/test/echo", "the method completed")
        press("C-u")
        type_text("test_echo body=@notes_f")
        press("Tab")
        wait_for(lambda: last_line().startswith("toold> test_echo body=@notes_file.txt"), "the @file completed")
        press("C-u")
        wait_for(lambda: last_line() == "toold>", "the line cleared")

        # Progress shows on a status line, which the result then replaces.
        type_text("test_progress steps=4 intervalMs=500")
        press("Enter")
        wait_text("⋯ test_progress (id 4)")
        if wait_text("── test_progress (id 4) · completed"):
            time.sleep(0.3)
            expect("⋯" not in screen(), "the status line is still on screen after the result")

        # Ctrl-C cancels the running call; with nothing running, it clears the typed line.
        type_text("test_sleep ms=60000")
        press("Enter")
        wait_text("--> call test_sleep (id 5)")
        time.sleep(0.3)
        press("C-c")
        wait_text("--> cancel (id 5)")
        wait_text("error -32800")
        type_text("abc")
        wait_for(lambda: last_line() == "toold> abc", "the typed text")
        press("C-c")
        wait_for(lambda: last_line() == "toold>", "the line cleared by Ctrl-C")

        # A permission ask becomes the prompt; a typo asks again; "o" allows once.
        type_text('test_permission action=bash resources=["rm -rf build"]')
        press("Enter")
        prompt = 'allow bash "rm -rf build"? [o]nce [a]lways [r]eject (+ message)'
        wait_for(lambda: last_line().startswith(prompt), "the permission prompt")
        # The ask names the call as it was shown when sent, in the REPL's one numbering.
        asked = [line for line in screen().split("\n") if line.startswith("? toold asks (toold-1)")]
        expect(asked and asked[-1].startswith('? toold asks (toold-1) for test_permission (id 6): bash on "rm -rf build"'),
               f"the ask does not name the call by its id: {asked}")
        type_text("x")
        press("Enter")
        wait_text("answer o (once), a (always) or r (reject)")
        wait_for(lambda: last_line().startswith(prompt), "the permission prompt asked again")
        type_text("o")
        press("Enter")
        wait_text("granted")
        wait_for(lambda: last_line() == "toold>", "the usual prompt back")

        # Any other question from toold asks for a JSON result, again until it is JSON.
        type_text('$/test/ask {"method": "client/confirm"}')
        press("Enter")
        wait_for(lambda: last_line().startswith("toold asks client/confirm (toold-2); JSON result>"), "the question")
        type_text("oops")
        press("Enter")
        wait_text("the answer must be JSON")
        type_text('{"confirmed": true}')
        press("Enter")
        wait_text('"confirmed": true')
        wait_for(lambda: last_line() == "toold>", "the usual prompt back")

        # toold's log (at info, the ask is logged) is printed above the prompt, never on it.
        log_lines = [line for line in screen().split("\n") if "asking about bash" in line]
        expect(log_lines, "toold's log line about the ask is not on screen")
        expect(all("toold>" not in line and "allow bash" not in line for line in log_lines),
               "toold's log landed on the prompt line")

        type_text(":quit")
        press("Enter")
        wait_text("EXITED 0")
        # The history keeps the typed lines, not the answers to prompts.
        with open(os.path.join(WORK, ".toold_repl_history"), errors="replace") as f:
            history = [line.rstrip("\n") for line in f]
        expect(any(line.startswith("test_sleep") for line in history), f"the history lacks a typed line: {history}")
        expect(not any(line in ("x", "o", "oops") or "confirmed" in line for line in history),
               f"answers to prompts went into the history: {history}")
        tmux("kill-session", "-t", "repl")
        record_and_replay()
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(WORK, ignore_errors=True)


main()
if failures:
    for failure in failures:
        print("repl_terminal:", failure, file=sys.stderr)
    sys.exit(1)
print("repl_terminal: ok")
