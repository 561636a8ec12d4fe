#include "core/output/output_budget.h"

namespace toold::core {

BoundingLimits roomLeft(const BoundingLimits& budget, std::string_view frame, std::size_t joinLines) {
  const TextMeasure measure = measureText(frame);
  const std::size_t lines = measure.lines + joinLines;
  return BoundingLimits{budget.maxLines > lines ? budget.maxLines - lines : 0,
                        budget.maxBytes > measure.bytes ? budget.maxBytes - measure.bytes : 0};
}

std::size_t decimalDigits(std::uint64_t value) {
  std::size_t digits = 1;
  while (value >= 10) {
    value /= 10;
    ++digits;
  }
  return digits;
}

std::string widestNumber(std::size_t digits) { return std::string(digits == 0 ? 1 : digits, '9'); }

std::string budgetSize(std::size_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KB";
  return std::to_string(bytes) + " bytes";
}

} // namespace toold::core
