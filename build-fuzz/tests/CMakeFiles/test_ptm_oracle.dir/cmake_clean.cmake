file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_oracle.dir/unit/test_ptm_oracle.c.o"
  "CMakeFiles/test_ptm_oracle.dir/unit/test_ptm_oracle.c.o.d"
  "test_ptm_oracle"
  "test_ptm_oracle.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_oracle.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
