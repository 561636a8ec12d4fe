#include "builtins/patch/patch_parser.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::builtins::parsePatch;
using toold::builtins::ParsedPatch;
using toold::builtins::PatchChunk;
using toold::builtins::PatchFileOp;
using toold::builtins::PatchParseError;
using Lines = std::vector<std::string>;

namespace {

ParsedPatch parseOk(const std::string& text) {
  auto result = parsePatch(text);
  if (const auto* error = std::get_if<PatchParseError>(&result)) FAIL("unexpected error: " << error->message);
  return std::get<ParsedPatch>(result);
}

PatchParseError parseError(const std::string& text) {
  auto result = parsePatch(text);
  REQUIRE(std::holds_alternative<PatchParseError>(result));
  return std::get<PatchParseError>(result);
}

const std::string kSimple = "*** Begin Patch\n"
                            "*** Add File: a.txt\n"
                            "+hello\n"
                            "*** End Patch\n";

void checkSimple(const ParsedPatch& patch) {
  REQUIRE(patch.operations.size() == 1);
  CHECK(patch.operations[0].kind == PatchFileOp::Kind::Add);
  CHECK(patch.operations[0].path == "a.txt");
  CHECK(patch.operations[0].contents == "hello\n");
}

} // namespace

TEST_CASE("patch parser: every operation and marker", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"              // 1
                             "*** Add File: new/file.txt\n"   // 2
                             "+first\n"                       // 3
                             "+second\n"                      // 4
                             "*** Delete File: old.txt\n"     // 5
                             "*** Update File: src/a.py\n"    // 6
                             "*** Move to: src/b.py\n"        // 7
                             "@@ class A\n"                   // 8
                             " def f():\n"                    // 9
                             "-    return 1\n"                // 10
                             "+    return 2\n"                // 11
                             "@@\n"                           // 12
                             " tail\n"                        // 13
                             "+added\n"                       // 14
                             "*** End of File\n"              // 15
                             "*** End Patch");                // 16
  REQUIRE(patch.operations.size() == 3);

  const auto& add = patch.operations[0];
  CHECK(add.kind == PatchFileOp::Kind::Add);
  CHECK(add.path == "new/file.txt");
  CHECK(add.contents == "first\nsecond\n");
  CHECK_FALSE(add.movePath.has_value());
  CHECK(add.chunks.empty());
  CHECK(add.line == 2);

  const auto& del = patch.operations[1];
  CHECK(del.kind == PatchFileOp::Kind::Delete);
  CHECK(del.path == "old.txt");
  CHECK(del.contents.empty());
  CHECK(del.line == 5);

  const auto& update = patch.operations[2];
  CHECK(update.kind == PatchFileOp::Kind::Update);
  CHECK(update.path == "src/a.py");
  REQUIRE(update.movePath.has_value());
  CHECK(*update.movePath == "src/b.py");
  CHECK(update.line == 6);
  REQUIRE(update.chunks.size() == 2);
  CHECK(update.chunks[0].contexts == Lines{"class A"});
  CHECK(update.chunks[0].oldLines == Lines{"def f():", "    return 1"});
  CHECK(update.chunks[0].newLines == Lines{"def f():", "    return 2"});
  CHECK_FALSE(update.chunks[0].endOfFile);
  CHECK(update.chunks[0].line == 8);
  CHECK(update.chunks[1].contexts.empty());
  CHECK(update.chunks[1].oldLines == Lines{"tail"});
  CHECK(update.chunks[1].newLines == Lines{"tail", "added"});
  CHECK(update.chunks[1].endOfFile);
  CHECK(update.chunks[1].line == 12);
}

TEST_CASE("patch parser: heredoc wrappers are unwrapped", "[patch]") {
  checkSimple(parseOk("cat <<'EOF'\n" + kSimple + "EOF\n"));
  checkSimple(parseOk("<<EOF\n" + kSimple + "EOF"));
  checkSimple(parseOk("<<\"PATCH\"\n" + kSimple + "PATCH\n"));
  checkSimple(parseOk("cat <<-'EOF'\n" + kSimple + "\tEOF\n"));
  checkSimple(parseOk("apply_patch <<'EOF'\n" + kSimple + "EOF\n"));
  // Line numbers are those of the original text, the heredoc's first line included.
  CHECK(parseOk("\n\ncat <<'EOF'\n" + kSimple + "EOF\n").operations[0].line == 5);
  // A heredoc whose closing word is missing is not unwrapped: its opener is stray text.
  const auto error = parseError("cat <<'EOF'\n" + kSimple);
  CHECK(error.line == 1);
  CHECK(error.message == "line 1: unexpected text before '*** Begin Patch': 'cat <<'EOF''");
}

TEST_CASE("patch parser: CRLF line ends are read as LF", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\r\n"
                             "*** Update File: a.txt\r\n"
                             "@@ ctx\r\n"
                             " keep\r\n"
                             "-old\r\n"
                             "+new\r\n"
                             "*** Add File: b.txt\r\n"
                             "+x\r\n"
                             "*** End Patch\r\n");
  REQUIRE(patch.operations.size() == 2);
  CHECK(patch.operations[0].path == "a.txt");
  REQUIRE(patch.operations[0].chunks.size() == 1);
  CHECK(patch.operations[0].chunks[0].contexts == Lines{"ctx"});
  CHECK(patch.operations[0].chunks[0].oldLines == Lines{"keep", "old"});
  CHECK(patch.operations[0].chunks[0].newLines == Lines{"keep", "new"});
  CHECK(patch.operations[1].contents == "x\n");
}

TEST_CASE("patch parser: markers with whitespace or a trailing ***", "[patch]") {
  checkSimple(parseOk("*** Begin Patch ***\n*** Add File: a.txt\n+hello\n*** End Patch ***\n"));
  checkSimple(parseOk("\n\n   *** Begin Patch   \n\t*** Add File:   a.txt  \n+hello\n  *** End Patch\t\n\n  \n"));
  checkSimple(parseOk("*** Begin Patch\n***   Add   File:a.txt\n+hello\n*** End Patch"));
  // Header words are read without regard to case.
  checkSimple(parseOk("*** Begin Patch\n*** add file: a.txt\n+hello\n*** End Patch"));
  // Line numbers count the leading blank lines.
  CHECK(parseOk("\n\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch").operations[0].line == 4);
}

TEST_CASE("patch parser: Add keeps inner empty lines, not trailing ones", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Add File: a.txt\n"
                             "+one\n"
                             "\n"
                             "+\n"
                             "+three\n"
                             "\n"
                             "\n"
                             "*** Add File: empty.txt\n"
                             "*** End Patch\n");
  REQUIRE(patch.operations.size() == 2);
  CHECK(patch.operations[0].contents == "one\n\n\nthree\n");
  CHECK(patch.operations[1].path == "empty.txt");
  CHECK(patch.operations[1].contents.empty());
  CHECK(patch.operations[1].line == 9);
}

TEST_CASE("patch parser: Delete takes no lines", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n*** Delete File: a.txt\n\n*** Delete File: b.txt\n*** End Patch");
  REQUIRE(patch.operations.size() == 2);
  CHECK(patch.operations[0].kind == PatchFileOp::Kind::Delete);
  CHECK(patch.operations[0].path == "a.txt");
  CHECK(patch.operations[1].path == "b.txt");
  CHECK(patch.operations[1].line == 4);

  const auto error = parseError("*** Begin Patch\n*** Delete File: a.txt\n-gone\n*** End Patch");
  CHECK(error.line == 3);
  CHECK(error.message == "line 3: Delete File a.txt takes no lines, found '-gone'");
}

TEST_CASE("patch parser: Update with Move to", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Update File: old/name.txt\n"
                             "*** Move to:   new/name.txt  \n"
                             "@@\n"
                             "-a\n"
                             "+b\n"
                             "*** End Patch");
  REQUIRE(patch.operations.size() == 1);
  CHECK(patch.operations[0].path == "old/name.txt");
  CHECK(patch.operations[0].movePath == std::optional<std::string>("new/name.txt"));
  REQUIRE(patch.operations[0].chunks.size() == 1);
  CHECK(patch.operations[0].chunks[0].oldLines == Lines{"a"});
  CHECK(patch.operations[0].chunks[0].newLines == Lines{"b"});
  CHECK(patch.operations[0].chunks[0].line == 4);

  CHECK(parseError("*** Begin Patch\n*** Update File: a\n*** Move to:\n-a\n*** End Patch").message ==
        "line 3: '*** Move to:' needs a path");
  CHECK(parseError("*** Begin Patch\n*** Add File: a\n*** Move to: b\n*** End Patch").message ==
        "line 3: unknown header '*** Move to: b'; expected '*** Add File: <path>', '*** Delete File: <path>' or "
        "'*** Update File: <path>'");
}

TEST_CASE("patch parser: consecutive @@ lines accumulate contexts", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Update File: a.py\n"
                             "@@ class A\n"        // 3
                             "@@     def f():  \n" // 4
                             "-    return 1\n"
                             "+    return 2\n"
                             "@@ class B\n" // 7
                             "@@ def f():\n"
                             "-    return 3\n"
                             "+    return 4\n"
                             "*** End Patch");
  const auto& chunks = patch.operations.at(0).chunks;
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].contexts == Lines{"class A", "def f():"});
  CHECK(chunks[0].line == 3);
  CHECK(chunks[0].oldLines == Lines{"    return 1"});
  CHECK(chunks[1].contexts == Lines{"class B", "def f():"});
  CHECK(chunks[1].line == 7);
  CHECK(chunks[1].newLines == Lines{"    return 4"});
}

TEST_CASE("patch parser: a unified-diff range after @@ is not a context", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n*** Update File: a.py\n@@ -12,7 +12,8 @@ def f():\n-x\n+y\n"
                             "@@ -40 +41 @@\n-z\n*** End Patch");
  const auto& chunks = patch.operations.at(0).chunks;
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].contexts == Lines{"def f():"});
  CHECK(chunks[1].contexts.empty());
}

TEST_CASE("patch parser: the first chunk may omit @@", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Update File: a.txt\n"
                             " keep\n" // 3
                             "-old\n"
                             "+new\n"
                             "@@ later\n"
                             "+more\n"
                             "*** End Patch");
  const auto& chunks = patch.operations.at(0).chunks;
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].contexts.empty());
  CHECK(chunks[0].line == 3);
  CHECK(chunks[0].oldLines == Lines{"keep", "old"});
  CHECK(chunks[0].newLines == Lines{"keep", "new"});
  CHECK(chunks[1].contexts == Lines{"later"});
  CHECK(chunks[1].oldLines.empty());
  CHECK(chunks[1].newLines == Lines{"more"});
}

TEST_CASE("patch parser: an empty line in a chunk is an empty context line, unless trailing", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Update File: a.txt\n"
                             "@@\n"
                             " a\n"
                             "\n"
                             "-b\n"
                             "+c\n"
                             "\n"
                             "\n"
                             "@@\n"
                             "-d\n"
                             "\n"
                             "*** Update File: b.txt\n"
                             "@@\n"
                             "-e\n"
                             "\n"
                             "*** End Patch");
  REQUIRE(patch.operations.size() == 2);
  const auto& chunks = patch.operations[0].chunks;
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].oldLines == Lines{"a", "", "b"});
  CHECK(chunks[0].newLines == Lines{"a", "", "c"});
  CHECK(chunks[1].oldLines == Lines{"d"});
  CHECK(chunks[1].newLines.empty());
  REQUIRE(patch.operations[1].chunks.size() == 1);
  CHECK(patch.operations[1].chunks[0].oldLines == Lines{"e"});
  // A ' ' line is context even when it is only the marker.
  const auto spaced = parseOk("*** Begin Patch\n*** Update File: a\n-x\n \n*** End Patch");
  CHECK(spaced.operations.at(0).chunks.at(0).oldLines == Lines{"x", ""});
}

TEST_CASE("patch parser: End of File anchors the chunk and closes it", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n"
                             "*** Update File: a.txt\n"
                             "@@\n"
                             "-last\n"
                             "+final\n"
                             "*** End of File\n"
                             "*** End Patch");
  const auto& chunks = patch.operations.at(0).chunks;
  REQUIRE(chunks.size() == 1);
  CHECK(chunks[0].endOfFile);
  CHECK(chunks[0].oldLines == Lines{"last"});
  CHECK(chunks[0].newLines == Lines{"final"});
}

TEST_CASE("patch parser: missing or misplaced markers", "[patch]") {
  const std::string missing = "Invalid patch: missing '*** Begin Patch' or '*** End Patch' marker";
  auto error = parseError("*** Add File: a\n+x\n*** End Patch");
  CHECK(error.message == missing);
  CHECK(error.line == 0);
  error = parseError("*** Begin Patch\n*** Add File: a\n+x\n");
  CHECK(error.message == missing);
  CHECK(error.line == 0);
  error = parseError("");
  CHECK(error.message == missing);
  error = parseError("*** End Patch\n*** Begin Patch\n*** Add File: a\n+x");
  CHECK(error.line == 1);
  CHECK(error.message.rfind("line 1: " + missing, 0) == 0);
}

TEST_CASE("patch parser: stray text around the envelope", "[patch]") {
  auto error = parseError("Here is the patch:\n" + kSimple);
  CHECK(error.line == 1);
  CHECK(error.message == "line 1: unexpected text before '*** Begin Patch': 'Here is the patch:'");
  error = parseError(kSimple + "\nDone.\n");
  CHECK(error.line == 6);
  CHECK(error.message == "line 6: unexpected text after '*** End Patch': 'Done.'");
  // The End marker is the last one: an earlier one is inside the patch, where it is no header.
  error = parseError(kSimple + kSimple);
  CHECK(error.line == 4);
  CHECK(error.message.rfind("line 4: unknown header '*** End Patch'", 0) == 0);
}

TEST_CASE("patch parser: an envelope with nothing inside is an empty patch", "[patch]") {
  CHECK(parseError("*** Begin Patch\n*** End Patch").message == "empty patch");
  CHECK(parseError("*** Begin Patch\n\n   \n*** End Patch\n").message == "empty patch");
}

TEST_CASE("patch parser: unknown headers and stray lines name their line", "[patch]") {
  auto error = parseError("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch");
  CHECK(error.line == 2);
  CHECK(error.message == "line 2: unknown header '*** Frobnicate File: x'; expected '*** Add File: <path>', "
                         "'*** Delete File: <path>' or '*** Update File: <path>'");
  error = parseError("*** Begin Patch\n\nhello\n*** End Patch");
  CHECK(error.line == 3);
  CHECK(error.message == "line 3: expected a file header, found 'hello'");
  error = parseError("*** Begin Patch\n*** Add File: a.txt\n+ok\nnot added\n*** End Patch");
  CHECK(error.line == 4);
  CHECK(error.message == "line 4: every line of Add File a.txt must start with '+', found 'not added'");
  error = parseError("*** Begin Patch\n*** Add File:   \n+x\n*** End Patch");
  CHECK(error.line == 2);
  CHECK(error.message == "line 2: '*** Add File:' needs a path");
}

TEST_CASE("patch parser: an Update without changes is an error", "[patch]") {
  auto error = parseError("*** Begin Patch\n*** Update File: a.txt\n*** End Patch");
  CHECK(error.line == 2);
  CHECK(error.message == "line 2: Update File a.txt has no changes");
  error = parseError("*** Begin Patch\n*** Add File: b\n+x\n*** Update File: a.txt\n@@ ctx\n\n@@ more\n"
                     "*** Delete File: c\n*** End Patch");
  CHECK(error.line == 4);
  CHECK(error.message == "line 4: Update File a.txt has no changes");
}

TEST_CASE("patch parser: an unexpected line in a chunk", "[patch]") {
  const auto error = parseError("*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\nstray text\n*** End Patch");
  CHECK(error.line == 6);
  CHECK(error.message ==
        "line 6: unexpected line in the chunk of a.txt: 'stray text' (chunk lines start with ' ', '-' or '+')");
}

TEST_CASE("patch parser: each new line says which old line it is the context of", "[patch]") {
  const auto patch = parseOk("*** Begin Patch\n*** Update File: a\n@@\n keep\n-gone\n+added\n\n tail\n*** End Patch\n");
  REQUIRE(patch.operations.size() == 1);
  REQUIRE(patch.operations[0].chunks.size() == 1);
  const auto& chunk = patch.operations[0].chunks[0];
  CHECK(chunk.oldLines == Lines{"keep", "gone", "", "tail"});
  CHECK(chunk.newLines == Lines{"keep", "added", "", "tail"});
  CHECK(chunk.contextOf == std::vector<int>{0, -1, 2, 3});
}
