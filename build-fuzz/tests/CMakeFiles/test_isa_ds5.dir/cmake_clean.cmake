file(REMOVE_RECURSE
  "CMakeFiles/test_isa_ds5.dir/unit/test_isa_ds5.c.o"
  "CMakeFiles/test_isa_ds5.dir/unit/test_isa_ds5.c.o.d"
  "test_isa_ds5"
  "test_isa_ds5.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_isa_ds5.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
