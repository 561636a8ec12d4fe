// The shell scanner's lexer: operators, redirections, words with their quotes and expansions,
// comments, line continuations and here-document bodies. See shell_parser.h.
#include "builtins/shell/shell_parser.h"

#include <utility>

namespace toold::builtins::shell_detail {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }
bool isMeta(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' ||
         c == '<' || c == '>';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || isDigit(c); }

/// `NAME=` or `NAME+=` so far: an `(` next starts an array assignment.
bool endsAssignmentName(std::string_view raw) {
  if (raw.empty() || raw.back() != '=') return false;
  raw.remove_suffix(1);
  if (!raw.empty() && raw.back() == '+') raw.remove_suffix(1);
  if (raw.empty() || !isNameStart(raw.front())) return false;
  for (char c : raw)
    if (!isNameChar(c)) return false;
  return true;
}

} // namespace

Parser::Nest::Nest(Parser& parser, std::size_t at) : parser_(parser) {
  if (++parser_.nesting_ > kMaxNesting) parser_.fail("nested too deeply", at);
}
Parser::Nest::~Nest() { --parser_.nesting_; }

void Parser::fail(const std::string& what, std::size_t at) const {
  throw ScanError{what + " at offset " + std::to_string(base_ + at)};
}
void Parser::failPlain(std::string message) { throw ScanError{std::move(message)}; }

const Token& Parser::peek() {
  if (!ahead_) {
    Token token = lex();
    ahead_ = std::move(token);
  }
  return *ahead_;
}

Token Parser::take() {
  peek();
  Token token = std::move(*ahead_);
  ahead_.reset();
  // Here-document bodies are read when the newline after their command is lexed (peeked); what
  // their substitutions run is listed once that newline is consumed, after the command itself.
  if (token.kind == TokenKind::Newline && !hereDocumentCommands_.empty()) {
    auto commands = std::move(hereDocumentCommands_);
    hereDocumentCommands_.clear();
    emit(std::move(commands));
  }
  return token;
}

void Parser::skipBlanksAndComments() {
  while (pos_ < src_.size()) {
    const char c = src_[pos_];
    if (isBlank(c)) {
      ++pos_;
    } else if (c == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n') {
      pos_ += 2;
    } else if (c == '#') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

Token Parser::lex() {
  skipBlanksAndComments();
  Token token;
  token.start = pos_;
  const std::size_t n = src_.size();
  auto finish = [&](TokenKind kind, std::size_t length) {
    token.kind = kind;
    pos_ += length;
    token.end = pos_;
    token.op = std::string(src_.substr(token.start, token.end - token.start));
    token.raw = src_.substr(token.start, token.end - token.start);
    return std::move(token);
  };
  if (pos_ >= n) {
    if (!hereDocuments_.empty())
      failPlain("here-document delimiter " + hereDocuments_.front().delimiter + " never found");
    token.kind = TokenKind::End;
    token.end = pos_;
    return token;
  }
  auto at = [&](std::size_t i) { return i < n ? src_[i] : '\0'; };
  const char c = src_[pos_];
  if (c == '\n') {
    Token newline = finish(TokenKind::Newline, 1);
    readHereDocuments();
    return newline;
  }
  // A descriptor number directly before a redirection operator belongs to it: `2>`, `10<&-`.
  std::size_t digits = pos_;
  while (digits < n && isDigit(src_[digits])) ++digits;
  if (digits > pos_ && (at(digits) == '<' || at(digits) == '>') && at(digits + 1) != '(') pos_ = digits;
  const char op = src_[pos_];
  const char next = at(pos_ + 1);
  const bool numbered = pos_ > token.start;
  if (op == '<' && (numbered || next != '(')) {
    if (next == '<') return finish(TokenKind::Redirection, at(pos_ + 2) == '<' || at(pos_ + 2) == '-' ? 3 : 2);
    return finish(TokenKind::Redirection, next == '>' || next == '&' ? 2 : 1);
  }
  if (op == '>' && (numbered || next != '(')) {
    return finish(TokenKind::Redirection, next == '>' || next == '|' || next == '&' ? 2 : 1);
  }
  switch (c) {
  case '&':
    if (next == '>') return finish(TokenKind::Redirection, at(pos_ + 2) == '>' ? 3 : 2);
    return finish(TokenKind::Operator, next == '&' ? 2 : 1);
  case '|':
    return finish(TokenKind::Operator, next == '|' || next == '&' ? 2 : 1);
  case ';':
    if (next == ';') return finish(TokenKind::Operator, at(pos_ + 2) == '&' ? 3 : 2);
    return finish(TokenKind::Operator, next == '&' ? 2 : 1);
  case '(':
    return finish(TokenKind::Operator, next == '(' ? 2 : 1);
  case ')':
    return finish(TokenKind::Operator, 1);
  default:
    break;
  }
  lexWord(token);
  return token;
}

void Parser::lexWord(Token& token) {
  WordBuilder word;
  const std::size_t n = src_.size();
  std::size_t contentEnd = pos_;
  bool openBracket = false;
  bool inArray = false;
  while (pos_ < n) {
    const char c = src_[pos_];
    const char next = pos_ + 1 < n ? src_[pos_ + 1] : '\0';
    if (inArray && (isBlank(c) || c == '\n' || c == ')')) {
      word.text += c;
      ++pos_;
      if (c == ')') inArray = false;
      contentEnd = pos_;
      continue;
    }
    if (isMeta(c)) {
      if (c == '(' && !inArray && endsAssignmentName(src_.substr(token.start, pos_ - token.start))) {
        inArray = true;
        word.text += c;
        ++pos_;
        contentEnd = pos_;
        continue;
      }
      if ((c == '<' || c == '>') && next == '(' && pos_ == token.start) { // process substitution
        const std::size_t open = pos_;
        const std::size_t mark = word.text.size();
        pos_ += 2;
        lexCommandSubstitution(word, open);
        word.text.resize(mark);
        word.text += src_.substr(open, pos_ - open);
        word.dynamic = true;
        contentEnd = pos_;
        continue;
      }
      break;
    }
    if (c == '\\') {
      if (next == '\n') { // line continuation: joins, adds nothing
        pos_ += 2;
        continue;
      }
      if (pos_ + 1 < n) {
        word.text += next;
        pos_ += 2;
      } else {
        word.text += c;
        ++pos_;
      }
    } else if (!lexQuoteOrExpansion(word, c, false)) {
      if (c == '*' || c == '?') word.dynamic = true;
      if (c == '{' || c == ',' || c == '}') word.braceMarks.push_back(word.text.size()); // may expand
      if (c == '[') openBracket = true;
      if (c == ']' && openBracket) word.dynamic = true;
      word.text += c;
      ++pos_;
    }
    contentEnd = pos_;
  }
  if (inArray) fail("unterminated array assignment", token.start);
  token.kind = TokenKind::Word;
  token.end = contentEnd;
  token.raw = src_.substr(token.start, token.end - token.start);
  token.word = ShellWord{std::move(word.text), word.dynamic};
  token.nested = std::move(word.nested);
  token.braceMarks = std::move(word.braceMarks);
}

bool Parser::lexQuoteOrExpansion(WordBuilder& word, char c, bool inDouble) {
  switch (c) {
  case '\'':
    if (inDouble) return false; // a literal quote inside "…"
    lexSingleQuote(word);
    return true;
  case '"': lexDoubleQuote(word); return true;
  case '$': lexDollar(word, inDouble); return true;
  case '`': lexBacktick(word, inDouble); return true;
  default: return false;
  }
}

void Parser::lexSingleQuote(WordBuilder& word) {
  const std::size_t open = pos_;
  const std::size_t close = src_.find('\'', open + 1);
  if (close == std::string_view::npos) fail("unterminated single quote", open);
  word.text += src_.substr(open + 1, close - open - 1);
  pos_ = close + 1;
}

void Parser::lexDoubleQuote(WordBuilder& word) {
  const std::size_t open = pos_;
  Nest nest(*this, open);
  ++pos_;
  const std::size_t n = src_.size();
  while (true) {
    if (pos_ >= n) fail("unterminated double quote", open);
    const char c = src_[pos_];
    if (c == '"') {
      ++pos_;
      return;
    }
    if (c == '\\' && pos_ + 1 < n) {
      const char next = src_[pos_ + 1];
      if (next == '\n') {
        pos_ += 2;
      } else if (next == '$' || next == '`' || next == '"' || next == '\\') {
        word.text += next;
        pos_ += 2;
      } else {
        word.text += c;
        ++pos_;
      }
    } else if (c == '$') {
      lexDollar(word, true);
    } else if (c == '`') {
      lexBacktick(word, true);
    } else {
      word.text += c;
      ++pos_;
    }
  }
}

void Parser::lexAnsiC(WordBuilder& word) {
  const std::size_t open = pos_; // at `$'`
  pos_ += 2;
  const std::size_t n = src_.size();
  while (true) {
    if (pos_ >= n) fail("unterminated ANSI-C quote", open);
    const char c = src_[pos_];
    if (c == '\'') {
      ++pos_;
      return;
    }
    if (c != '\\' || pos_ + 1 >= n) {
      word.text += c;
      ++pos_;
      continue;
    }
    const char e = src_[pos_ + 1];
    pos_ += 2;
    switch (e) {
    case 'n': word.text += '\n'; break;
    case 't': word.text += '\t'; break;
    case 'r': word.text += '\r'; break;
    case 'a': word.text += '\a'; break;
    case 'b': word.text += '\b'; break;
    case 'f': word.text += '\f'; break;
    case 'v': word.text += '\v'; break;
    case 'e':
    case 'E': word.text += '\x1b'; break;
    case '\\':
    case '\'':
    case '"':
    case '?': word.text += e; break;
    default: // \xHH, \uHHHH, \nnn, \cX…: not decoded, so the value is not known text
      word.text += '\\';
      word.text += e;
      word.dynamic = true;
      break;
    }
  }
}

void Parser::lexDollar(WordBuilder& word, bool inDouble) {
  const std::size_t open = pos_; // at `$`
  const std::size_t n = src_.size();
  const char next = open + 1 < n ? src_[open + 1] : '\0';
  if (next == '\'' && !inDouble) return lexAnsiC(word);
  if (next == '"' && !inDouble) { // $"…": a translated string, read as "…"
    ++pos_;
    return lexDoubleQuote(word);
  }
  const std::size_t mark = word.text.size();
  if (next == '(') {
    if (open + 2 < n && src_[open + 2] == '(') {
      pos_ = open + 3;
      skipArithmetic(word, open);
    } else {
      pos_ = open + 2;
      lexCommandSubstitution(word, open);
    }
  } else if (next == '{') {
    lexParameter(word, inDouble);
  } else if (isNameStart(next)) {
    pos_ = open + 1;
    while (pos_ < n && isNameChar(src_[pos_])) ++pos_;
  } else if (isDigit(next) || next == '@' || next == '*' || next == '#' || next == '?' || next == '$' ||
             next == '!' || next == '-') {
    pos_ = open + 2;
  } else { // a lone `$` is a literal dollar sign
    word.text += '$';
    ++pos_;
    return;
  }
  word.text.resize(mark);
  word.text += src_.substr(open, pos_ - open);
  word.dynamic = true;
}

void Parser::lexParameter(WordBuilder& word, bool inDouble) {
  const std::size_t open = pos_; // at `${`
  Nest nest(*this, open);
  pos_ += 2;
  const std::size_t n = src_.size();
  std::size_t braces = 0;
  while (true) {
    if (pos_ >= n) fail("unterminated parameter expansion", open);
    const char c = src_[pos_];
    if (c == '}') {
      ++pos_;
      if (braces == 0) return;
      --braces;
    } else if (c == '{') {
      ++braces;
      ++pos_;
    } else if (c == '\\') {
      pos_ += pos_ + 1 < n ? 2 : 1;
    } else if (!lexQuoteOrExpansion(word, c, inDouble)) {
      ++pos_;
    }
  }
}

void Parser::skipArithmetic(WordBuilder& word, std::size_t openAt) {
  Nest nest(*this, openAt);
  const std::size_t n = src_.size();
  std::size_t parens = 0;
  while (true) {
    if (pos_ >= n) fail("unterminated arithmetic expansion", openAt);
    const char c = src_[pos_];
    if (c == '(') {
      ++parens;
      ++pos_;
    } else if (c == ')') {
      if (parens > 0) {
        --parens;
        ++pos_;
      } else if (pos_ + 1 < n && src_[pos_ + 1] == ')') {
        pos_ += 2;
        return;
      } else { // `((a) …)`: bash would re-read it as nested subshells; too ambiguous to follow
        fail("ambiguous '((' (arithmetic or nested subshells)", openAt);
      }
    } else if (c == '\\') {
      pos_ += pos_ + 1 < n ? 2 : 1;
    } else if (!lexQuoteOrExpansion(word, c, false)) {
      ++pos_;
    }
  }
}

void Parser::lexBacktick(WordBuilder& word, bool inDouble) {
  const std::size_t open = pos_;
  const std::size_t n = src_.size();
  std::size_t close = open + 1;
  for (;; ++close) {
    if (close >= n) fail("unterminated backtick", open);
    const char c = src_[close];
    if (c == '`') break;
    if (c == '\\' && close + 1 < n) {
      const char e = src_[close + 1];
      // Backquote processing would remove these backslashes, so the command that runs is not
      // the text written; rather than rewrite it, the scanner gives up (use $(…) instead).
      if (e == '$' || e == '`' || e == '\\' || (inDouble && e == '"'))
        fail("backslash escape inside backticks", close);
      ++close;
    }
  }
  Parser inner(src_.substr(open + 1, close - open - 1), base_ + open + 1, nesting_ + 1, budget_);
  auto commands = inner.scanAll();
  for (auto& command : commands) word.nested.push_back(std::move(command));
  pos_ = close + 1;
  word.text += src_.substr(open, pos_ - open);
  word.dynamic = true;
}

void Parser::lexCommandSubstitution(WordBuilder& word, std::size_t openAt) {
  // pos_ is just after `$(`, `<(` or `>(`; the same parser reads the list up to its `)`.
  Nest nest(*this, openAt);
  auto* const outer = out_;
  out_ = &word.nested;
  parseList();
  const Token& close = peek();
  if (close.kind == TokenKind::End) fail("unbalanced '('", openAt + 1);
  if (close.kind != TokenKind::Operator || close.op != ")") unexpected(close);
  take();
  out_ = outer;
}

void Parser::readHereDocuments() {
  auto pending = std::move(hereDocuments_);
  hereDocuments_.clear();
  const std::size_t n = src_.size();
  for (const auto& doc : pending) {
    WordBuilder expansions;
    bool found = false;
    while (pos_ < n) {
      const std::size_t eol = src_.find('\n', pos_);
      const std::size_t lineEnd = eol == std::string_view::npos ? n : eol;
      std::size_t lineStart = pos_;
      if (doc.stripTabs)
        while (lineStart < lineEnd && src_[lineStart] == '\t') ++lineStart;
      if (src_.substr(lineStart, lineEnd - lineStart) == doc.delimiter) {
        pos_ = eol == std::string_view::npos ? n : eol + 1;
        found = true;
        break;
      }
      if (!doc.expands) {
        pos_ = eol == std::string_view::npos ? n : eol + 1;
        continue;
      }
      // An unquoted delimiter: the body's substitutions run, so they are scanned too.
      while (pos_ < n && src_[pos_] != '\n') {
        const char c = src_[pos_];
        if (c == '\\') {
          pos_ += pos_ + 1 < n ? 2 : 1;
        } else if (c == '$') {
          lexDollar(expansions, true);
        } else if (c == '`') {
          lexBacktick(expansions, true);
        } else {
          ++pos_;
        }
      }
      if (pos_ < n) ++pos_;
    }
    if (!found) failPlain("here-document delimiter " + doc.delimiter + " never found");
    for (auto& command : expansions.nested) hereDocumentCommands_.push_back(std::move(command));
  }
}

} // namespace toold::builtins::shell_detail
