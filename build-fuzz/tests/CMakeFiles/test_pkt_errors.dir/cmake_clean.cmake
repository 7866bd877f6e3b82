file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_errors.dir/unit/test_pkt_errors.c.o"
  "CMakeFiles/test_pkt_errors.dir/unit/test_pkt_errors.c.o.d"
  "test_pkt_errors"
  "test_pkt_errors.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_errors.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
