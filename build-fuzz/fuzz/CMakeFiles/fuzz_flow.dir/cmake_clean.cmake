file(REMOVE_RECURSE
  "CMakeFiles/fuzz_flow.dir/fuzz_flow.c.o"
  "CMakeFiles/fuzz_flow.dir/fuzz_flow.c.o.d"
  "fuzz_flow"
  "fuzz_flow.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_flow.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
