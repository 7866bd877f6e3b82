file(REMOVE_RECURSE
  "CMakeFiles/test_flow_tc2.dir/unit/test_flow_tc2.c.o"
  "CMakeFiles/test_flow_tc2.dir/unit/test_flow_tc2.c.o.d"
  "test_flow_tc2"
  "test_flow_tc2.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_flow_tc2.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
