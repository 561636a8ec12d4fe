// The PCRE2 calls behind Regex.
#include "core/schema/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <array>
#include <new>

namespace toold::core {

namespace {

/// Why each option: see the header.
constexpr std::uint32_t kCompileOptions = PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY | PCRE2_ALLOW_EMPTY_CLASS |
                                          PCRE2_MATCH_UNSET_BACKREF | PCRE2_NEVER_BACKSLASH_C;
constexpr std::uint32_t kExtraOptions = PCRE2_EXTRA_ALT_BSUX;

/// Turns an unanchored pattern into one anchored match that searches the whole subject.
constexpr std::string_view kSearchPrefix = "(?s:.*?)(?:";
constexpr std::string_view kSearchSuffix = ")";

/// Whole-pattern recursion, which in the wrapped pattern would take in the prefix too.
constexpr std::array<std::string_view, 4> kWholeRecursion = {"(?R)", "(?0)", "\\g<0>", "\\g'0'"};

std::string errorText(int errorCode) {
  std::array<PCRE2_UCHAR, 256> buffer{};
  const int length = pcre2_get_error_message(errorCode, buffer.data(), buffer.size());
  if (length < 0) return "error " + std::to_string(errorCode);
  return std::string(reinterpret_cast<const char*>(buffer.data()), static_cast<std::size_t>(length));
}

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
using CodePtr = std::unique_ptr<pcre2_code, CodeDeleter>;

/// Compiles with the ECMA-262-like options; on failure, says why and sets `offset` to where.
CodePtr compile(std::string_view pattern, std::uint32_t options, std::string& error, std::size_t& offset) {
  std::unique_ptr<pcre2_compile_context, decltype(&pcre2_compile_context_free)> context(
      pcre2_compile_context_create(nullptr), &pcre2_compile_context_free);
  if (!context) throw std::bad_alloc();
  pcre2_set_newline(context.get(), PCRE2_NEWLINE_ANY);
  pcre2_set_compile_extra_options(context.get(), kExtraOptions);
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  CodePtr code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), kCompileOptions | options,
                             &errorCode, &errorOffset, context.get()));
  if (!code) {
    error = errorText(errorCode);
    offset = errorOffset;
  }
  return code;
}

/// One JIT stack per thread, as PCRE2 requires of threads that match at the same time; PCRE2
/// reserves its address space and commits pages only as a search goes deeper.
pcre2_jit_stack* threadJitStack(void*) {
  struct Stack {
    // Null when there is no JIT; PCRE2 then never calls this.
    pcre2_jit_stack* stack = pcre2_jit_stack_create(32 * 1024, Regex::kJitStackMax, nullptr);
    ~Stack() { pcre2_jit_stack_free(stack); }
  };
  thread_local Stack perThread;
  return perThread.stack;
}

/// Shared by every search on every thread, which PCRE2 allows for a context no one changes.
/// Never freed: a search may still be running on another thread while the process exits.
pcre2_match_context* matchContext() {
  static pcre2_match_context* const context = [] {
    pcre2_match_context* created = pcre2_match_context_create(nullptr);
    if (!created) throw std::bad_alloc();
    pcre2_set_match_limit(created, Regex::kMatchLimit);
    pcre2_set_heap_limit(created, Regex::kHeapLimitKiB);
    pcre2_jit_stack_assign(created, &threadJitStack, nullptr);
    return created;
  }();
  return context;
}

}  // namespace

struct Regex::Code {
  CodePtr code;
};

Regex::Regex(std::string_view pattern) : pattern_(pattern) {
  std::string error;
  std::size_t offset = 0;
  // As written first: the error offsets then point into the pattern as written, and PCRE2 says
  // whether it is anchored (every branch starts with "^", say), which needs no wrapping.
  CodePtr code = compile(pattern_, 0, error, offset);
  if (!code) throw RegexError(error + " at offset " + std::to_string(offset));
  // Refused even where no wrapping is needed, so that adding or removing a "^" cannot change
  // whether a pattern is accepted. Found as text: refusing "[(?R)]", a class, is a safe mistake.
  for (const std::string_view recursion : kWholeRecursion)
    if (pattern_.find(recursion) != std::string::npos)
      throw RegexError("recursion into the whole pattern (" + std::string(recursion) + ") is not supported");
  std::uint32_t options = 0;
  pcre2_pattern_info(code.get(), PCRE2_INFO_ALLOPTIONS, &options);
  if ((options & PCRE2_ANCHORED) == 0) {
    std::string wrapped;
    wrapped.append(kSearchPrefix).append(pattern_).append(kSearchSuffix);
    code = compile(wrapped, PCRE2_ANCHORED, error, offset);
    // Only PCRE2 syntax that must stand at the start or the end of a pattern gets here: a leading
    // (*VERB), an unterminated \Q, a trailing (?x) comment.
    if (!code) throw RegexError("it cannot be searched for within a longer pattern: " + error);
  }
  // Failing here (no JIT on this platform, or no executable memory) leaves the interpreter to run it.
  pcre2_jit_compile(code.get(), PCRE2_JIT_COMPLETE);
  code_ = std::make_shared<const Code>(Code{std::move(code)});
}

Regex::Result Regex::search(std::string_view subject) const {
  // One per call, as each thread needs its own; it also holds the interpreter's backtracking
  // frames, which are freed with it. One pair of offsets: only whether it matched is wanted.
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(pcre2_match_data_create(1, nullptr),
                                                                           &pcre2_match_data_free);
  if (!data) throw std::bad_alloc();
  // PCRE2 10.42 refuses a null subject even when it is empty. No PCRE2_NO_UTF_CHECK: PCRE2 checks
  // the subject, and a string that is not UTF-8 is answered as such instead of searched.
  const auto* bytes = reinterpret_cast<PCRE2_SPTR>(subject.data() != nullptr ? subject.data() : "");
  const auto run = [&](std::uint32_t options) {
    return pcre2_match(code_->code.get(), bytes, subject.size(), 0, options, data.get(), matchContext());
  };
  int rc = run(0);
  // The JIT stack is capped at kJitStackMax; the interpreter keeps its backtracking on the heap,
  // within kHeapLimitKiB, which goes further on a long subject.
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) rc = run(PCRE2_NO_JIT);
  if (rc >= 0) return Result::Match;  // 0: matched, with more groups than the match data has room for
  switch (rc) {
    case PCRE2_ERROR_NOMATCH:
      return Result::NoMatch;
    case PCRE2_ERROR_MATCHLIMIT:
    case PCRE2_ERROR_DEPTHLIMIT:
    case PCRE2_ERROR_HEAPLIMIT:
    case PCRE2_ERROR_JIT_STACKLIMIT:
    case PCRE2_ERROR_NOMEMORY:
      return Result::TooCostly;
    default:
      break;
  }
  if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21) return Result::InvalidUtf8;
  throw RegexError("searching with /" + pattern_ + "/ failed: " + errorText(rc));
}

}  // namespace toold::core
