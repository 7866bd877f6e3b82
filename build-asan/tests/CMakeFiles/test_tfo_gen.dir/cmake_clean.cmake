file(REMOVE_RECURSE
  "CMakeFiles/test_tfo_gen.dir/unit/test_tfo_gen.c.o"
  "CMakeFiles/test_tfo_gen.dir/unit/test_tfo_gen.c.o.d"
  "test_tfo_gen"
  "test_tfo_gen.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tfo_gen.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
