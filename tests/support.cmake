# Test-support library: helpers shared by several tests, compiled once
# (tests/support/*.c, declarations in tests/support/*.h): the packet test
# vectors, hex/decode helpers and configuration classes, the check of a
# decoder's _count against its _next, the random programs and reference
# decompressor of the software PTM tests, the PTM harness, the TC2 snapshot's
# PTM source, the parallel decode's driver and comparisons.  A unit test (or a
# benchmark, see bench/CMakeLists.txt) that includes one of its headers is
# linked with it; nothing to list here when a test starts using it.
file(GLOB PFT_TEST_SUPPORT CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/support/*.c)
add_library(pft_testsupport STATIC ${PFT_TEST_SUPPORT})
target_include_directories(pft_testsupport PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_compile_definitions(pft_testsupport PRIVATE PFT_SOURCE_DEFAULT="${CMAKE_SOURCE_DIR}")
target_link_libraries(pft_testsupport PUBLIC pft_testcommon)

# pft_link_testsupport(TARGET SOURCE): links TARGET with the library if
# SOURCE includes one of its headers.
function(pft_link_testsupport target src)
  file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR}/tests/support
       ${PROJECT_SOURCE_DIR}/tests/support/*.h)
  string(REPLACE ";" "|" re "${headers}")
  string(REPLACE "." "\\." re "${re}")
  file(STRINGS ${src} uses REGEX "^#include \"(${re})\"")
  if(uses AND TARGET ${target})
    target_link_libraries(${target} PRIVATE pft_testsupport)
  endif()
endfunction()

file(GLOB PFT_TEST_SUPPORT_USERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_*.c)
foreach(src ${PFT_TEST_SUPPORT_USERS})
  get_filename_component(name ${src} NAME_WE)
  pft_link_testsupport(${name} ${src})
endforeach()
