// The shell scanner's grammar: lists, pipelines, compound commands and simple commands, read by
// recursive descent over the lexer's tokens (shell_lexer.cpp). See shell_scanner.h for what is
// listed and shell_parser.h for the parser's shape.
//
// Order of `commands`: source order, where each simple command comes before the commands of
// its own substitutions ($(…), `…`, <(…), >(…) in its words, assignments and redirection
// targets) and before the commands of its `bash -c` script; a compound command's header
// substitutions (`for x in $(ls)`, `case $(…) in`) and an unquoted here-document body's
// substitutions are listed where they are read.
#include "builtins/shell/shell_scanner.h"
#include "builtins/shell/shell_parser.h"

#include <algorithm>
#include <array>
#include <utility>

namespace toold::builtins {
namespace shell_detail {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool isNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }

/// `NAME=…` or `NAME+=…` with a plain NAME.
bool isAssignment(std::string_view raw) {
  if (raw.empty() || !isNameStart(raw.front())) return false;
  std::size_t i = 1;
  while (i < raw.size() && isNameChar(raw[i])) ++i;
  if (i < raw.size() && raw[i] == '+') ++i;
  return i < raw.size() && raw[i] == '=';
}

bool isOperator(const Token& token, std::string_view op) {
  return token.kind == TokenKind::Operator && token.op == op;
}

/// Reserved words that end a list (in command position).
bool endsList(const Token& token) {
  if (token.kind == TokenKind::End) return true;
  if (token.kind == TokenKind::Operator)
    return token.op == ")" || token.op == ";;" || token.op == ";&" || token.op == ";;&";
  static constexpr std::array<std::string_view, 8> closers{"then", "elif", "else", "fi", "do", "done", "esac", "}"};
  return token.kind == TokenKind::Word && std::find(closers.begin(), closers.end(), token.raw) != closers.end();
}

/// A compound command starts here (what may follow `coproc NAME`).
bool startsCompound(const Token& token) {
  if (token.kind == TokenKind::Operator) return token.op == "(" || token.op == "((";
  static constexpr std::array<std::string_view, 8> openers{"{", "if", "while", "until", "for", "select", "case", "[["};
  return token.kind == TokenKind::Word && std::find(openers.begin(), openers.end(), token.raw) != openers.end();
}

bool isDescriptor(std::string_view raw) { // `1`, `-`, `3-` after `>&` / `<&`
  if (raw == "-") return true;
  if (!raw.empty() && raw.back() == '-') raw.remove_suffix(1);
  return !raw.empty() && std::all_of(raw.begin(), raw.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

bool isWord(const Token& token, std::string_view text) { return token.kind == TokenKind::Word && token.raw == text; }

Parser::Parser(std::string_view source, std::size_t base, int nesting, BraceBudget* budget)
    : src_(source), base_(base), nesting_(nesting), budget_(budget != nullptr ? budget : &ownBudget_) {}

std::vector<SimpleCommand> Parser::scanAll() {
  out_ = &result_;
  parseList();
  const Token& rest = peek();
  if (rest.kind != TokenKind::End) unexpected(rest);
  emit(std::move(hereDocumentCommands_));
  return std::move(result_);
}

void Parser::emit(std::vector<SimpleCommand>&& commands) {
  for (auto& command : commands) out_->push_back(std::move(command));
  commands.clear();
}

void Parser::unexpected(const Token& token) const {
  switch (token.kind) {
  case TokenKind::End: fail("unexpected end of input", token.start);
  case TokenKind::Newline: fail("unexpected newline", token.start);
  default:
    if (isOperator(token, ")")) fail("unbalanced ')'", token.start);
    fail("unexpected '" + std::string(token.raw) + "'", token.start);
  }
}

void Parser::skipNewlines() {
  while (peek().kind == TokenKind::Newline) take();
}

void Parser::expectWord(std::string_view reserved, std::size_t openAt, std::string_view opener) {
  const Token& token = peek();
  if (isWord(token, reserved)) {
    take();
    return;
  }
  if (token.kind == TokenKind::End)
    fail("'" + std::string(opener) + "' without '" + std::string(reserved) + "'", openAt);
  unexpected(token);
}

void Parser::parseList() {
  Nest nest(*this, pos_);
  for (;;) {
    skipNewlines();
    if (endsList(peek())) return;
    parseAndOr();
    const Token& separator = peek();
    if (isOperator(separator, ";") || isOperator(separator, "&") || separator.kind == TokenKind::Newline) {
      take();
      continue;
    }
    if (endsList(separator)) return;
    unexpected(separator);
  }
}

void Parser::parseAndOr() {
  parsePipeline();
  while (isOperator(peek(), "&&") || isOperator(peek(), "||")) {
    take();
    skipNewlines();
    parsePipeline();
  }
}

void Parser::parsePipeline() {
  for (;;) { // `!` negation and the `time` keyword (with its -p) are not commands
    const Token& token = peek();
    if (isWord(token, "!")) {
      take();
    } else if (isWord(token, "time")) {
      take();
      if (isWord(peek(), "-p")) take();
    } else {
      break;
    }
  }
  parseCommand();
  while (isOperator(peek(), "|") || isOperator(peek(), "|&")) {
    take();
    skipNewlines();
    parseCommand();
  }
}

void Parser::parseCommand() {
  const Token& token = peek();
  Nest nest(*this, token.start);
  if (token.kind == TokenKind::Redirection) return parseSimpleCommand();
  if (isOperator(token, "(")) {
    const Token open = take();
    parseList();
    const Token& close = peek();
    if (close.kind == TokenKind::End) fail("unbalanced '('", open.start);
    if (!isOperator(close, ")")) unexpected(close);
    take();
  } else if (isOperator(token, "((")) { // arithmetic command: only its substitutions run
    const Token open = take();
    WordBuilder word;
    skipArithmetic(word, open.start);
    emit(std::move(word.nested));
  } else if (token.kind != TokenKind::Word || endsList(token)) {
    unexpected(token);
  } else if (isWord(token, "{")) {
    const Token open = take();
    parseList();
    expectWord("}", open.start, "{");
  } else if (isWord(token, "if")) {
    parseIf();
  } else if (isWord(token, "while") || isWord(token, "until")) {
    parseLoop();
  } else if (isWord(token, "for") || isWord(token, "select")) {
    parseFor();
  } else if (isWord(token, "case")) {
    parseCase();
  } else if (isWord(token, "[[")) {
    parseConditional();
  } else if (isWord(token, "coproc")) {
    take();
    return parseCoproc();
  } else if (isWord(token, "function")) {
    const Token keyword = take();
    const Token name = take();
    if (name.kind != TokenKind::Word) unexpected(name);
    if (isOperator(peek(), "(")) {
      take();
      if (!isOperator(peek(), ")")) unexpected(peek());
      take();
    }
    return parseFunctionBody(keyword.start);
  } else {
    return parseSimpleCommand();
  }
  parseTrailingRedirections();
}

void Parser::parseCoproc() {
  // `coproc [NAME] command`: NAME only before a compound command. What runs is the command, so
  // it is listed as if `coproc` (like `time`) were not there.
  if (startsCompound(peek()) || peek().kind != TokenKind::Word) return parseCommand();
  Token first = take();
  if (startsCompound(peek())) return parseCommand(); // `first` was the coprocess's NAME
  parseSimpleCommand(std::move(first));
}

void Parser::parseFunctionBody(std::size_t at) {
  skipNewlines();
  if (peek().kind == TokenKind::End) fail("function definition without a body", at);
  parseCommand(); // the body's commands are listed like any others
}

void Parser::parseIf() {
  const Token open = take();
  parseList();
  expectWord("then", open.start, "if");
  parseList();
  for (;;) {
    const Token& token = peek();
    if (isWord(token, "elif")) {
      take();
      parseList();
      expectWord("then", open.start, "elif");
      parseList();
    } else if (isWord(token, "else")) {
      take();
      parseList();
      expectWord("fi", open.start, "if");
      return;
    } else if (isWord(token, "fi")) {
      take();
      return;
    } else if (token.kind == TokenKind::End) {
      fail("'if' without 'fi'", open.start);
    } else {
      unexpected(token);
    }
  }
}

void Parser::parseLoop() {
  const Token open = take();
  parseList();
  expectWord("do", open.start, std::string(open.raw));
  parseList();
  expectWord("done", open.start, std::string(open.raw));
}

void Parser::parseFor() {
  const Token open = take();
  if (isOperator(peek(), "((")) { // for (( init; test; step ))
    const Token arithmetic = take();
    WordBuilder word;
    skipArithmetic(word, arithmetic.start);
    emit(std::move(word.nested));
  } else {
    const Token name = take();
    if (name.kind != TokenKind::Word) unexpected(name);
    skipNewlines();
    if (isWord(peek(), "in")) {
      take();
      while (peek().kind == TokenKind::Word) emit(take().nested); // the header is not a command
    }
  }
  if (isOperator(peek(), ";")) take();
  skipNewlines();
  expectWord("do", open.start, std::string(open.raw));
  parseList();
  expectWord("done", open.start, std::string(open.raw));
}

void Parser::parseCase() {
  const Token open = take();
  Token subject = take();
  if (subject.kind != TokenKind::Word) unexpected(subject);
  emit(std::move(subject.nested));
  skipNewlines();
  expectWord("in", open.start, "case");
  for (;;) {
    skipNewlines();
    if (isWord(peek(), "esac")) {
      take();
      return;
    }
    if (peek().kind == TokenKind::End) fail("'case' without 'esac'", open.start);
    if (isOperator(peek(), "(")) take();
    for (;;) { // patterns: word | word … )
      Token pattern = take();
      if (pattern.kind != TokenKind::Word) unexpected(pattern);
      emit(std::move(pattern.nested));
      const Token& separator = peek();
      if (isOperator(separator, ")")) {
        take();
        break;
      }
      if (!isOperator(separator, "|")) unexpected(separator);
      take();
    }
    parseList();
    const Token& end = peek();
    if (isOperator(end, ";;") || isOperator(end, ";&") || isOperator(end, ";;&")) {
      take();
    } else if (isWord(end, "esac")) {
      take();
      return;
    } else if (end.kind == TokenKind::End) {
      fail("'case' without 'esac'", open.start);
    } else {
      unexpected(end);
    }
  }
}

void Parser::parseConditional() {
  // [[ … ]] runs nothing but its substitutions; it is listed as one command, its operators as words.
  Token open = take();
  SimpleCommand command;
  std::vector<SimpleCommand> nested;
  command.words.push_back(std::move(open.word));
  std::size_t last = open.end;
  for (;;) {
    const Token& next = peek();
    if (next.kind == TokenKind::End) fail("'[[' without ']]'", open.start);
    Token token = take();
    if (token.kind == TokenKind::Newline) continue;
    if (token.kind == TokenKind::Word) {
      const bool closes = isWord(token, "]]");
      command.words.push_back(std::move(token.word));
      for (auto& inner : token.nested) nested.push_back(std::move(inner));
      last = token.end;
      if (closes) break;
    } else if (token.op == "&&" || token.op == "||" || token.op == "(" || token.op == ")" || token.op == "<" ||
               token.op == ">") {
      command.words.push_back(ShellWord{token.op, false});
      last = token.end;
    } else {
      unexpected(token);
    }
  }
  command.text = std::string(src_.substr(open.start, last - open.start));
  out_->push_back(std::move(command));
  emit(std::move(nested));
  parseTrailingRedirections();
}

void Parser::parseTrailingRedirections() {
  SimpleCommand command; // `( … ) > out`: the redirections are listed as a command without words
  std::vector<SimpleCommand> nested;
  std::size_t first = kNone;
  std::size_t last = 0;
  while (peek().kind == TokenKind::Redirection) takeRedirection(command, nested, first, last);
  if (first == kNone) return;
  command.text = std::string(src_.substr(first, last - first));
  out_->push_back(std::move(command));
  emit(std::move(nested));
}

void Parser::takeRedirection(SimpleCommand& command, std::vector<SimpleCommand>& nested, std::size_t& first,
                             std::size_t& last) {
  const Token redirection = take();
  first = std::min(first, redirection.start);
  if (peek().kind != TokenKind::Word) fail("redirection without a target", redirection.start);
  Token target = take();
  last = std::max(last, target.end);
  for (auto& inner : target.nested) nested.push_back(std::move(inner));
  ShellRedirection result;
  result.op = redirection.op;
  std::string_view kind = redirection.op;
  while (!kind.empty() && kind.front() >= '0' && kind.front() <= '9') kind.remove_prefix(1);
  if (kind == "<<" || kind == "<<-") {
    const bool quoted = target.raw.find_first_of("'\"\\") != kNone;
    hereDocuments_.push_back({target.word.text, kind == "<<-", !quoted});
    result.target = target.word.text;
  } else if ((kind == ">&" || kind == "<&") && !target.word.dynamic && isDescriptor(target.raw)) {
    result.op += target.raw; // a duplication: `2>&1`, `>&-`
  } else {
    result.target = std::move(target.word.text);
    result.dynamic = target.word.dynamic;
  }
  command.redirections.push_back(std::move(result));
}

void Parser::addWord(SimpleCommand& command, std::vector<WordSource>& sources, Token&& token) {
  if (!token.braceMarks.empty()) {
    auto expansion = expandBraces(token.word.text, token.braceMarks, *budget_);
    if (!expansion.problem.empty()) fail(expansion.problem, token.start);
    if (expansion.expanded) {
      for (auto& text : expansion.words) {
        command.words.push_back(ShellWord{std::move(text), token.word.dynamic});
        sources.push_back(WordSource{token.start, token.end, true});
      }
      return;
    }
  }
  command.words.push_back(std::move(token.word));
  sources.push_back(WordSource{token.start, token.end, false});
}

void Parser::parseSimpleCommand(std::optional<Token> first) {
  SimpleCommand command;
  std::vector<SimpleCommand> nested;
  std::vector<WordSource> sources;
  std::size_t firstAt = kNone;
  std::size_t last = 0;
  for (;;) {
    if (!first) {
      const Token& token = peek();
      if (token.kind == TokenKind::Redirection) {
        takeRedirection(command, nested, firstAt, last);
        continue;
      }
      if (token.kind != TokenKind::Word) break;
    }
    Token word = first ? std::move(*first) : take();
    first.reset();
    firstAt = std::min(firstAt, word.start);
    last = std::max(last, word.end);
    for (auto& inner : word.nested) nested.push_back(std::move(inner));
    if (command.words.empty() && isAssignment(word.raw)) {
      command.assignments.emplace_back(word.raw);
      continue;
    }
    const std::size_t wordStart = word.start;
    const bool isFirstWord = command.words.empty();
    addWord(command, sources, std::move(word));
    if (isFirstWord && command.words.size() == 1 && command.assignments.empty() && command.redirections.empty() &&
        isOperator(peek(), "(")) { // NAME () body: a function definition, not a command
      take();
      if (!isOperator(peek(), ")")) unexpected(peek());
      take();
      emit(std::move(nested));
      return parseFunctionBody(wordStart);
    }
  }
  command.text = std::string(src_.substr(firstAt, last - firstAt));
  std::vector<SimpleCommand> inner;
  checkSpecialCommand(command, sources, inner);
  out_->push_back(std::move(command));
  emit(std::move(nested));
  emit(std::move(inner));
}

} // namespace shell_detail

ShellScan scanShellCommand(std::string_view line) {
  ShellScan scan;
  try {
    shell_detail::Parser parser(line, 0, 0);
    scan.commands = parser.scanAll();
    scan.parsed = true;
  } catch (const shell_detail::ScanError& error) {
    scan.parsed = false;
    scan.problem = error.message;
    scan.commands.clear();
  }
  return scan;
}

} // namespace toold::builtins
