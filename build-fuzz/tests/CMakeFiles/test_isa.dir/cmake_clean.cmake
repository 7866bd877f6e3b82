file(REMOVE_RECURSE
  "CMakeFiles/test_isa.dir/unit/test_isa.c.o"
  "CMakeFiles/test_isa.dir/unit/test_isa.c.o.d"
  "test_isa"
  "test_isa.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_isa.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
