#include "builtins/shell/terminal_text.h"

#include "builtins/text/ascii_run.h"

namespace toold::builtins {

namespace {

constexpr unsigned char kEsc = 0x1B;
constexpr unsigned char kBel = 0x07;
constexpr unsigned char kBackspace = 0x08;
constexpr unsigned char kCan = 0x18;
constexpr unsigned char kSub = 0x1A;
constexpr unsigned char kDel = 0x7F;

bool isContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

/// The length a lead byte announces; 1 for ASCII and for bytes that cannot lead a sequence.
std::size_t announcedLength(unsigned char lead) {
  if (lead >= 0xC0 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF7) return 4;
  return 1;
}

/// Bytes that go into the line as they are: printable ASCII, '\t' and everything >= 0x80.
bool isPlain(unsigned char byte) { return (byte >= 0x20 && byte != kDel) || byte == '\t'; }

} // namespace

TerminalCleaner::TerminalCleaner(std::size_t maxLineBytes) : maxLineBytes_(maxLineBytes) {}

std::size_t TerminalCleaner::feed(std::string_view raw, std::string& out) {
  std::size_t lines = 0;
  const char* at = raw.data();
  const char* const end = at + raw.size();
  while (at < end) {
    // Plain text is most of any output: copy runs of it at once instead of byte by byte.
    if (state_ == State::Text) {
      const char* run = at;
      while (run < end && isPlain(static_cast<unsigned char>(*run))) ++run;
      if (run != at) {
        appendBytes(at, static_cast<std::size_t>(run - at));
        at = run;
        continue;
      }
      // The controls text drops (a binary stream is mostly such bytes: a megabyte of NULs took
      // 6 ms a byte at a time through step), skipped sixteen at a time.
      run = at + silentControlRunEnd(at, 0, static_cast<std::size_t>(end - at));
      if (run != at) {
        at = run;
        continue;
      }
    }
    if (step(static_cast<unsigned char>(*at), out)) ++lines;
    ++at;
  }
  return lines;
}

void TerminalCleaner::finish(std::string& out) {
  if (!line_.empty() || lineCutBytes_ > 0) {
    out += line_;
    if (lineCutBytes_ > 0) out += " [\u2026 " + std::to_string(lineCutBytes_) + " bytes cut]";
  }
  line_.clear();
  lineCutBytes_ = 0;
  state_ = State::Text;
  oscMayEndWithBel_ = false;
}

/// One byte outside a plain run; returns whether it ended a line.
bool TerminalCleaner::step(unsigned char byte, std::string& out) {
  switch (state_) {
  case State::Text:
    return text(byte, out);
  case State::CarriageReturn:
    if (byte == '\r') return false;
    state_ = State::Text;
    if (byte != '\n') {
      line_.clear();
      lineCutBytes_ = 0;
    }
    return text(byte, out);
  case State::Escape:
    return escape(byte, out);
  case State::Csi:
    if (byte >= 0x40 && byte <= 0x7E) {
      state_ = State::Text;
      return false;
    }
    if ((byte >= 0x20 && byte <= 0x3F) || byte == kDel) return false;
    state_ = State::Text;
    return text(byte, out);
  case State::String:
    if (byte == kBel && oscMayEndWithBel_) {
      state_ = State::Text;
    } else if (byte == kEsc) {
      state_ = State::StringEscape;
    } else if (byte == '\n' || byte == kCan || byte == kSub) {
      state_ = State::Text;
      return text(byte, out);
    }
    return false;
  case State::StringEscape:
    if (byte == '\\') {
      state_ = State::Text;
      return false;
    }
    // Any other ESC x ends the string and is itself an escape sequence, as in a terminal.
    return escape(byte, out);
  case State::Charset:
    state_ = State::Text;
    if (byte < 0x20 || byte >= kDel) return text(byte, out);
    return false;
  }
  return false;
}

bool TerminalCleaner::text(unsigned char byte, std::string& out) {
  switch (byte) {
  case '\n':
    commitLine(out);
    return true;
  case '\r':
    state_ = State::CarriageReturn;
    return false;
  case kEsc:
    state_ = State::Escape;
    return false;
  case kBackspace:
    eraseLastCharacter();
    return false;
  default:
    if (isPlain(byte)) {
      const char c = static_cast<char>(byte);
      appendBytes(&c, 1);
    }
    return false;
  }
}

/// The byte after an ESC.
bool TerminalCleaner::escape(unsigned char byte, std::string& out) {
  switch (byte) {
  case '[':
    state_ = State::Csi;
    return false;
  case ']':
    state_ = State::String;
    oscMayEndWithBel_ = true;
    return false;
  case 'P':
  case 'X':
  case '^':
  case '_':
    state_ = State::String;
    oscMayEndWithBel_ = false;
    return false;
  case '(':
  case ')':
  case '*':
  case '+':
    state_ = State::Charset;
    return false;
  case kEsc:
    state_ = State::Escape;
    return false;
  default:
    state_ = State::Text;
    if (byte < 0x20 || byte >= kDel) return text(byte, out);
    return false;
  }
}

void TerminalCleaner::commitLine(std::string& out) {
  out += line_;
  if (lineCutBytes_ > 0) out += " [\u2026 " + std::to_string(lineCutBytes_) + " bytes cut]";
  out += '\n';
  line_.clear();
  lineCutBytes_ = 0;
}

void TerminalCleaner::appendBytes(const char* bytes, std::size_t count) {
  if (lineCutBytes_ > 0) {
    lineCutBytes_ += count;
    return;
  }
  const std::size_t room = maxLineBytes_ - line_.size();
  if (count <= room) {
    line_.append(bytes, count);
    return;
  }
  line_.append(bytes, room);
  lineCutBytes_ = count - room;
  // A character split by the cut goes to the cut part whole, so the kept part stays valid.
  std::size_t lead = line_.size();
  while (lead > 0 && line_.size() - lead < 3 && isContinuation(static_cast<unsigned char>(line_[lead - 1]))) --lead;
  if (lead > 0) {
    --lead;
    const std::size_t length = announcedLength(static_cast<unsigned char>(line_[lead]));
    if (length > line_.size() - lead) {
      lineCutBytes_ += line_.size() - lead;
      line_.resize(lead);
    }
  }
}

void TerminalCleaner::eraseLastCharacter() {
  // What was cut is not in line_, so the character to erase is not there either.
  if (lineCutBytes_ > 0 || line_.empty()) return;
  std::size_t lead = line_.size() - 1;
  std::size_t continuations = 0;
  while (lead > 0 && continuations < 3 && isContinuation(static_cast<unsigned char>(line_[lead]))) {
    --lead;
    ++continuations;
  }
  if (announcedLength(static_cast<unsigned char>(line_[lead])) == continuations + 1) {
    line_.resize(lead);
  } else {
    line_.pop_back(); // not a well-formed character: erase one byte
  }
}

std::string cleanTerminalText(std::string_view raw, std::size_t maxLineBytes) {
  TerminalCleaner cleaner(maxLineBytes);
  std::string out;
  out.reserve(raw.size());
  cleaner.feed(raw, out);
  cleaner.finish(out);
  return out;
}

} // namespace toold::builtins
