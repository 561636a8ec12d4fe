#include "protocol/json_writer.h"

#include "protocol/json_string_scan.h"
#include "protocol/utf8_sequence.h"

#include <array>
#include <charconv>
#include <cstring>

namespace toold::protocol {
namespace {

// What a byte needs: 0 copies as it is, 1 is an ASCII byte written escaped, 2 starts (or is) a
// non-ASCII sequence to check.
constexpr std::array<std::uint8_t, 256> kByteClass = [] {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 1;
  table['"'] = 1;
  table['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) table[static_cast<std::size_t>(c)] = 2;
  return table;
}();

// The escape of each byte that needs one, and its length: for runs of them, written in one go.
struct Escape {
  char text[6];
  std::uint8_t size;
};
constexpr std::array<Escape, 256> kEscapes = [] {
  std::array<Escape, 256> table{};
  constexpr char hex[] = "0123456789abcdef";
  for (int c = 0; c < 0x20; ++c)
    table[static_cast<std::size_t>(c)] = Escape{{'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]}, 6};
  table['"'] = Escape{{'\\', '"'}, 2};
  table['\\'] = Escape{{'\\', '\\'}, 2};
  table['\b'] = Escape{{'\\', 'b'}, 2};
  table['\t'] = Escape{{'\\', 't'}, 2};
  table['\n'] = Escape{{'\\', 'n'}, 2};
  table['\f'] = Escape{{'\\', 'f'}, 2};
  table['\r'] = Escape{{'\\', 'r'}, 2};
  return table;
}();

// One escape. The newline, which a file's text has on every line, by a constant length.
void appendEscaped(std::string& out, unsigned char c) {
  if (c == '\n') {
    out.append("\\n", 2);
    return;
  }
  const Escape& escape = kEscapes[c];
  out.append(escape.text, escape.size);
}

// A run of bytes that all need escaping (a binary stream's NULs, a terminal's control bytes):
// room made once, each escape copied from the table. Appending them one by one cost ~6 ns a byte,
// 46 us for the 8 KiB of a command's live output. Returns where the run ends.
const unsigned char* appendEscapedRun(std::string& out, const unsigned char* at, const unsigned char* end) {
  const unsigned char* stop = at;
  while (stop < end && kByteClass[*stop] == 1) ++stop;
  const std::size_t base = out.size();
  out.resize(base + 6 * static_cast<std::size_t>(stop - at));
  char* write = out.data() + base;
  for (; at < stop; ++at) {
    const Escape& escape = kEscapes[*at];
    std::memcpy(write, escape.text, sizeof escape.text);
    write += escape.size;
  }
  out.resize(static_cast<std::size_t>(write - out.data()));
  return stop;
}

void appendNumber(std::string& out, auto value) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

} // namespace

void appendJsonString(std::string& out, std::string_view text) {
  // Room for the text as it is, at once: a long string (a file read) grew the answer a run at a
  // time, reallocating and copying it over and over.
  if (out.capacity() - out.size() < text.size() + 2) out.reserve(out.size() + text.size() + text.size() / 16 + 2);
  out += '"';
  const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = begin + text.size();
  const auto* at = begin;
  while (at < end) {
    const auto* run = at;
    at = plainStringRunEnd(at, end);
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(at - run));
    if (at == end) break;
    if (kByteClass[*at] == 1) {
      // One escape alone (the newline between a file's lines) is appended; a run is written at once.
      if (at + 1 == end || kByteClass[at[1]] != 1) appendEscaped(out, *at++);
      else at = appendEscapedRun(out, at, end);
      continue;
    }
    const int length = utf8SequenceAt(at, end);
    if (length > 0) {
      out.append(reinterpret_cast<const char*>(at), static_cast<std::size_t>(length));
      at += length;
    } else {
      out += "\xEF\xBF\xBD";
      at += -length;
    }
  }
  out += '"';
}

std::size_t jsonStringSize(std::string_view text) {
  const auto* at = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = at + text.size();
  std::size_t size = 2;
  while (at < end) {
    const auto* run = at;
    at = plainStringRunEnd(at, end);
    size += static_cast<std::size_t>(at - run);
    if (at == end) break;
    if (kByteClass[*at] == 1) {
      size += kEscapes[*at++].size;
      continue;
    }
    const int length = utf8SequenceAt(at, end);
    size += length > 0 ? static_cast<std::size_t>(length) : 3; // U+FFFD for an ill-formed one
    at += length > 0 ? length : -length;
  }
  return size;
}

void appendJsonStrings(std::string& out, const std::vector<std::string>& strings) {
  out += '[';
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (i > 0) out += ',';
    appendJsonString(out, strings[i]);
  }
  out += ']';
}

void appendJson(std::string& out, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
  case Type::object: {
    out += '{';
    bool first = true;
    for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
      if (!first) out += ',';
      first = false;
      appendJsonString(out, key);
      out += ':';
      appendJson(out, member);
    }
    out += '}';
    return;
  }
  case Type::array: {
    out += '[';
    bool first = true;
    for (const auto& element : value.get_ref<const nlohmann::json::array_t&>()) {
      if (!first) out += ',';
      first = false;
      appendJson(out, element);
    }
    out += ']';
    return;
  }
  case Type::string: appendJsonString(out, value.get_ref<const std::string&>()); return;
  case Type::boolean: out += value.get<bool>() ? "true" : "false"; return;
  case Type::number_integer: appendNumber(out, value.get<std::int64_t>()); return;
  case Type::number_unsigned: appendNumber(out, value.get<std::uint64_t>()); return;
  case Type::null: out += "null"; return;
  case Type::number_float:
  case Type::binary:
  case Type::discarded:
    // Rare in a reply, and nlohmann's shortest round-trip float format is what clients have seen.
    out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
}

std::size_t jsonSize(const nlohmann::json& value, std::size_t limit) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
  case Type::object: {
    const auto& members = value.get_ref<const nlohmann::json::object_t&>();
    std::size_t size = 2 + (members.empty() ? 0 : members.size() - 1); // braces, commas
    for (const auto& [key, member] : members) {
      size += jsonStringSize(key) + 1 + jsonSize(member, limit);
      if (size > limit) break;
    }
    return size;
  }
  case Type::array: {
    const auto& elements = value.get_ref<const nlohmann::json::array_t&>();
    std::size_t size = 2 + (elements.empty() ? 0 : elements.size() - 1);
    for (const auto& element : elements) {
      size += jsonSize(element, limit);
      if (size > limit) break;
    }
    return size;
  }
  case Type::string: return jsonStringSize(value.get_ref<const std::string&>());
  case Type::boolean: return value.get<bool>() ? 4 : 5;
  case Type::null: return 4;
  case Type::number_integer:
  case Type::number_unsigned:
  case Type::number_float:
  case Type::binary:
  case Type::discarded: {
    std::string written; // a number's few bytes: within the string's own buffer, no allocation
    appendJson(written, value);
    return written.size();
  }
  }
  return 0;
}

std::string writeJson(const nlohmann::json& value) {
  std::string out;
  appendJson(out, value);
  return out;
}

} // namespace toold::protocol
