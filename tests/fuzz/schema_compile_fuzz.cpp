// Fuzz target for schema registration: any JSON text as a schema. Compiling must succeed or throw
// SchemaError (never another exception, a crash or a hang, however deep or large the document),
// and a compiled schema must validate a few plain values within a small budget without throwing.
#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"

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

void checkConsistent(const CompiledSchema::Checked& checked) {
  // Valid exactly when there is nothing to say; a refusal always says why.
  if ((checked.status == Status::Valid) != checked.issues.empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return 0;
  std::shared_ptr<const CompiledSchema> schema;
  try {
    toold::core::SchemaCache cache(0);  // the registry's path: the cache measures and dumps first
    schema = cache.get(document);
  } catch (const SchemaError&) {
    return 0;
  }
  const ValidationBudget budget{200'000, std::chrono::seconds(1), {}};
  for (const json& value : {json(nullptr), json::object(), json::array(), json(""), json(0), json(1.5),
                            json{{"a", 1}, {"b", {1, "x", nullptr}}}, json{1, 1, 2}}) {
    json filled = value;
    checkConsistent(schema->decode(filled, budget));
    checkConsistent(schema->check(value, budget));
  }
  return 0;
}
