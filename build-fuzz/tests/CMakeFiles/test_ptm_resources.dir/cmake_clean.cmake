file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_resources.dir/unit/test_ptm_resources.c.o"
  "CMakeFiles/test_ptm_resources.dir/unit/test_ptm_resources.c.o.d"
  "test_ptm_resources"
  "test_ptm_resources.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_resources.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
