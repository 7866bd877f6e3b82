file(REMOVE_RECURSE
  "CMakeFiles/test_tfo_sync.dir/unit/test_tfo_sync.c.o"
  "CMakeFiles/test_tfo_sync.dir/unit/test_tfo_sync.c.o.d"
  "test_tfo_sync"
  "test_tfo_sync.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tfo_sync.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
