// The fixture format: directives, steps, continuation lines, and errors with line numbers.
#include "fixture_parser.h"

#include <catch2/catch.hpp>

#include <csignal>

using namespace toold::fixture;
using nlohmann::json;

namespace {

Fixture parse(const std::string& text) { return parseFixture(text, "t.fixture"); }

std::string errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const FixtureError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("directives set up the run", "[parser]") {
  auto f = parse(R"(# a comment
%args --test-methods   --framing=lsp
%args --log-file=${data}/log
%framing lsp
%modes pipe
%exit 1
%timeout 2.5
%stderr exiting \(exit\)
%file sub/dir/a.txt <<EOF
line one
  indented # not a comment
EOF
%file empty <<END
END
)");
  CHECK(f.args == std::vector<std::string>{"--test-methods", "--framing=lsp", "--log-file=${data}/log"});
  CHECK(f.framing == toold::protocol::Framing::ContentLength);
  CHECK(f.pipeMode);
  CHECK_FALSE(f.fileMode);
  CHECK(f.exitStatus == 1);
  CHECK(f.timeout == std::chrono::milliseconds(2500));
  REQUIRE(f.stderrExpectations.size() == 1);
  CHECK(f.stderrExpectations[0].regex == "exiting \\(exit\\)");
  CHECK(f.stderrExpectations[0].line == 8);
  REQUIRE(f.files.size() == 2);
  CHECK(f.files[0].path == "sub/dir/a.txt");
  CHECK(f.files[0].content == "line one\n  indented # not a comment\n");
  CHECK(f.files[1].content.empty());
  CHECK(f.steps.empty());
}

TEST_CASE("%file and %symlink paths: the workspace, or the directory their prefix names", "[parser]") {
  auto f = parse(R"(%file a.txt <<EOF
EOF
%symlink sub/link  ${outside}/no such  file
%file ${outside}/home/.config <<EOF
EOF
%symlink ${data}/loop ${data}/loop
%file ${workspace}/b.txt <<EOF
EOF
%symlink up ../..
)");
  REQUIRE(f.files.size() == 3);
  CHECK(f.files[0].area == ScratchArea::Workspace);
  CHECK(f.files[0].path == "a.txt");
  CHECK(f.files[1].area == ScratchArea::Outside);
  CHECK(f.files[1].path == "home/.config");
  CHECK(f.files[2].area == ScratchArea::Workspace);
  CHECK(f.files[2].path == "b.txt");
  REQUIRE(f.symlinks.size() == 3);
  CHECK(f.symlinks[0].area == ScratchArea::Workspace);
  CHECK(f.symlinks[0].path == "sub/link");
  CHECK(f.symlinks[0].target == "${outside}/no such  file");
  CHECK(f.symlinks[0].line == 3);
  CHECK(f.symlinks[1].area == ScratchArea::Data);
  CHECK(f.symlinks[1].path == "loop");
  CHECK(f.symlinks[1].target == "${data}/loop");
  // The target is taken literally: it may leave every scratch directory.
  CHECK(f.symlinks[2].target == "../..");
}

TEST_CASE("%env sets variables of toold's environment, in order", "[parser]") {
  auto f = parse(R"(%env HOME=${outside}
%env EMPTY=
%env TEXT=a b=c ${data}/x
%env HOME=${workspace}
)");
  REQUIRE(f.environment.size() == 4);
  CHECK(f.environment[0].name == "HOME");
  CHECK(f.environment[0].value == "${outside}");
  CHECK(f.environment[1].name == "EMPTY");
  CHECK(f.environment[1].value.empty());
  CHECK(f.environment[2].value == "a b=c ${data}/x");
  CHECK(f.environment[3].value == "${workspace}");
}

TEST_CASE("defaults", "[parser]") {
  auto f = parse("> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
  CHECK(f.framing == toold::protocol::Framing::Ndjson);
  CHECK(f.pipeMode);
  CHECK(f.fileMode);
  CHECK(f.exitStatus == 0);
  CHECK(f.timeout == std::chrono::seconds(10));
  CHECK_FALSE(f.sendsUseCaptures);
  CHECK_FALSE(f.restartsToold);
  CHECK(f.environment.empty());
  CHECK(f.symlinks.empty());
}

TEST_CASE("steps, with JSON continued on indented lines", "[parser]") {
  auto f = parse(R"(> {"jsonrpc": "2.0", "id": 1,
    "method": "ping"}
>raw "{\"a\":\r\n"
wait 20

< {"id": 1,
   # comments may sit inside
   "result": {}}
<* {"id": 2}
# a comment does not end a group
<* {"id": 3}
< {"id": 4}
close
< {"id": 5}
)");
  REQUIRE(f.steps.size() == 8);
  CHECK(f.steps[0].kind == Step::Kind::Send);
  CHECK(f.steps[0].message == json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"));
  CHECK(f.steps[0].line == 1);
  CHECK(f.steps[1].kind == Step::Kind::SendRaw);
  CHECK(f.steps[1].bytes == "{\"a\":\r\n");
  CHECK(f.steps[2].kind == Step::Kind::Wait);
  CHECK(f.steps[2].wait == std::chrono::milliseconds(20));
  CHECK(f.steps[3].kind == Step::Kind::Expect);
  CHECK_FALSE(f.steps[3].unordered);
  CHECK(f.steps[3].line == 6);
  CHECK(f.steps[3].patterns[0].value == json::parse(R"({"id":1,"result":{}})"));
  CHECK(f.steps[4].unordered);
  REQUIRE(f.steps[4].patterns.size() == 2);
  CHECK(f.steps[4].patterns[1].line == 11);
  CHECK(f.steps[5].patterns.size() == 1);
  CHECK(f.steps[6].kind == Step::Kind::Close);
  CHECK(f.steps[7].patterns[0].line == 14);
}

TEST_CASE("any JSON value can be sent", "[parser]") {
  auto f = parse("> 42\n> \"text\"\n> null\n> []\n");
  REQUIRE(f.steps.size() == 4);
  CHECK(f.steps[0].message == 42);
  CHECK(f.steps[2].message.is_null());
  CHECK(f.steps[3].message == json::array());
}

TEST_CASE("sends that use captures are marked for pipe mode only", "[parser]") {
  auto f = parse(R"(> {"dir": "${workspace}", "d": "${data}", "o": "${outside}/x"})");
  CHECK_FALSE(f.sendsUseCaptures);
  f = parse(R"(< {"id": "$capture:ask"}
> {"jsonrpc": "2.0", "id": "${ask}", "result": {}}
)");
  CHECK(f.sendsUseCaptures);
}

TEST_CASE("a signal step names the signal and keeps the fixture out of file mode", "[parser]") {
  auto f = parse("> 1\nsignal TERM\n");
  REQUIRE(f.steps.size() == 2);
  CHECK(f.steps[1].kind == Step::Kind::Signal);
  CHECK(f.steps[1].signal == SIGTERM);
  CHECK(f.sendsSignals);
  CHECK_FALSE(parse("> 1\n").sendsSignals);
}

TEST_CASE("a restart step keeps the fixture out of file mode and reopens toold's input", "[parser]") {
  auto f = parse("> 1\nclose\nrestart\n> 2\n");
  REQUIRE(f.steps.size() == 4);
  CHECK(f.steps[2].kind == Step::Kind::Restart);
  CHECK(f.steps[2].line == 3);
  CHECK(f.restartsToold);
}

TEST_CASE("malformed fixtures are reported with file and line", "[parser]") {
  CHECK(errorOf("\n\n> {\"a\": }\n") ==
        "t.fixture:3: invalid JSON: parse error at line 1, column 9: syntax error while "
        "parsing value - unexpected '}'; expected '[', '{', or a literal (line 1 "
        "is this one)");
  CHECK(errorOf("> \n") == "t.fixture:1: expected JSON after the '>' or '<'");
  // A number beyond double range is nlohmann's out_of_range, not a parse_error: still reported.
  CHECK_THAT(errorOf("> [1e999]\n"), Catch::StartsWith("t.fixture:1: invalid JSON: number overflow"));
  CHECK(errorOf("%nope x\n") == "t.fixture:1: unknown directive '%nope' (known: %args, %env, %framing, %modes, "
                                "%exit, %timeout, %file, %symlink, %skip, %stderr)");
  CHECK(errorOf("> 1\n%args x\n") == "t.fixture:2: directives ('%...') must come before the conversation (the first "
                                     "'>', '<', 'wait' or 'close')");
  CHECK(errorOf("%framing json\n") == "t.fixture:1: %framing takes one of: ndjson, lsp");
  CHECK(errorOf("%modes pipe tube\n") == "t.fixture:1: %modes: unknown mode 'tube' (known: pipe, file)");
  CHECK(errorOf("%exit -1\n") == "t.fixture:1: %exit takes an exit status from 0 to 255");
  CHECK(errorOf("%timeout 0\n") == "t.fixture:1: %timeout takes a number of seconds (0 < S <= 3600)");
  CHECK(errorOf("%file a.txt <<EOF\nbody\n") == "t.fixture:1: %file: no line 'EOF' ends the here-document");
  CHECK(errorOf("%file /etc/x <<EOF\nEOF\n") ==
        "t.fixture:1: %file: the path must be relative to the workspace, or start with ${data}/ or ${outside}/");
  CHECK(errorOf("%file ${outside}//etc/x <<EOF\nEOF\n") ==
        "t.fixture:1: %file: the path must be relative to the workspace, or start with ${data}/ or ${outside}/");
  CHECK(errorOf("%file ${data}/a/../../x <<EOF\nEOF\n") ==
        "t.fixture:1: %file: the path must stay inside ${data} (no '..')");
  CHECK(errorOf("%file ${outside}/ <<EOF\nEOF\n") == "t.fixture:1: %file: the path names no file inside ${outside}");
  CHECK(errorOf("%symlink link\n") ==
        "t.fixture:1: %symlink takes a path and the link's target: %symlink link ${outside}/secret");
  CHECK(errorOf("%symlink /tmp/link x\n") ==
        "t.fixture:1: %symlink: the path must be relative to the workspace, or start with ${data}/ or ${outside}/");
  CHECK(errorOf("%symlink ../link x\n") == "t.fixture:1: %symlink: the path must stay inside the workspace (no '..')");
  CHECK(errorOf("%symlink ${outside}/ x\n") == "t.fixture:1: %symlink: the path names no file inside ${outside}");
  CHECK(errorOf("%env HOME\n") == "t.fixture:1: %env takes a variable name, '=' and the value: %env HOME=${outside}");
  CHECK(errorOf("%env =x\n") == "t.fixture:1: %env takes a variable name, '=' and the value: %env HOME=${outside}");
  CHECK(errorOf("%env 1X=y\n") == "t.fixture:1: %env takes a variable name, '=' and the value: %env HOME=${outside}");
  CHECK(errorOf("%env HOME=${home}\n") ==
        "t.fixture:1: %env: ${home} is not known before toold starts (only ${workspace}, ${data} and ${outside} are)");
  CHECK(errorOf("%args --log=${logs}/x\n") ==
        "t.fixture:1: %args: ${logs} is not known before toold starts (only ${workspace}, ${data} and ${outside} are)");
  CHECK(errorOf("%file a/../../x <<EOF\nEOF\n") ==
        "t.fixture:1: %file: the path must stay inside the workspace (no '..')");
  CHECK(errorOf("%stderr (\n") == "t.fixture:1: %stderr: invalid regular expression /(/ at offset 1: missing closing "
                                  "parenthesis");
  CHECK(errorOf("wait soon\n") == "t.fixture:1: wait takes a number of milliseconds: wait 20");
  CHECK(errorOf("close\nclose\n") == "t.fixture:2: toold's input is already closed");
  CHECK(errorOf("close\n> 1\n") == "t.fixture:2: a send after 'close': toold's input is already closed");
  CHECK(errorOf("sned {}\n") == "t.fixture:1: unknown step 'sned' (expected '> JSON', '>raw \"...\"', '< PATTERN', "
                                "'<* PATTERN', 'wait MS', 'within MS', 'close', 'signal NAME', 'restart', "
                                "'put PATH \"...\"', "
                                     "'check PATH ...' or a %directive)");
  CHECK(errorOf("restart now\n") == "t.fixture:1: restart takes no arguments");
  CHECK(errorOf("within 0\n") == "t.fixture:1: within takes a number of milliseconds above 0: within 50");
  CHECK(errorOf("within 50\n> 1\n") == "t.fixture:1: within must be followed by an expectation ('<' or '<*')");
  CHECK(errorOf("> 1\nwithin 50\n") == "t.fixture:2: within must be followed by an expectation ('<' or '<*')");
  CHECK(errorOf("signal STOP\n") == "t.fixture:1: signal takes one of TERM, INT, HUP, KILL: signal TERM");
  CHECK(errorOf("  {\"orphan\": 1}\n") == "t.fixture:1: an indented line must continue the JSON of a '>' or '<' line");
  CHECK(errorOf(">raw \"a\\qb\"\n") ==
        "t.fixture:1: >raw, column 8: unknown escape \\q (known: \\r \\n \\t \\\\ \\\" \\xHH)");
  CHECK(errorOf(">raw \"\"\n") == "t.fixture:1: >raw needs at least one byte");
  CHECK(errorOf("> {\"id\": \"${ask}\"}\n") == "t.fixture:1: ${ask} is used before any pattern captures it");
  CHECK(errorOf("< {\"id\": \"${ask}\"}\n") == "t.fixture:1: ${ask} is used before any pattern captures it");
  CHECK(errorOf("\n< {\"error\": {\"message\": \"$re:(\"}}\n") ==
        "t.fixture:2: at error.message: invalid regular expression /(/ at offset 1: missing closing parenthesis");
  CHECK(errorOf("< [\"$absent\"]\n") ==
        "t.fixture:1: at [0]: \"$absent\" is only meaningful as the value of an object member");
}

TEST_CASE("a missing file is a fixture error", "[parser]") {
  CHECK_THROWS_WITH(loadFixture("/nonexistent/x.fixture"), "/nonexistent/x.fixture: cannot read the file");
}

TEST_CASE("put and check steps name a scratch file and what it holds", "[parser]") {
  auto f = parse(R"(put src/a.txt "one\r\ntwo\x00"
check ${outside}/b.txt "x\n"
check gone.txt absent
check run.sh mode 0755
)");
  REQUIRE(f.steps.size() == 4);
  CHECK(f.steps[0].kind == Step::Kind::Put);
  CHECK(f.steps[0].area == static_cast<int>(ScratchArea::Workspace));
  CHECK(f.steps[0].path == "src/a.txt");
  CHECK(f.steps[0].bytes == std::string("one\r\ntwo\0", 9));
  CHECK(f.steps[1].kind == Step::Kind::Check);
  CHECK(f.steps[1].area == static_cast<int>(ScratchArea::Outside));
  CHECK(f.steps[1].check == Step::CheckWhat::Bytes);
  CHECK(f.steps[1].bytes == "x\n");
  CHECK(f.steps[2].check == Step::CheckWhat::Absent);
  CHECK(f.steps[3].check == Step::CheckWhat::Mode);
  CHECK(f.steps[3].mode == 0755);
  // Writing files while toold runs orders only against a pipe.
  CHECK(f.putsFiles);
  CHECK_FALSE(parse("check a.txt absent\n").putsFiles);
}

TEST_CASE("malformed put and check steps are reported with their line", "[parser]") {
  CHECK(errorOf("put a.txt\n").starts_with("t.fixture:1: put takes a path and a quoted string"));
  CHECK(errorOf("put ../a.txt \"x\"\n") == "t.fixture:1: put: the path must stay inside the workspace (no '..')");
  CHECK(errorOf("check a.txt mode 0999\n").starts_with("t.fixture:1: check takes a path and a quoted string"));
  CHECK(errorOf("check a.txt \"x\\q\"\n").starts_with("t.fixture:1: check: "));
}
