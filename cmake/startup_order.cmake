# toold's start-up code laid out together. A start runs ~1,250 functions (about 0.85 MiB of code)
# spread over the whole 8 MiB text: the kernel faults code in 64 KiB around each first touch, so a
# start took ~90 code faults and kept ~5.5 MiB of text resident. Each function compiled into a
# section of its own, and gold placing the sections daemon/startup.order names (what a start and a
# first session run, scripts/startup-order writes it) first, packs them into ~16 such windows.
# A name the file lists that no longer exists is skipped; a function it misses stays where the
# linker puts it: a stale order costs start-up time, never correctness.
# Off in sanitizer builds (their runtime's own start dwarfs it) and where gold is missing.
option(TOOLD_STARTUP_ORDER "Lay out toold's start-up code together (gold, daemon/startup.order)" ON)
set(TOOLD_STARTUP_ORDER_FILE "${PROJECT_SOURCE_DIR}/daemon/startup.order")
# A Release build (-O3: the benchmarks') inlines other functions and clones others (.constprop,
# .isra), so its start runs other names, listed in a file of their own: given the RelWithDebInfo
# list, gold packed only part of a Release start (its code spread over 7.4 MiB; 4.2 MiB private once
# initialized, against 2.7 for the build the list was made from).
if(CMAKE_BUILD_TYPE STREQUAL "Release" AND EXISTS "${PROJECT_SOURCE_DIR}/daemon/startup-release.order")
  set(TOOLD_STARTUP_ORDER_FILE "${PROJECT_SOURCE_DIR}/daemon/startup-release.order")
endif()
set(TOOLD_STARTUP_ORDER_ACTIVE OFF)
if(TOOLD_STARTUP_ORDER AND NOT TOOLD_SANITIZE AND NOT TOOLD_FUZZ AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND EXISTS "${TOOLD_STARTUP_ORDER_FILE}")
  find_program(TOOLD_GOLD_LINKER ld.gold)
  if(TOOLD_GOLD_LINKER)
    add_compile_options(-ffunction-sections)
    set(TOOLD_STARTUP_ORDER_ACTIVE ON)
  endif()
endif()

# Links `target` with the start-up order, when the build has it.
function(toold_order_startup target)
  if(TOOLD_STARTUP_ORDER_ACTIVE)
    target_link_options(${target} PRIVATE -fuse-ld=gold "-Wl,--section-ordering-file=${TOOLD_STARTUP_ORDER_FILE}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${TOOLD_STARTUP_ORDER_FILE}")
  endif()
endfunction()
