#include "builtins/files/file_sniff.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

using namespace std::string_literals;
using toold::builtins::FileClass;
using toold::builtins::similarNames;
using toold::builtins::sniffFile;
using toold::testing::TempDir;

namespace {

const std::string kPng = "\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s;
const std::string kJpeg = "\xFF\xD8\xFF\xE0\0\x10JFIF"s;
// A BMP file header (14 bytes) and the start of a 40-byte BITMAPINFOHEADER.
const std::string kBmp = "BM\x46\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0"s;

toold::builtins::FileSniff sniff(const std::string& name, const std::string& head) { return sniffFile(name, head, head.size()); }

void touch(const std::filesystem::path& path) { std::ofstream(path).put('x'); }

} // namespace

TEST_CASE("file sniff: media is recognised by its magic bytes", "[files]") {
  struct Case {
    std::string name, head, mime;
  };
  const std::vector<Case> cases = {
      {"a.png", kPng, "image/png"},
      {"a.jpg", kJpeg, "image/jpeg"},
      {"a.JPEG", kJpeg, "image/jpeg"},
      {"a.gif", "GIF87a\x01\0\x01\0"s, "image/gif"},
      {"a.gif", "GIF89a\x01\0\x01\0"s, "image/gif"},
      {"a.webp", "RIFF\x24\0\0\0WEBPVP8 "s, "image/webp"},
      {"a.bmp", kBmp, "image/bmp"},
      {"a.pdf", "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", "application/pdf"},
      {"picture.txt", kPng, "image/png"},   // magic wins over a text extension
      {"no_extension", kJpeg, "image/jpeg"},
      {"a.png", kJpeg, "image/jpeg"},       // and over the wrong image extension
  };
  for (const auto& c : cases) {
    CAPTURE(c.name, c.mime);
    auto result = sniff(c.name, c.head);
    CHECK(result.kind == FileClass::Media);
    CHECK(result.mime == c.mime);
  }
}

TEST_CASE("file sniff: an image extension without its magic is binary", "[files]") {
  auto png = sniff("broken.png", "this is not a png");
  CHECK(png.kind == FileClass::Binary);
  CHECK(png.reason == "not a valid PNG image");
  CHECK(sniff("broken.JPG", "nope").reason == "not a valid JPEG image");
  CHECK(sniff("broken.webp", "RIFF\x24\0\0\0WAVEfmt "s).reason == "not a valid WEBP image");
  CHECK(sniff("broken.pdf", "").reason == "not a valid PDF document");
  CHECK(sniff("short.bmp", "BM").reason == "not a valid BMP image");
  CHECK(sniff("empty.png", "").kind == FileClass::Binary);
}

TEST_CASE("file sniff: binary extensions come first", "[files]") {
  auto wasm = sniff("module.wasm", "\0asm\x01\0\0\0"s);
  CHECK(wasm.kind == FileClass::Binary);
  CHECK(wasm.reason == "extension .wasm");
  CHECK(sniff("image.dat", kPng).kind == FileClass::Binary); // even with PNG magic
  CHECK(sniff("ARCHIVE.ZIP", "PK").reason == "extension .zip");
  CHECK(sniff("lib.so", "hello").kind == FileClass::Binary);
}

TEST_CASE("file sniff: NUL bytes and control bytes make a file binary", "[files]") {
  auto nul = sniff("notes.txt", "hello\0world"s);
  CHECK(nul.kind == FileClass::Binary);
  CHECK(nul.reason == "NUL byte at 5");

  // 4 of 10 bytes are control bytes: 40% > 30%.
  auto control = sniff("data.txt", "\x01\x02\x03\x1F" "abcdef");
  CHECK(control.kind == FileClass::Binary);
  CHECK(control.reason == "40% control bytes");
  // 3 of 10: exactly 30% is still text; tabs, newlines, form feeds and CR are not control bytes.
  CHECK(sniff("data.txt", "\x01\x02\x03" "abcdefg").kind == FileClass::Text);
  CHECK(sniff("data.txt", "\t\n\v\f\r\t\n\v\f\r").kind == FileClass::Text);
  CHECK(sniff("data.txt", "\x1B[31mred\x1B[0m").kind == FileClass::Text);
}

TEST_CASE("file sniff: control bytes are counted right in a long head, every byte value included", "[files]") {
  // 4,000 bytes: `controls` of them control bytes (cycling through all 26), the rest cycling
  // through every other value but NUL, so bytes above 0x7F and the allowed 9..13 are met too.
  const std::string controlValues = [] {
    std::string values;
    for (int b = 1; b < 32; ++b)
      if (b < 9 || b >= 14) values += static_cast<char>(b);
    return values;
  }();
  std::string others;
  for (int b = 9; b < 256; ++b)
    if (b < 14 || b >= 32) others += static_cast<char>(b);
  auto head = [&](std::size_t controls) {
    std::string bytes;
    for (std::size_t i = 0; i < 4000; ++i) { // `controls` of the 4,000 spread evenly
      const bool control = (i + 1) * controls / 4000 > i * controls / 4000;
      bytes += control ? controlValues[i % controlValues.size()] : others[i % others.size()];
    }
    return bytes;
  };
  CHECK(sniff("data.txt", head(1200)).kind == FileClass::Text); // exactly 30%
  auto binary = sniff("data.txt", head(1201));
  CHECK(binary.kind == FileClass::Binary);
  CHECK(binary.reason == "30% control bytes"); // 30.025%, rounded
  std::string dense(4000, '\x01');
  CHECK(sniff("data.txt", dense).reason == "100% control bytes"); // every lane past 255 without overflow
}

TEST_CASE("file sniff: text stays text", "[files]") {
  CHECK(sniff("readme.md", "# Title\n\nSome text.\n").kind == FileClass::Text);
  // Multibyte UTF-8 (bytes >= 0x80) is not binary.
  CHECK(sniff("greek.txt", "\xCE\xB1\xCE\xB2\xCE\xB3 \xE2\x82\xAC \xF0\x9F\x98\x80").kind == FileClass::Text);
  CHECK(sniff("icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>").kind == FileClass::Text);
  CHECK(sniff("schema.fbs", "table Monster { hp: short; }").kind == FileClass::Text);
  CHECK(sniff("empty.txt", "").kind == FileClass::Text);
  CHECK(sniffFile("empty", "", 0).kind == FileClass::Text);
  // A text that happens to start with "BM" is not a bitmap.
  CHECK(sniff("cars.txt", "BMW and BMX are brand names, not images.").kind == FileClass::Text);
  auto text = sniff("main.cpp", "int main() {}\n");
  CHECK(text.mime.empty());
  CHECK(text.reason.empty());
}

TEST_CASE("file sniff: similar names suggest typo fixes", "[files]") {
  TempDir dir("file_sniff");
  for (const char* name : {"config.yaml", "config.yml", "readme.md", "unrelated.txt"})
    touch(dir.path() / name);
  CHECK(similarNames(dir.path(), "confg.yaml") ==
        std::vector<std::filesystem::path>{dir.path() / "config.yaml", dir.path() / "config.yml"});
  CHECK(similarNames(dir.path(), "readme.md").empty()); // the exact name is not a suggestion
  CHECK(similarNames(dir.path(), "readme").front() == dir.path() / "readme.md"); // contained
}

TEST_CASE("file sniff: similar names compare case-insensitively", "[files]") {
  TempDir dir("file_sniff");
  touch(dir.path() / "README.md");
  touch(dir.path() / "Makefile");
  CHECK(similarNames(dir.path(), "readme.md") == std::vector<std::filesystem::path>{dir.path() / "README.md"});
  CHECK(similarNames(dir.path(), "makefil") == std::vector<std::filesystem::path>{dir.path() / "Makefile"});
}

TEST_CASE("file sniff: similar names give at most max, best first", "[files]") {
  TempDir dir("file_sniff");
  for (const char* name : {"file5.txt", "file1.txt", "file3.txt", "file2.txt", "file4.txt", "fle.txt"})
    touch(dir.path() / name);
  // fle.txt is one deletion away (distance 1), like the numbered ones; ties go by name.
  CHECK(similarNames(dir.path(), "file.txt") ==
        std::vector<std::filesystem::path>{dir.path() / "file1.txt", dir.path() / "file2.txt", dir.path() / "file3.txt"});
  CHECK(similarNames(dir.path(), "file.txt", 5).size() == 5);
  CHECK(similarNames(dir.path(), "file.txt", 10).size() == 6);
  CHECK(similarNames(dir.path(), "file3.txt", 1) == std::vector<std::filesystem::path>{dir.path() / "file1.txt"});
}

TEST_CASE("file sniff: similar names can be none", "[files]") {
  TempDir dir("file_sniff");
  touch(dir.path() / "alpha.txt");
  CHECK(similarNames(dir.path(), "zzzzzzzzzzzz").empty());
  CHECK(similarNames(dir.path(), "").empty());
  CHECK(similarNames(dir.path() / "missing", "alpha.txt").empty());
  CHECK(similarNames(dir.path(), "alpha.txt", 0).empty());
}
