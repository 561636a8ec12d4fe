// The edit matcher's limits: the size of an edit's result and the number of places it replaces,
// both decided before anything is built.
#include "builtins/edit/edit_matcher.h"

#include <catch2/catch.hpp>

#include <string>

using toold::builtins::describeFailure;
using toold::builtins::EditPlan;
using toold::builtins::EditRequest;
using toold::builtins::planEdit;
using Outcome = EditPlan::Outcome;

TEST_CASE("edit matcher: a replaceAll whose result would pass the limit is TooLarge, built no further", "[edit]") {
  // 64 KiB of "a", each replaced by 1,000 "b": 64 MB if built.
  const std::string text(64 * 1024, 'a');
  const std::string newString(1000, 'b');
  constexpr std::size_t limit = 1 << 20;
  const EditPlan tooLarge = planEdit(EditRequest{text, "a", newString, true, limit});
  CHECK(tooLarge.outcome == Outcome::TooLarge);
  CHECK(tooLarge.replacements.empty());
  CHECK(tooLarge.spans.empty());
  CHECK(tooLarge.resultBytes > limit);
  CHECK(tooLarge.resultBytes < limit + newString.size()); // stopped at the first replacement past it
  CHECK(tooLarge.maxResultBytes == limit);
  CHECK(describeFailure(tooLarge, "/w/a.txt") ==
        "The edit would make /w/a.txt larger than 1 MiB (at least " + std::to_string(tooLarge.resultBytes) +
            " bytes), the limit for an edit's result; nothing was changed. Replace fewer occurrences, or make changes "
            "this large with the shell.");
  // Exactly at the limit is allowed, and so is a shrinking edit of a text already over it.
  const std::string exact(1024, 'a');
  const EditPlan atLimit = planEdit(EditRequest{exact, "a", "bb", true, 2048});
  CHECK(atLimit.outcome == Outcome::Applied);
  CHECK(atLimit.replacements.size() == 1024);
  CHECK(planEdit(EditRequest{exact, "a", "bb", true, 2047}).outcome == Outcome::TooLarge);
  CHECK(planEdit(EditRequest{exact, "aa", "a", true, 100}).outcome == Outcome::TooLarge); // 512 bytes > 100
  CHECK(planEdit(EditRequest{exact, "aa", "a", true, 512}).outcome == Outcome::Applied);
}

TEST_CASE("edit matcher: a step stops collecting past kMaxEditMatches, and replaceAll is then TooMany", "[edit]") {
  using toold::builtins::kMaxEditMatches;
  const std::string atLimit(kMaxEditMatches, 'a');
  const EditPlan applied = planEdit(EditRequest{atLimit, "a", "b", true});
  CHECK(applied.outcome == Outcome::Applied);
  CHECK(applied.spans.size() == kMaxEditMatches);

  // One more occurrence than an edit may replace: refused before a replacement is built.
  const std::string overLimit(kMaxEditMatches + 1, 'a');
  const EditPlan tooMany = planEdit(EditRequest{overLimit, "a", "b", true});
  CHECK(tooMany.outcome == Outcome::TooMany);
  CHECK(tooMany.spans.empty());
  CHECK(tooMany.replacements.empty());
  CHECK_THAT(describeFailure(tooMany, "big.txt"),
             Catch::StartsWith("oldString occurs more than 100000 times in big.txt"));

  // Without replaceAll it is ambiguous, and the spans kept stop one past the limit.
  const std::string huge(4 * kMaxEditMatches, 'a');
  const EditPlan ambiguous = planEdit(EditRequest{huge, "a", "b", false});
  CHECK(ambiguous.outcome == Outcome::Ambiguous);
  CHECK(ambiguous.spans.size() == kMaxEditMatches + 1);
  CHECK_THAT(describeFailure(ambiguous, "big.txt"), Catch::StartsWith("Found more than 100000 matches"));

  // Line steps stop too: 100,001 lines matching a line-level find (trailing spaces differ).
  std::string lines;
  for (std::size_t i = 0; i <= kMaxEditMatches; ++i) lines += "x \n";
  CHECK(planEdit(EditRequest{lines, "x\n", "y\n", true}).outcome == Outcome::TooMany);
}
