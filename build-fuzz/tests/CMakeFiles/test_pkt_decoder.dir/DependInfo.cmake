
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/tfo/tests/unit/test_pkt_decoder.c" "tests/CMakeFiles/test_pkt_decoder.dir/unit/test_pkt_decoder.c.o" "gcc" "tests/CMakeFiles/test_pkt_decoder.dir/unit/test_pkt_decoder.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt/tfo/build-fuzz/tests/CMakeFiles/pft_testcommon.dir/DependInfo.cmake"
  "/work/wt/tfo/build-fuzz/CMakeFiles/pft_static.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
