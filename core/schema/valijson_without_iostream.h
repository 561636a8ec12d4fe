// Included before any valijson header. valijson's exceptions.hpp and schema_parser.hpp include
// <iostream> for a std::cerr that only a build without exceptions uses (toold requires
// VALIJSON_USE_EXCEPTIONS). A translation unit that includes <iostream> gives the program a
// static std::ios_base::Init, which builds the eight standard streams and the whole classic
// locale (every facet, narrow and wide) before main: 0.7 ms of CPU and 25 page faults a start,
// measured on a program that does nothing else. Marking <iostream> as included already keeps it
// out; <istream> and <ostream>, which declare everything but the standard stream objects, are
// included instead. Should a libstdc++ name its guard otherwise, <iostream> is included as
// before and only the start-up cost comes back (the test layering/toold_no_iostream_init says so).
#pragma once

#include <istream>
#include <ostream>

#ifndef _GLIBCXX_IOSTREAM
#define _GLIBCXX_IOSTREAM 1
#endif
