file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_stream.dir/unit/test_pkt_stream.c.o"
  "CMakeFiles/test_pkt_stream.dir/unit/test_pkt_stream.c.o.d"
  "test_pkt_stream"
  "test_pkt_stream.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_stream.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
