// The size a schema may have. Compiling walks a schema recursively more than once (lowering,
// valijson's parser, the reference checks) and keeps a JSON pointer per subschema, so a schema
// nested 10,000 deep froze toold for seconds and then overflowed the stack. A schema is measured
// first, by a walk that keeps its own stack, and refused past these limits, which real tool
// schemas stay far below (the largest in common use are a few hundred subschemas, a dozen levels).
// They hold whatever the schema came from: a frame (itself bounded in depth by the protocol), a
// command tool's definition, a built-in.
#pragma once

#include "core/schema/schema_issue.h"

#include <cstddef>

namespace toold::core {

struct SchemaLimits {
  /// Levels of JSON nesting, the document itself being level 1: {"items": {"items": {}}} has 3.
  static constexpr std::size_t kMaxDepth = 128;
  /// JSON values of every kind, the document included (a key is not a value of its own).
  static constexpr std::size_t kMaxValues = 250'000;
  /// Bytes of every string and key, which the compiled schema keeps copies of.
  static constexpr std::size_t kMaxStringBytes = 4 * 1024 * 1024;
  /// Schemas applied one inside another to the same value ("$ref", allOf, anyOf, oneOf, not,
  /// if/then/else, dependencies): validation recurses through such a chain at once.
  static constexpr std::size_t kMaxChain = 512;

  /// Stack that compiling may use: valijson's parser follows each "$ref" into its target
  /// recursively, so a chain of 10,000 of them overflowed the stack of a schema only a few
  /// levels deep. Half the 8 MiB of a thread.
  static constexpr std::size_t kMaxCompileStackBytes = 4 * 1024 * 1024;
};

/// Throws SchemaError naming the limit the document is over. Linear time, constant stack.
void checkSchemaSize(const json& document);

/// Marks where a compilation starts on this thread, for checkCompileStack().
class CompileStackGuard {
public:
  CompileStackGuard();
  ~CompileStackGuard();
  CompileStackGuard(const CompileStackGuard&) = delete;
  CompileStackGuard& operator=(const CompileStackGuard&) = delete;

private:
  const char* previous_;
};

/// Called from inside the recursions of compiling (once per subschema); throws SchemaError when
/// the stack below the guard is deeper than kMaxCompileStackBytes. Free without a guard.
void checkCompileStack();

}  // namespace toold::core
