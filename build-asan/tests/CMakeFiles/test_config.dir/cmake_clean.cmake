file(REMOVE_RECURSE
  "CMakeFiles/test_config.dir/unit/test_config.c.o"
  "CMakeFiles/test_config.dir/unit/test_config.c.o.d"
  "test_config"
  "test_config.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_config.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
