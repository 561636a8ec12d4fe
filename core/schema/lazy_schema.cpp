#include "core/schema/lazy_schema.h"

#include <spdlog/spdlog.h>

namespace toold::core {

LazySchema::LazySchema(std::shared_ptr<const CompiledSchema> schema) : compiled_(std::move(schema)) {
  done_ = true;
}

LazySchema::LazySchema(std::shared_ptr<const std::string> text, std::string_view member)
    : text_(std::move(text)), member_(member) {}

std::shared_ptr<const CompiledSchema> LazySchema::get() const {
  if (!text_) return compiled_;
  std::call_once(once_, [this] {
    try {
      const json definition = json::parse(*text_);
      compiled_ = CompiledSchema::compile(definition.at(std::string(member_)));
    } catch (const std::exception& e) {
      spdlog::error("a registered {} could not be compiled at its first use, and is not validated: {}", member_, e.what());
    }
    done_ = true;
  });
  return compiled_;
}

bool LazySchema::compiled() const { return done_.load(); }

} // namespace toold::core
