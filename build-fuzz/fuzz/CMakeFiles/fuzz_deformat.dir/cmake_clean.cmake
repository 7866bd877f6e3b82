file(REMOVE_RECURSE
  "CMakeFiles/fuzz_deformat.dir/fuzz_deformat.c.o"
  "CMakeFiles/fuzz_deformat.dir/fuzz_deformat.c.o.d"
  "fuzz_deformat"
  "fuzz_deformat.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_deformat.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
