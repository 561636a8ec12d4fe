// Measuring a schema without recursion: an explicit stack of (value, depth).
#include "core/schema/schema_limits.h"

#include <string>
#include <utility>
#include <vector>

namespace toold::core {

void checkSchemaSize(const json& document) {
  std::vector<std::pair<const json*, std::size_t>> pending{{&document, 1}};
  std::size_t values = 0;
  std::size_t stringBytes = 0;
  while (!pending.empty()) {
    const auto [value, depth] = pending.back();
    pending.pop_back();
    if (++values > SchemaLimits::kMaxValues)
      throw SchemaError("The schema has more than " + std::to_string(SchemaLimits::kMaxValues) +
                        " JSON values; toold accepts at most " + std::to_string(SchemaLimits::kMaxValues));
    if (depth > SchemaLimits::kMaxDepth)
      throw SchemaError("The schema is nested more than " + std::to_string(SchemaLimits::kMaxDepth) +
                        " levels deep; toold accepts at most " + std::to_string(SchemaLimits::kMaxDepth));
    if (value->is_string()) stringBytes += value->get_ref<const std::string&>().size();
    if (value->is_object()) {
      for (auto it = value->begin(); it != value->end(); ++it) {
        stringBytes += it.key().size();
        pending.emplace_back(&it.value(), depth + 1);
      }
    } else if (value->is_array()) {
      for (const json& item : *value) pending.emplace_back(&item, depth + 1);
    }
    if (stringBytes > SchemaLimits::kMaxStringBytes)
      throw SchemaError("The schema's strings and keys take more than " +
                        std::to_string(SchemaLimits::kMaxStringBytes / (1024 * 1024)) +
                        " MiB; toold accepts at most " + std::to_string(SchemaLimits::kMaxStringBytes / (1024 * 1024)) +
                        " MiB");
  }
}

namespace {

thread_local const char* compileStackBase = nullptr;

const char* frameAddress() { return static_cast<const char*>(__builtin_frame_address(0)); }

}  // namespace

CompileStackGuard::CompileStackGuard() : previous_(compileStackBase) {
  if (compileStackBase == nullptr) compileStackBase = frameAddress();
}

CompileStackGuard::~CompileStackGuard() { compileStackBase = previous_; }

void checkCompileStack() {
  const char* frame = frameAddress();
  if (compileStackBase != nullptr && frame < compileStackBase &&
      static_cast<std::size_t>(compileStackBase - frame) > SchemaLimits::kMaxCompileStackBytes)
    throw SchemaError("The schema's subschemas and \"$ref\"s lead through more levels than toold follows (its "
                      "compiler's stack would pass " +
                      std::to_string(SchemaLimits::kMaxCompileStackBytes / (1024 * 1024)) +
                      " MiB); shorten the chains of \"$ref\"s");
}

}  // namespace toold::core
