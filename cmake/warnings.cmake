# One place for the warning policy: everything on, and every warning is an error.
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                    -Wcast-align -Woverloaded-virtual -Wconversion
                    -Wdouble-promotion -Wformat=2 -Werror)
# GCC 12's middle-end warnings misfire on libstdc++'s own string code once it is inlined at -O3
# (GCC bugs 105329 and 105651: "memcpy accessing 9223372036854775810 or more bytes" for a plain
# `"E" + std::to_string(n)`). They say nothing about toold's code, so they are off for that
# compiler; newer ones keep them.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-restrict -Wno-array-bounds -Wno-stringop-overflow)
endif()
