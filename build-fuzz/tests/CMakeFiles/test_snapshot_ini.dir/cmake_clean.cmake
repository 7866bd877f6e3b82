file(REMOVE_RECURSE
  "CMakeFiles/test_snapshot_ini.dir/unit/test_snapshot_ini.c.o"
  "CMakeFiles/test_snapshot_ini.dir/unit/test_snapshot_ini.c.o.d"
  "test_snapshot_ini"
  "test_snapshot_ini.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_snapshot_ini.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
