file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_decoder.dir/unit/test_pkt_decoder.c.o"
  "CMakeFiles/test_pkt_decoder.dir/unit/test_pkt_decoder.c.o.d"
  "test_pkt_decoder"
  "test_pkt_decoder.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_decoder.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
