// Fuzz target for tool input validation: a schema and a value, as two JSON texts separated by the
// first newline. Whatever they are, validation (defaults first, as for a call) ends within its
// budget with a consistent answer, never an exception or a crash; and it answers the same twice.
#include "core/schema/json_schema.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using toold::core::CompiledSchema;
using toold::core::json;
using toold::core::SchemaError;
using toold::core::ValidationBudget;
using Status = CompiledSchema::Checked::Status;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\n');
  if (split == std::string_view::npos) return 0;
  const json document = json::parse(input.substr(0, split), nullptr, false);
  const json value = json::parse(input.substr(split + 1), nullptr, false);
  if (document.is_discarded() || value.is_discarded()) return 0;
  std::shared_ptr<const CompiledSchema> schema;
  try {
    schema = CompiledSchema::compile(document);
  } catch (const SchemaError&) {
    return 0;
  }
  // Steps only (no wall-clock bound, which would make the answer depend on the machine's load).
  // Few of them: a step does not count valijson's own bookkeeping (the error context it copies in
  // anyOf), so under a fuzzer's instrumentation 500,000 steps of an exponential schema took over
  // 20 s; toold's clock bounds that in the daemon (3 s), and this target checks the verdicts.
  const ValidationBudget budget{50'000, std::chrono::hours(1), {}};
  json decoded = value;
  const auto first = schema->decode(decoded, budget);
  if ((first.status == Status::Valid) != first.issues.empty()) std::abort();
  if (first.status == Status::Cancelled) std::abort();  // nothing cancels it
  json again = value;
  const auto second = schema->decode(again, budget);
  if (second.status != first.status || second.issues != first.issues || again != decoded) std::abort();
  return 0;
}
