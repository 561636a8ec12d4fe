#include "protocol/params_error.h"

namespace toold::protocol {

namespace {
const json kEmptyObject = json::object();
}

ParamsReader::ParamsReader(const json& value, std::string path, bool nullIsEmpty)
    : value_(value.is_null() && nullIsEmpty ? kEmptyObject : value), path_(std::move(path)) {
  if (!value_.is_object()) throw ParamsError((path_.empty() ? std::string("params") : path_) + ": must be an object");
}

bool ParamsReader::has(std::string_view key) const {
  auto it = value_.find(key);
  return it != value_.end() && !it->is_null();
}

std::string ParamsReader::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void ParamsReader::fail(std::string_view key, std::string_view what) const {
  throw ParamsError(pathOf(key) + ": " + std::string(what));
}

const json& ParamsReader::require(std::string_view key) const {
  auto it = value_.find(key);
  if (it == value_.end() || it->is_null()) fail(key, "is required");
  return *it;
}

std::string ParamsReader::requireString(std::string_view key, bool allowEmpty) const {
  const json& v = require(key);
  if (!v.is_string()) fail(key, "must be a string");
  auto s = v.get<std::string>();
  if (!allowEmpty && s.empty()) fail(key, "must not be empty");
  return s;
}

std::optional<std::string> ParamsReader::optionalString(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const json& v = value_.at(std::string(key));
  if (!v.is_string()) fail(key, "must be a string");
  return v.get<std::string>();
}

std::optional<bool> ParamsReader::optionalBool(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const json& v = value_.at(std::string(key));
  if (!v.is_boolean()) fail(key, "must be a boolean");
  return v.get<bool>();
}

std::optional<std::uint64_t> ParamsReader::optionalUnsigned(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const json& v = value_.at(std::string(key));
  if (!v.is_number_unsigned()) fail(key, "must be a non-negative integer");
  return v.get<std::uint64_t>();
}

} // namespace toold::protocol
