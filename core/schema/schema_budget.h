// What one validation may spend, and the meter that enforces it. Validation cost depends on the
// client's data twice over: a schema of nested anyOf/allOf over "$ref"s doubles the work per level,
// and a value can be as large as a frame. So every validation (and every filling-in of defaults)
// runs against a budget of steps, counted where the work is done: one step per subschema applied
// to a value, plus one per member of the value it looks at, per key it compares, per item it
// hashes, per 64 bytes of a string it searches. Past the budget, or once the call is cancelled,
// the meter throws and the validation stops where it is; a wall-clock bound catches anything the
// steps underestimate.
#pragma once

#include "core/base/cancellation.h"

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace toold::core {

struct ValidationBudget {
  /// About a second of work on a slow machine for the worst schema: valijson applies some tens
  /// of thousands of subschemas per millisecond.
  static constexpr std::uint64_t kDefaultSteps = 20'000'000;
  static constexpr std::chrono::milliseconds kDefaultTime{3000};

  /// Stack a validation may use below where it started: valijson recurses once per subschema
  /// applied, and a chain of "$ref"s can be far longer than the value is deep. Half the 8 MiB a
  /// thread has (the reader's, a worker's), so that the validation stops before the stack does.
  static constexpr std::size_t kMaxStackBytes = 4 * 1024 * 1024;

  std::uint64_t steps = kDefaultSteps;
  std::chrono::steady_clock::duration time = kDefaultTime;
  /// Checked every few hundred steps; a cancelled validation stops soon after.
  CancellationToken cancellation;
};

namespace schema_detail {

/// A string costs one step per this many bytes it is scanned for (a length, a pattern, a copy).
inline constexpr std::size_t kBytesPerStep = 64;

/// Counts the steps of the validation running on this thread. Constructing one makes it the
/// thread's current meter until it is destroyed (validations nest: a keyed schema is validated
/// from inside another validation, on the same thread, against the same meter).
class ValidationMeter {
public:
  enum class Stop { OverBudget, Cancelled };
  /// Thrown through valijson by charge(); deliberately not a std::exception, so that nothing on
  /// the way mistakes it for a failure of the value.
  struct Stopped {
    Stop why;
  };

  explicit ValidationMeter(const ValidationBudget& budget);
  ~ValidationMeter();
  ValidationMeter(const ValidationMeter&) = delete;
  ValidationMeter& operator=(const ValidationMeter&) = delete;

  /// Charges the current meter of this thread, and checks how deep the stack is; free when there
  /// is none (a meter is always installed by CompiledSchema, so that only happens in tests of the
  /// parts). Throws Stopped.
  static void charge(std::uint64_t steps);

  std::uint64_t spent() const { return spent_; }

private:
  void spend(std::uint64_t steps, const char* frame);

  const ValidationBudget& budget_;
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t spent_ = 0;
  std::uint64_t nextCheck_ = 0;  // when to look at the clock and the token again
  const char* stackBase_;       // the frame that installed the meter; stacks grow down
  ValidationMeter* previous_;
};

}  // namespace schema_detail
}  // namespace toold::core
