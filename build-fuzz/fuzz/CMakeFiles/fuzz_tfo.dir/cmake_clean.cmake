file(REMOVE_RECURSE
  "CMakeFiles/fuzz_tfo.dir/fuzz_tfo.c.o"
  "CMakeFiles/fuzz_tfo.dir/fuzz_tfo.c.o.d"
  "fuzz_tfo"
  "fuzz_tfo.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_tfo.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
