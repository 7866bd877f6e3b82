file(REMOVE_RECURSE
  "CMakeFiles/test_frame.dir/unit/test_frame.c.o"
  "CMakeFiles/test_frame.dir/unit/test_frame.c.o.d"
  "test_frame"
  "test_frame.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_frame.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
