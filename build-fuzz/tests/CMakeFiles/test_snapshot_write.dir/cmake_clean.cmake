file(REMOVE_RECURSE
  "CMakeFiles/test_snapshot_write.dir/unit/test_snapshot_write.c.o"
  "CMakeFiles/test_snapshot_write.dir/unit/test_snapshot_write.c.o.d"
  "test_snapshot_write"
  "test_snapshot_write.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_snapshot_write.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
