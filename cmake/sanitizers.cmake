# TOOLD_SANITIZE=address;undefined or TOOLD_SANITIZE=thread builds everything instrumented
# (scripts/sanitize drives both).
set(TOOLD_SANITIZE "" CACHE STRING "Sanitizers to build with: 'address;undefined' or 'thread'")
if(TOOLD_SANITIZE)
  list(JOIN TOOLD_SANITIZE "," _toold_san)
  # -O1: the sanitizers' own advice for a usable speed. At -O0 the instrumented suite ran ~6× its
  # plain time, nlohmann's templates above all; -O1 keeps stacks readable and asserts on (no NDEBUG).
  add_compile_options(-O1 -fsanitize=${_toold_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_toold_san})
  # GCC's maybe-uninitialized is known to misfire on instrumented code once it optimises (at -O1 it
  # flags libstdc++'s own <regex>, which valijson uses); the plain build keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  if(TOOLD_SANITIZE MATCHES "thread")
    # Asio's fenced blocks use atomic_thread_fence, which TSan does not model; harmless here.
    add_compile_options(-Wno-tsan)
  endif()
endif()

# TOOLD_FUZZ=ON builds the libFuzzer targets in tests/fuzz (clang only; scripts/fuzz sets it up).
option(TOOLD_FUZZ "Build libFuzzer targets (clang)" OFF)
if(TOOLD_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
