#include "core/schema/schema_value_hash.h"

#include "core/schema/schema_budget.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

namespace toold::core::schema_detail {

using json = nlohmann::json;

std::size_t hashOf(const json& value) {
  ValidationMeter::charge(1);
  const auto mix = [](std::size_t seed, std::size_t hash) {
    return seed ^ (hash + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
  };
  std::size_t seed = static_cast<std::size_t>(value.type() == json::value_t::number_unsigned ||
                                                      value.type() == json::value_t::number_float
                                                  ? json::value_t::number_integer
                                                  : value.type());
  switch (value.type()) {
    case json::value_t::object:
      for (auto it = value.begin(); it != value.end(); ++it)
        seed = mix(mix(seed, std::hash<std::string>{}(it.key())), hashOf(it.value()));
      return seed;
    case json::value_t::array:
      for (const json& item : value) seed = mix(seed, hashOf(item));
      return seed;
    case json::value_t::string: {
      const std::string& text = value.get_ref<const std::string&>();
      ValidationMeter::charge(text.size() / kBytesPerStep);
      return mix(seed, std::hash<std::string>{}(text));
    }
    case json::value_t::boolean:
      return mix(seed, value.get<bool>() ? 1 : 0);
    case json::value_t::number_integer:
      return mix(seed, std::hash<std::int64_t>{}(value.get<std::int64_t>()));
    case json::value_t::number_unsigned: {
      const auto number = value.get<std::uint64_t>();
      return mix(seed, number <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                           ? std::hash<std::int64_t>{}(static_cast<std::int64_t>(number))
                           : std::hash<std::uint64_t>{}(number));
    }
    case json::value_t::number_float: {
      const double number = value.get<double>();
      // A whole number hashes as the integer it equals, so that 2.0 meets 2.
      if (std::trunc(number) == number && number >= -0x1p63 && number < 0x1p63)
        return mix(seed, std::hash<std::int64_t>{}(static_cast<std::int64_t>(number)));
      if (std::trunc(number) == number && number >= 0x1p63 && number < 0x1p64)
        return mix(seed, std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(number)));
      return mix(seed, std::hash<double>{}(number));
    }
    default:
      return seed;
  }
}

} // namespace toold::core::schema_detail
