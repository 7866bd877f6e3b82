file(REMOVE_RECURSE
  "CMakeFiles/pft.dir/tools/pft/cmd_decode.c.o"
  "CMakeFiles/pft.dir/tools/pft/cmd_decode.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/cmd_dump.c.o"
  "CMakeFiles/pft.dir/tools/pft/cmd_dump.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/cmd_tfo.c.o"
  "CMakeFiles/pft.dir/tools/pft/cmd_tfo.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/cmd_version.c.o"
  "CMakeFiles/pft.dir/tools/pft/cmd_version.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/decode_disasm.c.o"
  "CMakeFiles/pft.dir/tools/pft/decode_disasm.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/decode_out.c.o"
  "CMakeFiles/pft.dir/tools/pft/decode_out.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/decode_syms.c.o"
  "CMakeFiles/pft.dir/tools/pft/decode_syms.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/input.c.o"
  "CMakeFiles/pft.dir/tools/pft/input.c.o.d"
  "CMakeFiles/pft.dir/tools/pft/main.c.o"
  "CMakeFiles/pft.dir/tools/pft/main.c.o.d"
  "pft"
  "pft.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pft.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
