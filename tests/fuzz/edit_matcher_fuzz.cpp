// Fuzz target for the edit matcher: the bytes are a flags byte, then the file's text, oldString
// and newString separated by NUL bytes. Whatever they are, planning must finish without crashing,
// and a plan must keep its invariants: Applied spans are in order, inside the text, one each with
// its replacement (exactly one without replaceAll), an Exact span holds oldString, and the result
// stays within maxResultBytes; Ambiguous names at least two spans; TooLarge built nothing; every
// refusal has a message.
#include "builtins/edit/edit_matcher.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

/// The next field of `rest`, up to a NUL byte (or the end).
std::string_view field(std::string_view& rest) {
  const std::size_t end = rest.find('\0');
  const std::string_view taken = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  return taken;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using toold::builtins::EditPlan;
  if (size == 0) return 0;
  const std::uint8_t flags = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  toold::builtins::EditRequest request;
  request.text = field(rest);
  request.oldString = field(rest);
  request.newString = field(rest);
  request.replaceAll = (flags & 1) != 0;
  // Half the inputs get a small result limit, so that TooLarge is reached too.
  if ((flags & 2) != 0) request.maxResultBytes = request.text.size() + (flags >> 2);

  const EditPlan plan = toold::builtins::planEdit(request);
  switch (plan.outcome) {
  case EditPlan::Outcome::Applied: {
    check(!request.oldString.empty());
    check(!plan.spans.empty() && plan.spans.size() == plan.replacements.size());
    check(request.replaceAll || plan.spans.size() == 1);
    std::size_t taken = 0;
    std::size_t resultBytes = request.text.size();
    for (std::size_t i = 0; i < plan.spans.size(); ++i) {
      const auto& span = plan.spans[i];
      check(span.begin >= taken && span.begin <= span.end && span.end <= request.text.size());
      check(span.firstLine >= 1 && span.lastLine >= span.firstLine);
      if (plan.step == toold::builtins::MatchStep::Exact)
        check(request.text.substr(span.begin, span.end - span.begin) == request.oldString);
      taken = span.end;
      resultBytes = resultBytes - (span.end - span.begin) + plan.replacements[i].size();
    }
    check(resultBytes <= request.maxResultBytes);
    check(toold::builtins::describeFailure(plan, "f").empty());
    break;
  }
  case EditPlan::Outcome::Ambiguous:
    check(!request.replaceAll && plan.spans.size() >= 2);
    check(!toold::builtins::describeFailure(plan, "f").empty());
    break;
  case EditPlan::Outcome::TooLarge:
    check(plan.replacements.empty() && plan.spans.empty());
    check(plan.resultBytes > plan.maxResultBytes && plan.maxResultBytes == request.maxResultBytes);
    check(!toold::builtins::describeFailure(plan, "f").empty());
    break;
  case EditPlan::Outcome::TooMany:
    check(request.replaceAll && plan.spans.empty() && plan.replacements.empty());
    check(!toold::builtins::describeFailure(plan, "f").empty());
    break;
  case EditPlan::Outcome::NotFound:
    check(plan.spans.empty() && plan.replacements.empty());
    check(!toold::builtins::describeFailure(plan, "f").empty());
    break;
  }
  return 0;
}
