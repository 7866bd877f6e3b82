file(REMOVE_RECURSE
  "CMakeFiles/test_flow_rstack.dir/unit/test_flow_rstack.c.o"
  "CMakeFiles/test_flow_rstack.dir/unit/test_flow_rstack.c.o.d"
  "test_flow_rstack"
  "test_flow_rstack.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_flow_rstack.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
