file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_trace.dir/unit/test_ptm_trace.c.o"
  "CMakeFiles/test_ptm_trace.dir/unit/test_ptm_trace.c.o.d"
  "test_ptm_trace"
  "test_ptm_trace.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_trace.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
