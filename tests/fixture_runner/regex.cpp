// The PCRE2 calls behind Regex.
#include "regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace toold::fixture {

struct Regex::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

namespace {

std::string errorText(int errorCode) {
  PCRE2_UCHAR buffer[256];
  const int n = pcre2_get_error_message(errorCode, buffer, sizeof buffer);
  if (n < 0) return "error " + std::to_string(errorCode);
  return std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(n));
}

} // namespace

Regex::Regex(std::string_view pattern) : code_(std::make_shared<Code>()), pattern_(pattern) {
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  // MATCH_INVALID_UTF: a daemon log line with a stray byte must be searchable, not an error.
  code_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern_.data()), pattern_.size(),
                              PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errorCode, &errorOffset, nullptr);
  if (code_->code == nullptr) {
    throw RegexError("invalid regular expression /" + pattern_ + "/ at offset " + std::to_string(errorOffset) + ": " +
                     errorText(errorCode));
  }
}

bool Regex::search(std::string_view subject) const {
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
      pcre2_match_data_create_from_pattern(code_->code, nullptr), &pcre2_match_data_free);
  if (!data) throw std::bad_alloc();
  const int rc =
      pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0, data.get(), nullptr);
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  // Resource limits (catastrophic backtracking) are a broken fixture, not a mismatch.
  throw RegexError("matching /" + pattern_ + "/ failed: " + errorText(rc));
}

} // namespace toold::fixture
