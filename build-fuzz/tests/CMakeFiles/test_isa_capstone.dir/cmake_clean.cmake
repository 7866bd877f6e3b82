file(REMOVE_RECURSE
  "CMakeFiles/test_isa_capstone.dir/unit/test_isa_capstone.c.o"
  "CMakeFiles/test_isa_capstone.dir/unit/test_isa_capstone.c.o.d"
  "test_isa_capstone"
  "test_isa_capstone.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_isa_capstone.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
