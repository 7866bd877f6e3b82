file(REMOVE_RECURSE
  "CMakeFiles/test_tfo_capture.dir/unit/test_tfo_capture.c.o"
  "CMakeFiles/test_tfo_capture.dir/unit/test_tfo_capture.c.o.d"
  "test_tfo_capture"
  "test_tfo_capture.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tfo_capture.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
