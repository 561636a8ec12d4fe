// Private to the shell scanner: the lexer and recursive-descent parser behind scanShellCommand.
// The lexer (shell_lexer.cpp) reads one token at a time, quotes and expansions included; a
// command substitution inside a word is parsed in place by the same parser (so `)` inside a
// `case` pattern or a quoted string does not end it). The grammar is in shell_scanner.cpp.
#pragma once

#include "builtins/shell/brace_expansion.h"
#include "builtins/shell/shell_scanner.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toold::builtins::shell_detail {

/// Thrown to abandon a scan; the message becomes ShellScan::problem.
struct ScanError {
  std::string message;
};

/// How deep constructs may nest (lists, compound commands, quotes, expansions, sub-scans)
/// before the line is Unparsed, so hostile input cannot exhaust the stack.
inline constexpr int kMaxNesting = 64;

enum class TokenKind { Word, Operator, Redirection, Newline, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::size_t start = 0; ///< offset in the parser's source
  std::size_t end = 0;   ///< one past the token's last character (line continuations excluded)
  std::string op;        ///< Operator and Redirection: the operator as written ("&&", "2>", "<<-")
  ShellWord word;        ///< Word: its unquoted text
  std::string_view raw;  ///< the source slice [start, end)
  std::vector<SimpleCommand> nested; ///< Word: commands of its substitutions
  std::vector<std::size_t> braceMarks; ///< Word: offsets in word.text of unquoted `{`, `,`, `}`
};

/// A word being read: its unquoted text and what its substitutions run.
struct WordBuilder {
  std::string text;
  bool dynamic = false;
  std::vector<SimpleCommand> nested;
  std::vector<std::size_t> braceMarks; ///< see Token::braceMarks
};

class Parser {
public:
  /// `source` is a view into the caller's line starting at offset `base` (for problem offsets);
  /// `nesting` is how deep the enclosing scans already are; `budget` is the line's brace-expansion
  /// budget, shared with the scans of nested scripts (null: this parser's own).
  Parser(std::string_view source, std::size_t base, int nesting, BraceBudget* budget = nullptr);

  /// Scans the whole source as a shell program; throws ScanError.
  std::vector<SimpleCommand> scanAll();

  // --- lexer (shell_lexer.cpp) ---
  const Token& peek();
  Token take();

  [[noreturn]] void fail(const std::string& what, std::size_t at) const;
  [[noreturn]] static void failPlain(std::string message);

  /// Enters one nesting level for the lifetime of the guard.
  class Nest {
  public:
    Nest(Parser& parser, std::size_t at);
    ~Nest();
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

  private:
    Parser& parser_;
  };

private:
  Token lex();
  void skipBlanksAndComments();
  void lexWord(Token& token);
  /// Lexes the quote or expansion that starts with `c` at the cursor into `word`; false when `c`
  /// starts none (a `'` inside double quotes is a plain character).
  bool lexQuoteOrExpansion(WordBuilder& word, char c, bool inDouble);
  void lexSingleQuote(WordBuilder& word);
  void lexDoubleQuote(WordBuilder& word);
  void lexAnsiC(WordBuilder& word);
  void lexDollar(WordBuilder& word, bool inDouble);
  void lexParameter(WordBuilder& word, bool inDouble);
  void lexBacktick(WordBuilder& word, bool inDouble);
  void lexCommandSubstitution(WordBuilder& word, std::size_t openAt);
  void readHereDocuments();

public:
  /// At the first character after `((` / `$((`: skips to the matching `))`, listing the
  /// substitutions inside into `word.nested`.
  void skipArithmetic(WordBuilder& word, std::size_t openAt);

  // --- grammar (shell_scanner.cpp) ---
  /// Reads a list of pipelines up to End, `)`, `;;`/`;&`/`;;&` or a closing reserved word.
  void parseList();

private:
  void parseAndOr();
  void parsePipeline();
  void parseCommand();
  /// `first`: a word already taken (after `coproc`), the command's first.
  void parseSimpleCommand(std::optional<Token> first = std::nullopt);
  void parseCoproc();
  void parseConditional();
  void parseIf();
  void parseLoop();
  void parseFor();
  void parseCase();
  void parseFunctionBody(std::size_t at);
  void parseTrailingRedirections();
  void takeRedirection(SimpleCommand& command, std::vector<SimpleCommand>& nested, std::size_t& first,
                       std::size_t& last);
  /// Where a word of a simple command was written: its token's span, and whether it is one of
  /// several words its token's braces expanded to (then the span is not the word's text).
  struct WordSource {
    std::size_t start = 0;
    std::size_t end = 0;
    bool fromBraces = false;
  };
  /// Appends `token`'s word to `command`, brace-expanded (see brace_expansion.h).
  void addWord(SimpleCommand& command, std::vector<WordSource>& sources, Token&& token);

  // --- commands that run text as a script (shell_script_commands.cpp) ---
  /// Scans what a command runs as a script (`bash -c '…'`, behind wrappers too, `trap '…'`) into
  /// `inner`; throws for one that hides it (eval, a script on stdin, `env -S`, …).
  void checkSpecialCommand(const SimpleCommand& command, const std::vector<WordSource>& sources,
                           std::vector<SimpleCommand>& inner);
  /// A POSIX shell at words[at]: its -c script is scanned; `alone` (it is the command run, not a
  /// word that happens to name a shell) also fails closed on a script it would read from stdin.
  void checkShell(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at, bool alone,
                  std::vector<SimpleCommand>& inner);
  void checkSwitchUser(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at,
                       std::vector<SimpleCommand>& inner);
  void checkTrap(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at,
                 std::vector<SimpleCommand>& inner);
  /// Scans words[index], a fixed string run as a script by `what`, in place into `inner`.
  void scanScriptWord(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t index,
                      const std::string& what, std::vector<SimpleCommand>& inner);
  void skipNewlines();
  void expectWord(std::string_view reserved, std::size_t openAt, std::string_view opener);
  [[noreturn]] void unexpected(const Token& token) const;
  void emit(std::vector<SimpleCommand>&& commands);

  struct PendingHereDocument {
    std::string delimiter;
    bool stripTabs = false;
    bool expands = false; ///< unquoted delimiter: the body's $(…) and `…` run
  };

  std::string_view src_;
  std::size_t base_;
  int nesting_;
  std::size_t pos_ = 0;
  std::optional<Token> ahead_;
  std::vector<PendingHereDocument> hereDocuments_;
  std::vector<SimpleCommand> hereDocumentCommands_; ///< substitutions of bodies read, not yet listed
  std::vector<SimpleCommand>* out_ = nullptr;
  std::vector<SimpleCommand> result_;
  BraceBudget ownBudget_;
  BraceBudget* budget_;
};

/// True for a reserved word written plainly (not quoted, no escapes).
bool isWord(const Token& token, std::string_view text);

} // namespace toold::builtins::shell_detail
