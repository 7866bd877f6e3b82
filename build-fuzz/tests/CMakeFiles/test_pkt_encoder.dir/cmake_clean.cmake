file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_encoder.dir/unit/test_pkt_encoder.c.o"
  "CMakeFiles/test_pkt_encoder.dir/unit/test_pkt_encoder.c.o.d"
  "test_pkt_encoder"
  "test_pkt_encoder.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_encoder.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
