
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/tfo/tools/pft/cmd_decode.c" "CMakeFiles/pft.dir/tools/pft/cmd_decode.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/cmd_decode.c.o.d"
  "/work/wt/tfo/tools/pft/cmd_dump.c" "CMakeFiles/pft.dir/tools/pft/cmd_dump.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/cmd_dump.c.o.d"
  "/work/wt/tfo/tools/pft/cmd_record.c" "CMakeFiles/pft.dir/tools/pft/cmd_record.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/cmd_record.c.o.d"
  "/work/wt/tfo/tools/pft/cmd_tfo.c" "CMakeFiles/pft.dir/tools/pft/cmd_tfo.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/cmd_tfo.c.o.d"
  "/work/wt/tfo/tools/pft/cmd_version.c" "CMakeFiles/pft.dir/tools/pft/cmd_version.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/cmd_version.c.o.d"
  "/work/wt/tfo/tools/pft/decode_disasm.c" "CMakeFiles/pft.dir/tools/pft/decode_disasm.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/decode_disasm.c.o.d"
  "/work/wt/tfo/tools/pft/decode_out.c" "CMakeFiles/pft.dir/tools/pft/decode_out.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/decode_out.c.o.d"
  "/work/wt/tfo/tools/pft/decode_syms.c" "CMakeFiles/pft.dir/tools/pft/decode_syms.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/decode_syms.c.o.d"
  "/work/wt/tfo/tools/pft/input.c" "CMakeFiles/pft.dir/tools/pft/input.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/input.c.o.d"
  "/work/wt/tfo/tools/pft/main.c" "CMakeFiles/pft.dir/tools/pft/main.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/main.c.o.d"
  "/work/wt/tfo/tools/pft/record_cycles.c" "CMakeFiles/pft.dir/tools/pft/record_cycles.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_cycles.c.o.d"
  "/work/wt/tfo/tools/pft/record_elf.c" "CMakeFiles/pft.dir/tools/pft/record_elf.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_elf.c.o.d"
  "/work/wt/tfo/tools/pft/record_emu.c" "CMakeFiles/pft.dir/tools/pft/record_emu.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_emu.c.o.d"
  "/work/wt/tfo/tools/pft/record_log.c" "CMakeFiles/pft.dir/tools/pft/record_log.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_log.c.o.d"
  "/work/wt/tfo/tools/pft/record_pipe.c" "CMakeFiles/pft.dir/tools/pft/record_pipe.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_pipe.c.o.d"
  "/work/wt/tfo/tools/pft/record_util.c" "CMakeFiles/pft.dir/tools/pft/record_util.c.o" "gcc" "CMakeFiles/pft.dir/tools/pft/record_util.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt/tfo/build-fuzz/CMakeFiles/pft_static.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
