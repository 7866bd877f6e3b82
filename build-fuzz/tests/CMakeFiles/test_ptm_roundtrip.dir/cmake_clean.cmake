file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_roundtrip.dir/unit/test_ptm_roundtrip.c.o"
  "CMakeFiles/test_ptm_roundtrip.dir/unit/test_ptm_roundtrip.c.o.d"
  "test_ptm_roundtrip"
  "test_ptm_roundtrip.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_roundtrip.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
