# TOOLD_SANITIZE=address;undefined or TOOLD_SANITIZE=thread builds everything instrumented
# (scripts/sanitize drives both).
set(TOOLD_SANITIZE "" CACHE STRING "Sanitizers to build with: 'address;undefined' or 'thread'")
if(TOOLD_SANITIZE)
  list(JOIN TOOLD_SANITIZE "," _toold_san)
  add_compile_options(-fsanitize=${_toold_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_toold_san})
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
