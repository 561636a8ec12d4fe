"""The "language" the fake language server understands: a tiny Python-like text in which `class X`
and `def y` lines declare symbols (nested by indentation), identifiers are [A-Za-z0-9_] runs, and a
line holding `ERROR:` or `WARN:` carries a diagnostic. Pure functions over a document's text; the
server (fake_lsp_server.py) does the talking.

Positions are LSP's: 0-based lines, columns in UTF-16 code units. Every function takes whatever a
peer sent and returns None (or an empty list) for what it cannot use, never raising.
"""
import re

WORD_CHARS = re.compile(r"[A-Za-z0-9_]")
DECLARATION = re.compile(r"^(\s*)(class|def)\s+([A-Za-z_][A-Za-z0-9_]*)")
KIND_CLASS, KIND_METHOD, KIND_FUNCTION = 5, 6, 12


def utf16_length(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def index_from_utf16(line, column):
    """The index into `line` (code points) of a UTF-16 column, clamped to the line."""
    units = 0
    for index, char in enumerate(line):
        if units >= column:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def position(line_number, line, index):
    return {"line": line_number, "character": utf16_length(line[:index])}


def span(line_number, line, start, end):
    return {"start": position(line_number, line, start), "end": position(line_number, line, end)}


def lines_of(text):
    return text.split("\n") if isinstance(text, str) else []


def apply_change(text, change):
    """A didChange content change applied to `text`: a full replacement, or a ranged edit."""
    if not isinstance(change, dict) or not isinstance(change.get("text"), str):
        return text
    edit_range = change.get("range")
    if not isinstance(edit_range, dict):
        return change["text"]
    try:
        lines = lines_of(text)
        offsets, total = [], 0
        for line in lines:
            offsets.append(total)
            total += len(line) + 1

        def offset(pos):
            number = min(max(int(pos["line"]), 0), len(lines) - 1)
            return offsets[number] + index_from_utf16(lines[number], int(pos["character"]))

        start, end = offset(edit_range["start"]), offset(edit_range["end"])
        return text[:start] + change["text"] + text[max(start, end):]
    except (KeyError, TypeError, ValueError):
        return text


def diagnostics(text):
    """One diagnostic per `ERROR:` (severity 1) and per `WARN:` (severity 2) in the text."""
    found = []
    for number, line in enumerate(lines_of(text)):
        for marker, severity in (("ERROR:", 1), ("WARN:", 2)):
            column = line.find(marker)
            if column < 0:
                continue
            found.append({"range": span(number, line, column, len(line)), "severity": severity,
                          "source": "fake", "message": line[column + len(marker):].strip()})
    return found


def word_at(text, pos):
    """(line number, start index, end index, word) of the identifier at an LSP position, or None.
    A position just after a word counts as on it, as editors place the caret there."""
    try:
        number, column = int(pos["line"]), int(pos["character"])
    except (KeyError, TypeError, ValueError):
        return None
    lines = lines_of(text)
    if number < 0 or number >= len(lines) or column < 0:
        return None
    line = lines[number]
    index = index_from_utf16(line, column)
    if index >= len(line) or not WORD_CHARS.match(line[index]):
        if index == 0 or not WORD_CHARS.match(line[index - 1]):
            return None
        index -= 1
    start, end = index, index + 1
    while start > 0 and WORD_CHARS.match(line[start - 1]):
        start -= 1
    while end < len(line) and WORD_CHARS.match(line[end]):
        end += 1
    return number, start, end, line[start:end]


def occurrences(text, word):
    """Every whole-word occurrence of `word`, as (line number, line, start, end)."""
    pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])")
    for number, line in enumerate(lines_of(text)):
        for match in pattern.finditer(line):
            yield number, line, match.start(), match.end()


def definition(uri, text, pos):
    """The Location of the first `def <word>` line for the word at `pos`, or None."""
    found = word_at(text, pos)
    if found is None:
        return None
    word = found[3]
    pattern = re.compile(r"\bdef\s+(" + re.escape(word) + r")(?![A-Za-z0-9_])")
    for number, line in enumerate(lines_of(text)):
        match = pattern.search(line)
        if match:
            return {"uri": uri, "range": span(number, line, match.start(1), match.end(1))}
    return None


def references(uri, text, pos):
    found = word_at(text, pos)
    if found is None:
        return []
    return [{"uri": uri, "range": span(number, line, start, end)}
            for number, line, start, end in occurrences(text, found[3])]


def hover(text, pos):
    found = word_at(text, pos)
    if found is None:
        return None
    number, start, end, word = found
    line = lines_of(text)[number]
    return {"contents": {"kind": "markdown", "value": "```\n" + word + "\n```\nfake hover"},
            "range": span(number, line, start, end)}


def indentation(line):
    return len(line) - len(line.lstrip())


def document_symbols(text):
    """Hierarchical DocumentSymbols: `class X` (Class) holding `def y` (Method) by indentation; a
    `def` outside any class is a Function. A symbol ends at its last line indented deeper than it."""
    lines = lines_of(text)
    roots, stack = [], []  # stack: (indentation, symbol)
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        indent = len(match.group(1))
        last = number
        for later in range(number + 1, len(lines)):
            if lines[later].strip():
                if indentation(lines[later]) <= indent:
                    break
                last = later
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else None
        kind = KIND_CLASS if match.group(2) == "class" else (
            KIND_METHOD if parent is not None and parent["kind"] == KIND_CLASS else KIND_FUNCTION)
        symbol = {"name": match.group(3), "kind": kind,
                  "range": {"start": {"line": number, "character": 0},
                            "end": {"line": last, "character": utf16_length(lines[last])}},
                  "selectionRange": span(number, line, match.start(3), match.end(3)), "children": []}
        if kind == KIND_METHOD:
            symbol["detail"] = "(self)"
        (parent["children"] if parent is not None else roots).append(symbol)
        stack.append((indent, symbol))
    return roots


def flattened(symbols, container=None):
    for symbol in symbols:
        yield symbol, container
        yield from flattened(symbol["children"], symbol["name"])


def workspace_symbols(documents, query):
    """SymbolInformation for every symbol of the open documents whose name holds the query."""
    query = query.lower() if isinstance(query, str) else ""
    found = []
    for uri in sorted(documents):
        for symbol, container in flattened(document_symbols(documents[uri]["text"])):
            if query in symbol["name"].lower():
                information = {"name": symbol["name"], "kind": symbol["kind"],
                               "location": {"uri": uri, "range": symbol["selectionRange"]}}
                if container:
                    information["containerName"] = container
                found.append(information)
    return found


def call_hierarchy_item(uri, text, pos):
    found = word_at(text, pos)
    if found is None:
        return None
    number, start, end, word = found
    line = lines_of(text)[number]
    return [{"name": word, "kind": KIND_FUNCTION, "detail": "fake detail", "uri": uri,
             "range": span(number, line, start, end), "selectionRange": span(number, line, start, end),
             "data": {"word": word}}]


def calls(item, direction):
    """One incoming or outgoing call for a CallHierarchyItem, in the item's own document: the caller
    (incoming) or callee (outgoing) is declared on line 0, and the call site is the item's range."""
    if not isinstance(item, dict) or not isinstance(item.get("uri"), str):
        return None
    name = item.get("name") if isinstance(item.get("name"), str) else "unknown"
    site = item.get("selectionRange") or item.get("range") or {
        "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    other = {"name": ("caller_of_" if direction == "incoming" else "callee_of_") + name,
             "kind": KIND_FUNCTION, "uri": item["uri"],
             "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
             "selectionRange": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
    return [{"from" if direction == "incoming" else "to": other, "fromRanges": [site]}]
