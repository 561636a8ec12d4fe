#!/usr/bin/env python3
"""Writes the edit-matching corpus (edit/*.json, patch/*.json) from real source files.

Each case is built by construction, never by running the matcher: a block of a real file is
chosen, the edit the model meant is made on it (a line inserted or deleted) to give the expected
file, and then the model's mistake of the case's kind is made on both oldString and newString the
same way (the model writes both strings in the same style). The expected file is therefore the
block's intended edit in the file's own spelling: lines newString keeps from oldString keep the
file's text, new lines take the file's indentation of the line they follow. Decoys add a
near-duplicate of the block to the excerpt; a decoy either must be refused (the model's text fits
both copies equally) or names one copy exactly, and then that copy is the one to change.

Run from anywhere: python3 tests/edit-corpus/generate.py. Deterministic (fixed seed); the output
is committed, so the corpus does not change when the files on a machine do.
"""
import json
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/lib/python3.11/"
SOURCES = {
    # path: (language, licence)
    PY + "argparse.py": ("python", "PSF-2.0"),
    PY + "configparser.py": ("python", "PSF-2.0"),
    PY + "textwrap.py": ("python", "PSF-2.0"),
    PY + "shlex.py": ("python", "PSF-2.0"),
    PY + "calendar.py": ("python", "PSF-2.0"),
    PY + "difflib.py": ("python", "PSF-2.0"),
    PY + "pprint.py": ("python", "PSF-2.0"),
    PY + "ftplib.py": ("python", "PSF-2.0"),
    PY + "smtplib.py": ("python", "PSF-2.0"),
    PY + "zipfile.py": ("python", "PSF-2.0"),
    PY + "tarfile.py": ("python", "PSF-2.0"),
    PY + "http/client.py": ("python", "PSF-2.0"),
    PY + "json/encoder.py": ("python", "PSF-2.0"),
    PY + "logging/__init__.py": ("python", "PSF-2.0"),
    PY + "unittest/case.py": ("python", "PSF-2.0"),
    "/usr/include/c++/12/pstl/algorithm_impl.h": ("cpp", "Apache-2.0 WITH LLVM-exception"),
    "/usr/include/c++/12/pstl/numeric_impl.h": ("cpp", "Apache-2.0 WITH LLVM-exception"),
    "/usr/include/c++/12/pstl/parallel_backend_utils.h": ("cpp", "Apache-2.0 WITH LLVM-exception"),
    "/usr/include/linux/swab.h": ("c-tabs", "GPL-2.0 WITH Linux-syscall-note"),
    "/usr/include/linux/byteorder/little_endian.h": ("c-tabs", "GPL-2.0 WITH Linux-syscall-note"),
}

rng = random.Random(19)
TRIVIAL = re.compile(r"^[\W_]*(end|fi|done|else|elif|try|pass|return|break|continue|finally)?[\W_]*$")


def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


FILES = {p: load(p) for p in SOURCES if os.path.exists(p)}


def indent(line):
    return line[: len(line) - len(line.lstrip(" \t"))]


def blank(line):
    return line.strip() == ""


def comment(lang, text):
    return "# " + text if lang == "python" else "/* " + text + " */"


def distinctive(line):
    t = line.strip()
    return len(t) >= 8 and not TRIVIAL.match(t)


def good_indent(line, lang):
    if blank(line):
        return True
    ind = indent(line)
    if lang == "c-tabs":
        return set(ind) <= {"\t"}
    return set(ind) <= {" "} and len(ind) % 4 == 0


def windows(path, n, need=None):
    """Starts of n-line windows of clean code that `need(lines)` accepts."""
    lang = SOURCES[path][0]
    lines = FILES[path]
    out = []
    for s in range(0, len(lines) - n):
        w = lines[s : s + n]
        if blank(w[0]) or blank(w[-1]) or not distinctive(w[0]) or not distinctive(w[-1]):
            continue
        if any('"""' in l or "'''" in l or l.rstrip().endswith("\\") or "\t" in l.strip() for l in w):
            continue
        if lang != "c-tabs" and any("\t" in l for l in w):
            continue
        if not all(good_indent(l, lang) for l in w):
            continue
        if any(l.lstrip().startswith("#") and lang != "python" for l in w):
            continue
        if need is None or need(w):
            out.append(s)
    return out


def norm_key(lines):
    """The loosest view of a block: non-blank lines, no whitespace, lower case."""
    return tuple(re.sub(r"\s+", "", l).lower() for l in lines if not blank(l))


def occurrences(lines, block):
    key = norm_key(block)
    n = len(block)
    count = 0
    nb = [i for i, l in enumerate(lines) if not blank(l)]
    for j in range(len(nb) - len(key) + 1):
        if tuple(re.sub(r"\s+", "", lines[nb[j + t]]).lower() for t in range(len(key))) == key:
            count += 1
    return count


class Block:
    """An excerpt of a real file with one block in it, as tagged lines."""

    def __init__(self, path, start, n, before=12, after=12):
        self.path = path
        self.lang = SOURCES[path][0]
        lines = FILES[path]
        a = max(0, start - before)
        b = min(len(lines), start + n + after)
        self.pre = lines[a:start]
        self.lines = [(i, lines[start + i]) for i in range(n)]
        self.post = lines[start + n : b]
        self.first_line = a + 1

    def excerpt(self, block=None):
        block = self.lines if block is None else block
        return "\n".join(self.pre + [t for _, t in block] + self.post) + "\n"


def edit_points(block, avoid=()):
    """Lines after which a line may be inserted (or which may be deleted): not blank, not the last,
    not opening a block, not next to an avoided index."""
    out = []
    lines = block.lines
    for k in range(len(lines) - 1):
        t = lines[k][1].rstrip()
        if blank(t) or blank(lines[k + 1][1]) or t.endswith((":", "{", "(", "[", ",", "\\")):
            continue
        if any(abs(k - a) <= 1 or abs(k + 1 - a) <= 1 for a in avoid):
            continue
        out.append(k)
    return out


def intended(block, case_id, avoid=(), mode=None):
    """The model's intended newString lines (tagged) for the block: a line inserted after an edit
    point (taking its indentation), or the line after it deleted."""
    points = edit_points(block, avoid)
    if not points:
        return None
    k = rng.choice(points)
    lines = list(block.lines)
    mode = mode or rng.choice(["insert", "insert", "delete"])
    if mode == "delete" and k + 1 < len(lines) - 1 and not blank(lines[k + 1][1]):
        del lines[k + 1]
    else:
        ind = indent(lines[k][1])
        lines.insert(k + 1, ("new", ind + comment(block.lang, "edited: corpus case " + case_id)))
    return lines


def text(tagged):
    return "\n".join(t for _, t in tagged)


def case(kind, cid, block, old, new, expected, mistake, decoy=False, file=None):
    c = {
        "id": cid,
        "kind": kind,
        "decoy": decoy,
        "mistake": mistake,
        "source": "%s:%d" % (block.path, block.first_line),
        "file": file if file is not None else block.excerpt(),
        "oldString": old,
        "newString": new,
    }
    if expected is None:
        c["refuse"] = True
    else:
        c["expected"] = expected
    return c


def pick(n_lines, need, count, paths=None):
    """(path, start) pairs of windows from several files, spread over the sources."""
    paths = paths or [p for p in FILES if SOURCES[p][0] == "python"]
    found = []
    for p in paths:
        for s in windows(p, n_lines, need):
            found.append((p, s))
    rng.shuffle(found)
    out, used = [], set()
    for p, s in found:
        if any(q == p and abs(s - t) < 40 for q, t in used):
            continue
        used.add((p, s))
        out.append((p, s))
        if len(out) >= count:
            break
    return out


# ---------------------------------------------------------------- edit cases, one builder per kind


def inner_blanks(block):
    return [i for i in range(1, len(block.lines) - 1) if blank(block.lines[i][1])]


def drop_tags(tagged, tags):
    return [(g, t) for g, t in tagged if g not in tags]


def add_blank_after(tagged, tag, mark="extra"):
    out = []
    for g, t in tagged:
        out.append((g, t))
        if g == tag:
            out.append((mark, ""))
    return out


def blank_variant(block, v):
    """A blank-line mistake: (mutation of tagged lines, tags to avoid for the edit, description)."""
    lines = block.lines
    blanks = inner_blanks(block)
    pairs = [i for i in range(1, len(lines) - 2) if not blank(lines[i][1]) and not blank(lines[i + 1][1])]
    doubles = [i for i in blanks if i + 1 in blanks]
    if v == 0 and blanks:
        b = rng.choice(blanks)
        return (lambda t: drop_tags(t, {b})), [b], "a blank line inside the block left out"
    if v == 1 and pairs:
        p = rng.choice(pairs)
        return (lambda t: add_blank_after(t, p)), [p, p + 1], "a blank line added between two statements"
    if v == 2 and doubles:
        d = rng.choice(doubles)
        return (lambda t: drop_tags(t, {d})), [d, d + 1], "two blank lines collapsed into one"
    if v == 3 and blanks and pairs:
        b = rng.choice(blanks)
        ps = [p for p in pairs if abs(p - b) > 1]
        if not ps:
            return None
        p = rng.choice(ps)
        return (lambda t: add_blank_after(drop_tags(t, {b}), p)), [b, p, p + 1], "a blank line moved"
    return None


def build_blank_lines(count, decoys):
    out = []
    need = lambda w: any(blank(l) for l in w[1:-1])
    picks = [(p, s, 9) for p, s in pick(9, need, 60)] + [(p, s, 7) for p, s in pick(7, need, 40)]
    v = 0
    for path, s, n in picks:
        block = Block(path, s, n)
        if occurrences(FILES[path][max(0, s - 12) : s + n + 12], [t for _, t in block.lines]) != 1:
            continue
        variant = blank_variant(block, v % 4)
        if variant is None:
            continue
        mutate, avoid, what = variant
        cid = "blank-%02d" % (len(out) + 1)
        new_intended = intended(block, cid, avoid)
        if new_intended is None:
            continue
        old = text(mutate(block.lines))
        if old == text(block.lines):
            continue
        is_decoy = len(out) >= count
        if not is_decoy:
            out.append(case("blank_lines", cid, block, old, text(mutate(new_intended)),
                            block.excerpt(new_intended), what))
        else:
            # The excerpt holds the block twice, the copy without one of its inner blank lines.
            blanks = inner_blanks(block)
            if not blanks:
                continue
            b = blanks[0]
            copy = drop_tags(block.lines, {b})
            file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
            if len(out) % 2 == 0:
                pairs = [i for i in range(1, len(block.lines) - 2)
                         if i not in (b - 1, b) and not blank(block.lines[i][1]) and not blank(block.lines[i + 1][1])]
                if not pairs:
                    continue
                p = pairs[0]
                model = add_blank_after(copy, p)
                out.append(case("blank_lines", cid, block, text(model), text(add_blank_after(drop_tags(new_intended, {b}), p)),
                                None, "near-duplicate blocks that differ only in blank lines; oldString fits both",
                                True, file))
            else:
                new_copy = drop_tags(new_intended, {b})
                expected = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in new_copy] + block.post) + "\n"
                out.append(case("blank_lines", cid, block, text(copy), text(new_copy), expected,
                                "near-duplicate blocks that differ only in blank lines; oldString is the second exactly",
                                True, file))
        v += 1
        if len(out) >= count + decoys:
            break
    return out


def reindent_tagged(tagged, base, new_base, unit, src_unit=4, tab=False):
    """Each non-blank line's indentation rewritten: `base` + k levels of `src_unit` becomes
    `new_base` + k levels of `unit` (spaces, or tabs when `unit` is '\t')."""
    out = []
    for g, t in tagged:
        if blank(t):
            out.append((g, ""))
            continue
        ind = indent(t)
        width = len(ind) if not tab else len(ind)  # tabs count one each
        level = (width - base) // src_unit
        out.append((g, new_base + unit * level + t.lstrip(" \t")))
    return out


def base_of(tagged, tabs=False):
    return min(len(indent(t)) for _, t in tagged if not blank(t))


def nested(w):
    levels = {len(indent(l)) for l in w if not blank(l)}
    return len(levels) >= 2


def build_indent_scale(count, decoys):
    out = []
    picks = pick(6, nested, 60)
    picks += pick(6, nested, 8, [p for p in FILES if SOURCES[p][0] == "cpp"])
    picks += pick(5, nested, 6, [p for p in FILES if SOURCES[p][0] == "c-tabs"])
    rng.shuffle(picks)
    v = 0
    for path, s in picks:
        block = Block(path, s, 6 if SOURCES[path][0] != "c-tabs" else 5)
        tabs = block.lang == "c-tabs"
        if occurrences(block.pre + [t for _, t in block.lines] + block.post, [t for _, t in block.lines]) != 1:
            continue
        cid = "scale-%02d" % (len(out) + 1)
        new_intended = intended(block, cid)
        if new_intended is None:
            continue
        base = base_of(block.lines)
        src = 1 if tabs else 4
        if tabs:
            options = [("", "  ", "tab levels written as 2 spaces, base dropped"),
                       ("", "   ", "tab levels written as 3 spaces, base dropped"),
                       (" " * (2 * base), "  ", "tab levels written as 2 spaces")]
        else:
            options = [(" " * (base // 2), "  ", "4-space levels written as 2 spaces"),
                       ("", "  ", "4-space levels written as 2 spaces, base dropped"),
                       (" " * (base * 2), " " * 8, "4-space levels written as 8 spaces"),
                       ("", "\t", "4-space levels written as tabs, base dropped"),
                       (" " * base, "   ", "4-space levels written as 3 spaces")]
        new_base, unit, what = options[v % len(options)]
        v += 1
        mutate = lambda t: reindent_tagged(t, base, new_base, unit, src)
        old = text(mutate(block.lines))
        if old == text(block.lines):
            continue
        if len(out) < count:
            out.append(case("indent_scale", cid, block, old, text(mutate(new_intended)), block.excerpt(new_intended), what))
        elif not tabs:
            deeper = reindent_tagged(block.lines, base, " " * (base + 4), "    ")
            if len(out) % 2 == 0:
                copy = deeper
                what = "the same block again one level deeper; oldString scaled fits both"
                expected = None
            else:
                # The copy nests its last line differently: only the first copy fits the scaling.
                copy = list(block.lines)
                g, t = copy[-1]
                copy[-1] = (g, "    " + t)
                what = "a look-alike block nested differently; only the first fits the scaled indentation"
                expected = "\n".join(block.pre + [t for _, t in new_intended] + [""] + [t for _, t in copy] + block.post) + "\n"
            file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
            out.append(case("indent_scale", cid, block, old, text(mutate(new_intended)), expected, what, True, file))
        if len(out) >= count + decoys:
            break
    return out


def build_indent_lost(count, decoys):
    out = []
    need = lambda w: nested(w) and len(indent(w[0])) >= 4
    picks = pick(5, need, 60) + pick(5, need, 6, [p for p in FILES if SOURCES[p][0] == "cpp"])
    rng.shuffle(picks)
    for path, s in picks:
        block = Block(path, s, 5)
        if occurrences(block.pre + [t for _, t in block.lines] + block.post, [t for _, t in block.lines]) != 1:
            continue
        cid = "lost-%02d" % (len(out) + 1)
        new_intended = intended(block, cid)
        if new_intended is None:
            continue
        mutate = lambda t: [(g, x.lstrip(" \t")) for g, x in t]
        old, new = text(mutate(block.lines)), text(mutate(new_intended))
        what = "every line written flush-left"
        if len(out) < count:
            out.append(case("indent_lost", cid, block, old, new, block.excerpt(new_intended), what))
            continue
        d = len(out) - count
        base = base_of(block.lines)
        if d < 6:
            if d % 2 == 0:
                copy = reindent_tagged(block.lines, base, " " * (base + 4), "    ")
                what = "the same block again one level deeper; flush-left fits both"
            else:
                copy = list(block.lines)
                g, t = copy[-1]
                copy[-1] = (g, "    " + t)
                what = "a look-alike block nested differently; flush-left fits both"
            expected = None
        else:
            copy = list(block.lines)
            g, t = copy[-1]
            copy[-1] = (g, t.rstrip() + "  " + comment(block.lang, "look-alike"))
            what = "a look-alike block with a different last line; only the first fits"
            expected = "\n".join(block.pre + [t for _, t in new_intended] + [""] + [t for _, t in copy] + block.post) + "\n"
        file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
        out.append(case("indent_lost", cid, block, old, new, expected, what, True, file))
        if len(out) >= count + decoys:
            break
    return out


def excerpt_text(block, tagged=None):
    return block.excerpt(tagged)


FRAGMENT_DRIFTS = [
    (lambda f: f.replace(", ", ","), lambda f: ", " in f, "no space after the commas"),
    (lambda f: re.sub(r"\(([^()\s])", r"( \1", f, 1), lambda f: re.search(r"\([^()\s]", f), "a space added inside a parenthesis"),
    (lambda f: f.replace(" ", "  ", 1), lambda f: " " in f, "one space doubled"),
    (lambda f: re.sub(r" (=|==|\+|-|\*|%|<|>|!=|<=|>=|and|or|in|is) ", lambda m: m.group(1) if not m.group(1).isalpha() else " " + m.group(1) + " ", f, 1),
     lambda f: re.search(r" (=|==|\+|-|\*|%|<|>|!=|<=|>=) ", f), "no spaces around an operator"),
    (lambda f: f.replace(" ", "\t", 1), lambda f: " " in f, "a space written as a tab"),
]


def fragment_of(line):
    """A mid-line fragment of a line: from its second token to a few characters before its end."""
    content = line.strip()
    first = content.find(" ")
    if first < 0:
        return None
    start = len(indent(line)) + first + 1
    end = len(line.rstrip()) - rng.randint(1, 4)
    while end > start and (line[end - 1].isalnum() or line[end - 1] == "_") and (line[end].isalnum() or line[end] == "_"):
        end -= 1
    # A fragment starts and ends at text, as the model quotes it.
    while end > start and line[end - 1] == " ":
        end -= 1
    if end - start < 14:
        return None
    return start, end


def build_fragment(count, decoys):
    out = []
    need = lambda w: True
    picks = pick(1, need, 400)
    rng.shuffle(picks)
    v = 0
    for path, s in picks:
        block = Block(path, s, 1)
        line = block.lines[0][1]
        span = fragment_of(line)
        if span is None:
            continue
        a, b = span
        frag = line[a:b]
        drift, applies, what = FRAGMENT_DRIFTS[v % len(FRAGMENT_DRIFTS)]
        if not applies(frag) or drift(frag) == frag:
            continue
        if len(out) >= count and ", " not in frag:
            continue
        names = [m for m in re.finditer(r"[A-Za-z_]\w{2,}", frag)]
        if not names:
            continue
        m = names[-1]
        new_frag = frag[: m.end()] + "_v2" + frag[m.end():]
        model_old, model_new = drift(frag), drift(new_frag)
        if model_old == model_new:
            continue
        file = block.excerpt()
        offset = len("\n".join(block.pre)) + (1 if block.pre else 0)
        squeezed = re.sub(r"\s+", "", frag)
        if file.count(frag) != 1 or re.sub(r"\s+", "", file).count(squeezed) != 1:
            continue
        cid = "fragment-%02d" % (len(out) + 1)
        if len(out) < count:
            expected = file[: offset + a] + model_new + file[offset + b:]
            out.append(case("fragment", cid, block, model_old, model_new, expected, "mid-line fragment, " + what))
        else:
            # The line again with other spacing after its commas: the model's spacing is neither.
            twin = line.replace(", ", ",  ")
            file = "\n".join(block.pre + [line, twin] + block.post) + "\n"
            model_old, model_new = frag.replace(", ", ","), new_frag.replace(", ", ",")
            if len(out) % 2 == 0:
                out.append(case("fragment", cid, block, model_old, model_new, None,
                                "the line twice with different spacing; the fragment's spacing fits both", True, file))
            else:
                twin_frag = frag.replace(", ", ",  ")
                twin_new = new_frag.replace(", ", ",  ")
                start = len("\n".join(block.pre + [line])) + 1 + twin.find(twin_frag)
                expected = file[:start] + twin_new + file[start + len(twin_frag):]
                out.append(case("fragment", cid, block, twin_frag, twin_new, expected,
                                "the line twice with different spacing; the fragment is the second exactly", True, file))
        v += 1
        if len(out) >= count + decoys:
            break
    return out


LSQ, RSQ, LDQ, RDQ = "\u2018", "\u2019", "\u201c", "\u201d"
EMDASH, ENDASH, ARROW, ELLIPSIS, NBSP, ZWSP, BOM = "\u2014", "\u2013", "\u2192", "\u2026", "\u00a0", "\u200b", "\ufeff"
STRING = re.compile(r"'([^'\\]{2,})'|\"([^\"\\]{2,})\"")


def curly(line):
    m = STRING.search(line)
    if not m:
        return None
    q = "'" if m.group(1) else '"'
    inner = m.group(1) or m.group(2)
    l, r = (LSQ, RSQ) if q == "'" else (LDQ, RDQ)
    return line[: m.start()] + l + inner + r + line[m.end():]


def words_space(line, char):
    """The first space between two words of a comment or string, replaced by `char`."""
    m = re.search(r"(#|'|\")[^'\"]*?\w( )\w", line)
    if not m:
        return None
    return line[: m.start(2)] + char + line[m.end(2):]


# (which side carries the typographic text, transformation of one line, description)
TYPO = [
    ("file", curly, "the file has curly quotes, oldString straight ones"),
    ("file", lambda l: words_space(l, " " + EMDASH + " "), "the file has an em dash, oldString '--'"),
    ("file", lambda l: l.replace(" -> ", " " + ARROW + " ") if " -> " in l else words_space(l, " " + ARROW + " "), "the file has an arrow, oldString '->'"),
    ("file", lambda l: words_space(l, "..." ) if False else (l.replace("...", ELLIPSIS) if "..." in l else words_space(l, ELLIPSIS + " ")), "the file has an ellipsis, oldString '...'"),
    ("file", lambda l: words_space(l, NBSP), "the file has a non-breaking space, oldString a space"),
    ("file", lambda l: words_space(l, " " + ZWSP), "the file has a zero-width space, oldString none"),
    ("model", curly, "oldString has curly quotes, the file straight ones"),
    ("model", lambda l: l.replace(" -> ", " " + ARROW + " ") if " -> " in l else None, "oldString has an arrow, the file '->'"),
    ("model", lambda l: words_space(l, " " + ENDASH + " ") if False else (l.replace(" - ", " " + ENDASH + " ") if " - " in l else None), "oldString has an en dash, the file '-'"),
    ("model", lambda l: "BOM", "oldString starts with a byte-order mark"),
    ("model", lambda l: re.sub(r"(\w)(\.)(\w)", "\\1" + ZWSP + "\\2\\3", l, 1) if re.search(r"\w\.\w", l) else None, "oldString has a zero-width space"),
]


def ascii_of(line):
    """What a model writes for a line with typographic characters."""
    return (line.replace(LSQ, "'").replace(RSQ, "'").replace(LDQ, '"').replace(RDQ, '"')
            .replace(" " + EMDASH + " ", " -- ").replace(ARROW, "->").replace(ELLIPSIS, "...")
            .replace(NBSP, " ").replace(ZWSP, ""))


def build_typographic(count, decoys):
    out = []
    picks = pick(5, lambda w: any(STRING.search(l) or "#" in l or "->" in l for l in w[1:-1]), 600)
    v = 0
    for path, s in picks:
        block = Block(path, s, 5)
        variants = [TYPO[(v + i) % len(TYPO)] for i in range(len(TYPO))]
        if len(out) >= count:
            variants = [("file", curly, "")]
        target = None
        for side, change, what in variants:
            for j in range(len(block.lines)):
                if not blank(block.lines[j][1]) and change(block.lines[j][1]) not in (None, block.lines[j][1]):
                    target = j
                    break
            if target is not None:
                break
        if target is None:
            continue
        cid = "typo-%02d" % (len(out) + 1)
        new_intended = intended(block, cid, [target])
        if new_intended is None:
            continue
        changed_line = change(block.lines[target][1])
        tg = block.lines[target][0]
        if len(out) < count:
            if side == "file":
                # The file carries the typographic text: alter it there, the model writes ASCII.
                block.lines[target] = (tg, changed_line)
                new_intended = [(g, changed_line if g == tg else t) for g, t in new_intended]
                mutate = lambda tl: [(g, ascii_of(t)) for g, t in tl]
            elif changed_line == "BOM":
                mutate = lambda tl: [(g, (BOM + t) if i == 0 else t) for i, (g, t) in enumerate(tl)]
            else:
                mutate = lambda tl: [(g, changed_line if g == tg else t) for g, t in tl]
            old, new = text(mutate(block.lines)), text(mutate(new_intended))
            if old == text(block.lines):
                continue
            out.append(case("typographic", cid, block, old, new, block.excerpt(new_intended), what))
        else:
            # The block twice: as the file has it, and with curly quotes on one line.
            copy = [(g, changed_line if g == tg else t) for g, t in block.lines]
            file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
            new_copy = [(g, changed_line if g == tg else t) for g, t in new_intended]
            if len(out) % 2 == 0:
                low = changed_line.replace(LSQ, "\u201a").replace(LDQ, "\u201e")
                mutate = lambda tl: [(g, low if g == tg else t) for g, t in tl]
                out.append(case("typographic", cid, block, text(mutate(block.lines)), text(mutate(new_intended)), None,
                                "the block twice, straight and curly quotes; oldString's low-9 quotes fold to both", True, file))
            else:
                expected = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in new_copy] + block.post) + "\n"
                out.append(case("typographic", cid, block, text(copy), text(new_copy), expected,
                                "the block twice, straight and curly quotes; oldString is the curly one exactly", True, file))
        v += 1
        if len(out) >= count + decoys:
            break
    return out


MIDDLE = [
    (lambda l: re.sub(r"'([^'\"\\]*)'", r'"\1"', l, 1) if re.search(r"'[^'\"\\]*'", l) else None, "the other quote style"),
    (lambda l: l[: re.search(r"\S  #", l).start() + 1] if re.search(r"\S  #", l) else None, "a trailing comment left out"),
    (lambda l: re.sub(r"\)\s*$", ", None)", l) if re.search(r"\w\)\s*$", l) else None, "an argument added"),
    (lambda l: re.sub(r"'([^']*?)(\w{4,})([^']*)'", lambda m: "'" + m.group(1) + m.group(2)[:-1] + "ed" + m.group(3) + "'", l, 1)
     if re.search(r"'[^']*\w{4,}[^']*'", l) else None, "a misremembered message"),
    (lambda l: re.sub(r"\b(self\.)?(_?[a-z]+)_([a-z]+)\b", r"\1\2\3", l, 1) if re.search(r"\b_?[a-z]+_[a-z]+\b", l) else None,
     "an identifier misspelt"),
]


def build_middle(count, decoys):
    out = []
    picks = pick(5, lambda w: True, 800)
    v = 0
    for path, s in picks:
        block = Block(path, s, 5)
        around = block.pre + block.post
        firsts = [t.strip() for t in around]
        if block.lines[0][1].strip() in firsts or block.lines[-1][1].strip() in firsts:
            continue
        target = None
        for change, what in [MIDDLE[(v + i) % len(MIDDLE)] for i in range(len(MIDDLE))]:
            for j in range(1, len(block.lines) - 1):
                t = block.lines[j][1]
                if not blank(t) and change(t) not in (None, t):
                    target = j
                    break
            if target is not None:
                break
        if target is None:
            continue
        cid = "middle-%02d" % (len(out) + 1)
        new_intended = intended(block, cid, [target])
        if new_intended is None:
            continue
        tg = block.lines[target][0]
        wrong = change(block.lines[target][1])
        mutate = lambda tl: [(g, wrong if g == tg else t) for g, t in tl]
        if len(out) < count:
            out.append(case("middle_line", cid, block, text(mutate(block.lines)), text(mutate(new_intended)),
                            block.excerpt(new_intended), "a middle line with " + what))
        else:
            # A look-alike: the same block with the middle line changed another way.
            others = [c for c, _ in MIDDLE if c is not change and c(block.lines[target][1]) not in (None, block.lines[target][1], wrong)]
            if not others:
                continue
            other = others[0](block.lines[target][1])
            copy = [(g, other if g == tg else t) for g, t in block.lines]
            file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
            if len(out) % 2 == 0:
                out.append(case("middle_line", cid, block, text(mutate(block.lines)), text(mutate(new_intended)), None,
                                "a look-alike block with its middle line changed another way; oldString's middle fits neither",
                                True, file))
            else:
                new_copy = [(g, other if g == tg else t) for g, t in new_intended]
                expected = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in new_copy] + block.post) + "\n"
                out.append(case("middle_line", cid, block, text(copy), text(new_copy), expected,
                                "a look-alike block with its middle line changed; oldString is the second exactly", True, file))
        v += 1
        if len(out) >= count + decoys:
            break
    return out


CASE_CHANGES = [
    (lambda l: re.sub(r"\b(None|True|False)\b", lambda m: m.group(1).lower(), l, 1) if re.search(r"\b(None|True|False)\b", l) else None,
     "None/True/False in lower case"),
    (lambda l: indent(l) + l.strip().lower() if l.strip().lower() != l.strip() else None, "a line in lower case"),
    (lambda l: re.sub(r"\b([a-z])(\w*_\w+)\b", lambda m: m.group(1).upper() + m.group(2), l, 1) if re.search(r"\b[a-z]\w*_\w+\b", l) else None,
     "an identifier capitalised"),
    (lambda l: re.sub(r"\b([A-Z][a-z]+[A-Z]\w*)\b", lambda m: m.group(1).lower(), l, 1) if re.search(r"\b[A-Z][a-z]+[A-Z]\w*\b", l) else None,
     "a CamelCase name in lower case"),
]


def build_case(count, decoys):
    out = []
    picks = pick(4, lambda w: True, 400)
    v = 0
    for path, s in picks:
        block = Block(path, s, 4)
        if occurrences(block.pre + [t for _, t in block.lines] + block.post, [t for _, t in block.lines]) != 1:
            continue
        change, what = CASE_CHANGES[v % len(CASE_CHANGES)]
        target = None
        for j in range(len(block.lines)):
            t = block.lines[j][1]
            if not blank(t) and change(t) not in (None, t):
                target = j
                break
        if target is None:
            continue
        cid = "case-%02d" % (len(out) + 1)
        new_intended = intended(block, cid, [target])
        if new_intended is None:
            continue
        tg = block.lines[target][0]
        wrong = change(block.lines[target][1])
        mutate = lambda tl: [(g, wrong if g == tg else t) for g, t in tl]
        if len(out) < count:
            out.append(case("letter_case", cid, block, text(mutate(block.lines)), text(mutate(new_intended)),
                            block.excerpt(new_intended), what))
        else:
            upper = indent(block.lines[target][1]) + block.lines[target][1].strip().upper()
            if upper in (wrong, block.lines[target][1]):
                continue
            copy = [(g, upper if g == tg else t) for g, t in block.lines]
            file = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in copy] + block.post) + "\n"
            if len(out) % 2 == 0:
                out.append(case("letter_case", cid, block, text(mutate(block.lines)), text(mutate(new_intended)), None,
                                "the block twice, one line in upper case in the copy; oldString's case fits neither", True, file))
            else:
                new_copy = [(g, upper if g == tg else t) for g, t in new_intended]
                expected = "\n".join(block.pre + [t for _, t in block.lines] + [""] + [t for _, t in new_copy] + block.post) + "\n"
                out.append(case("letter_case", cid, block, text(copy), text(new_copy), expected,
                                "the block twice, one line in upper case in the copy; oldString is the copy exactly", True, file))
        v += 1
        if len(out) >= count + decoys:
            break
    return out


# ---------------------------------------------------------------- apply_patch cases


def hunk(lines, k, tag, before=3, after=3, ctx=None):
    """A chunk changing line k (appending a comment to it), with context lines around it. `ctx`
    rewrites each context line as the patch writes it."""
    ctx = ctx or (lambda i, t: t)
    out = []
    for i in range(max(0, k - before), k):
        out.append(" " + ctx(i, lines[i]))
    out.append("-" + lines[k])
    out.append("+" + lines[k] + "  # " + tag)
    for i in range(k + 1, min(len(lines), k + 1 + after)):
        out.append(" " + ctx(i, lines[i]))
    return out


def changed(lines, ks, tag):
    return [t + "  # " + tag if i in ks else t for i, t in enumerate(lines)]


def patch_text(ops):
    return "*** Begin Patch\n" + "".join(ops) + "*** End Patch\n"


def update(path, chunks, move=None):
    out = "*** Update File: " + path + "\n"
    if move:
        out += "*** Move to: " + move + "\n"
    for header, body in chunks:
        out += ("@@ " + header if header else "@@") + "\n" + "\n".join(body) + "\n"
    return out


def pcase(kind, cid, source, files, patch, expected, mistake, decoy=False):
    c = {"id": cid, "kind": kind, "decoy": decoy, "mistake": mistake, "source": source, "files": files, "patch": patch}
    if expected is None:
        c["refuse"] = True
    else:
        c["expected"] = expected
    return c


def changeable(lines, k):
    t = lines[k]
    return not blank(t) and "#" not in t and distinctive(t) and not t.rstrip().endswith("\\")


def unique_window(lines, k, before=3, after=3):
    w = tuple(l.strip() for l in lines[max(0, k - before) : k + after + 1])
    n = len(w)
    return sum(1 for s in range(len(lines) - n + 1) if tuple(l.strip() for l in lines[s : s + n]) == w) == 1


def build_patches():
    out = []
    py = [p for p in FILES if SOURCES[p][0] == "python"]
    excerpts = []
    for p in py:
        lines = FILES[p]
        for s in range(100, len(lines) - 80, 45):
            w = lines[s : s + 60]
            if any('"""' in l or "'''" in l for l in w):
                continue
            excerpts.append((p, s, w))
    rng.shuffle(excerpts)
    it = iter(excerpts)

    def next_excerpt(need=lambda w: True):
        for p, s, w in it:
            if need(w):
                return p, s, w
        raise SystemExit("ran out of excerpts")

    def points(w, lo=4, hi=None, need=lambda w, k: True):
        hi = hi or len(w) - 5
        return [k for k in range(lo, hi) if changeable(w, k) and unique_window(w, k) and need(w, k)]

    body = lambda w: "\n".join(w) + "\n"
    src = lambda p, s: "%s:%d" % (p, s + 1)

    # Several chunks in one file, exact or with trailing whitespace the file lacks.
    for i in range(8):
        p, s, w = next_excerpt()
        ks = points(w)
        if len(ks) < 3:
            continue
        chosen = sorted(rng.sample([k for k in ks], 3))
        if chosen[1] - chosen[0] < 8 or chosen[2] - chosen[1] < 8:
            chosen = [chosen[0], chosen[2]] if chosen[2] - chosen[0] >= 8 else [chosen[0]] if False else chosen[:1] + [k for k in ks if k - chosen[0] >= 8][:1]
        if len(chosen) < 2:
            continue
        ctx = (lambda i, t: t + " ") if i % 2 else None
        tag = "patched p-multi-%02d" % (len(out) + 1)
        chunks = [("", hunk(w, k, tag, ctx=ctx)) for k in chosen]
        out.append(pcase("multi_hunk", "p-multi-%02d" % (len(out) + 1), src(p, s), {"src/mod.py": body(w)},
                         patch_text([update("src/mod.py", chunks)]), {"src/mod.py": body(changed(w, chosen, tag))},
                         "%d chunks%s" % (len(chosen), ", context with trailing spaces" if i % 2 else "")))

    # Moved files: the update and the move together.
    for i in range(5):
        p, s, w = next_excerpt()
        ks = points(w)
        if not ks:
            continue
        k = ks[0]
        cid = "p-move-%02d" % (i + 1)
        tag = "patched " + cid
        expected = {"src/old.py": None, "lib/new.py": body(changed(w, [k], tag))}
        ops = [update("src/old.py", [("", hunk(w, k, tag))], "lib/new.py")]
        if i % 2:
            ops.append("*** Add File: lib/extra.py\n+# added\n")
            expected["lib/extra.py"] = "# added\n"
        out.append(pcase("moved_file", cid, src(p, s), {"src/old.py": body(w)}, patch_text(ops), expected,
                         "update and move" + (" with an added file" if i % 2 else "")))

    # Blank lines: the context leaves out a blank line the file has, or adds one.
    made = 0
    while made < 6:
        p, s, w = next_excerpt(lambda w: sum(1 for l in w if blank(l)) >= 3)
        ks = points(w, need=lambda w, k: any(blank(w[j]) for j in range(k - 3, k)) or any(blank(w[j]) for j in range(k + 1, k + 4)))
        if not ks:
            continue
        k = ks[0]
        cid = "p-blank-%02d" % (made + 1)
        tag = "patched " + cid
        lines = hunk(w, k, tag, before=4, after=4)
        if made % 2 == 0:
            # Drop the first blank context line.
            idx = next((j for j, l in enumerate(lines) if l.strip() == ""), None)
            if idx is None or idx == 0 or idx == len(lines) - 1:
                continue
            del lines[idx]
            what = "a blank context line left out"
        else:
            idx = next((j for j in range(1, len(lines) - 1) if lines[j].startswith(" ") and lines[j].strip() and lines[j + 1].startswith(" ") and lines[j + 1].strip()), None)
            if idx is None:
                continue
            lines.insert(idx + 1, " ")
            what = "a blank context line added"
        out.append(pcase("blank_lines", cid, src(p, s), {"src/mod.py": body(w)}, patch_text([update("src/mod.py", [("", lines)])]),
                         {"src/mod.py": body(changed(w, [k], tag))}, what))
        made += 1

    # Inner whitespace: runs inside a context line written as one space, a tab inside a line as spaces.
    made = 0
    while made < 6:
        p, s, w = next_excerpt(lambda w: any(re.search(r"\S(  +)\S", l) for l in w))
        runs = [j for j, l in enumerate(w) if re.search(r"\S(  +)\S", l)]
        ks = points(w, need=lambda w, k: any(0 < abs(j - k) <= 3 for j in runs))
        if not ks:
            continue
        k = ks[0]
        cid = "p-space-%02d" % (made + 1)
        tag = "patched " + cid
        file_lines = list(w)
        if made % 2:
            # The file has a tab inside the line where the patch writes spaces.
            for j in runs:
                file_lines[j] = re.sub(r"(\S)(  +)(\S)", "\\1\t\\3", file_lines[j], 1)
            ctx = lambda i, t: re.sub(r"(\S)\t(\S)", "\\1    \\2", t)
            what = "a tab inside a line written as spaces"
        else:
            ctx = lambda i, t: re.sub(r"(\S)  +(\S)", "\\1 \\2", t)
            what = "a run of spaces inside a line written as one"
        lines = hunk(file_lines, k, tag, ctx=ctx)
        if all(l[1:] == file_lines[max(0, k - 3) + j] for j, l in enumerate(lines) if l.startswith(" ")):
            continue
        out.append(pcase("inner_space", cid, src(p, s), {"src/mod.py": body(file_lines)},
                         patch_text([update("src/mod.py", [("", lines)])]), {"src/mod.py": body(changed(file_lines, [k], tag))}, what))
        made += 1

    # Typographic: the file has curly quotes or a dash where the patch writes ASCII, or the reverse.
    made = 0
    while made < 6:
        p, s, w = next_excerpt(lambda w: sum(1 for l in w if STRING.search(l)) >= 2)
        quoted = [j for j, l in enumerate(w) if STRING.search(l) and "#" not in l]
        ks = points(w, need=lambda w, k: any(0 < abs(j - k) <= 3 for j in quoted))
        if not ks:
            continue
        k = ks[0]
        j = next(j for j in quoted if 0 < abs(j - k) <= 3)
        cid = "p-typo-%02d" % (made + 1)
        tag = "patched " + cid
        file_lines = list(w)
        if made % 2 == 0:
            file_lines[j] = curly(w[j])
            ctx = lambda i, t: ascii_of(t)
            what = "the file has curly quotes, the patch straight ones"
        else:
            ctx = lambda i, t: curly(t) if i == j else t
            what = "the patch has curly quotes, the file straight ones"
        lines = hunk(file_lines, k, tag, ctx=ctx)
        out.append(pcase("typographic", cid, src(p, s), {"src/mod.py": body(file_lines)},
                         patch_text([update("src/mod.py", [("", lines)])]), {"src/mod.py": body(changed(file_lines, [k], tag))}, what))
        made += 1

    # Anchors: the chunk's lines occur before the anchored function, inside it and after it.
    made = 0
    for p in py:
        if made >= 6:
            break
        source = FILES[p]
        for d in range(60, len(source) - 40, 37):
            if made >= 6:
                break
            m = re.match(r"^(    )?def (\w+)\(", source[d])
            if not m:
                continue
            ind = m.group(1) or ""
            end = d + 1
            while end < len(source) and (blank(source[end]) or len(indent(source[end])) > len(ind)):
                end += 1
            fn = source[d:end]
            while fn and blank(fn[-1]):
                fn.pop()
            if len(fn) < 8 or len(fn) > 40 or any('"""' in l or "'''" in l for l in fn):
                continue
            ks = [k for k in range(4, len(fn) - 4) if changeable(fn, k)]
            if not ks:
                continue
            k = ks[0]
            name = m.group(2)
            before = [fn[0].replace("def " + name + "(", "def " + name + "_before(")] + fn[1:]
            after = [fn[0].replace("def " + name + "(", "def " + name + "_after(")] + fn[1:]
            cid = "p-anchor-%02d" % (made + 1)
            tag = "patched " + cid
            file_lines = before + [""] + fn + [""] + after
            target = len(before) + 1 + k
            anchor = fn[0].strip()
            lines = hunk(fn, k, tag)
            out.append(pcase("anchor", cid, "%s:%d" % (p, d + 1), {"src/mod.py": body(file_lines)},
                             patch_text([update("src/mod.py", [(anchor, lines)])]), {"src/mod.py": body(changed(file_lines, [target], tag))},
                             "'@@ def' anchor; the chunk's lines also occur before and after the function"))
            made += 1

    # Decoys: the chunk's lines twice; identical copies must be refused, a copy that only a
    # tolerant pass would match leaves the exact one to win.
    made = 0
    while made < 6:
        p, s, w = next_excerpt()
        ks = points(w, lo=4, hi=24)
        if not ks:
            continue
        k = ks[0]
        cid = "p-decoy-%02d" % (made + 1)
        tag = "patched " + cid
        region = w[k - 3 : k + 4]
        if made % 2 == 0:
            file_lines = w + [""] + region
            expected = None
            what = "the chunk's lines occur twice, without an anchor"
            lines = hunk(w, k, tag)
        else:
            loose = [l + "   " if j == 0 else l for j, l in enumerate(region)]
            file_lines = w[: k - 3] + loose + w[k + 4 :] + [""] + region
            target = len(w) + 1 + 3
            expected = {"src/mod.py": body(changed(file_lines, [target], tag))}
            what = "the chunk's lines twice, one copy with trailing spaces: the exact copy wins"
            lines = hunk(w, k, tag)
        out.append(pcase("decoy", cid, src(p, s), {"src/mod.py": body(file_lines)}, patch_text([update("src/mod.py", [("", lines)])]),
                         expected, what, True))
        made += 1
    return out


def main():
    edit_dir = os.path.join(HERE, "edit")
    patch_dir = os.path.join(HERE, "patch")
    os.makedirs(edit_dir, exist_ok=True)
    os.makedirs(patch_dir, exist_ok=True)
    kinds = [("blank_lines", build_blank_lines), ("indent_scale", build_indent_scale), ("indent_lost", build_indent_lost),
             ("fragment", build_fragment), ("typographic", build_typographic), ("middle_line", build_middle),
             ("letter_case", build_case)]
    total = 0
    for name, build in kinds:
        cases = build(14, 8)
        total += len(cases)
        with open(os.path.join(edit_dir, name + ".json"), "w") as f:
            json.dump(cases, f, indent=1)
            f.write("\n")
    patches = build_patches()
    with open(os.path.join(patch_dir, "patch_cases.json"), "w") as f:
        json.dump(patches, f, indent=1)
        f.write("\n")
    print("%d edit cases, %d patch cases" % (total, len(patches)))


if __name__ == "__main__":
    main()
