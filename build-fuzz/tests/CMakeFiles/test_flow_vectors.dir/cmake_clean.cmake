file(REMOVE_RECURSE
  "CMakeFiles/test_flow_vectors.dir/unit/test_flow_vectors.c.o"
  "CMakeFiles/test_flow_vectors.dir/unit/test_flow_vectors.c.o.d"
  "test_flow_vectors"
  "test_flow_vectors.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_flow_vectors.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
