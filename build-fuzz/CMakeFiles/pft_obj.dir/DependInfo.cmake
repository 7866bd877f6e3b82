
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/tfo/src/common/config.c" "CMakeFiles/pft_obj.dir/src/common/config.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/common/config.c.o.d"
  "/work/wt/tfo/src/common/errors.c" "CMakeFiles/pft_obj.dir/src/common/errors.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/common/errors.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_capture.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_codec.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_gen.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_sync.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
