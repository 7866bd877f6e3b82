file(REMOVE_RECURSE
  "CMakeFiles/fuzz_isa.dir/fuzz_isa.c.o"
  "CMakeFiles/fuzz_isa.dir/fuzz_isa.c.o.d"
  "fuzz_isa"
  "fuzz_isa.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_isa.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
