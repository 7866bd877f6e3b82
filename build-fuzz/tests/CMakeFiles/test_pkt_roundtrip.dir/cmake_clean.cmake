file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_roundtrip.dir/unit/test_pkt_roundtrip.c.o"
  "CMakeFiles/test_pkt_roundtrip.dir/unit/test_pkt_roundtrip.c.o.d"
  "test_pkt_roundtrip"
  "test_pkt_roundtrip.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_roundtrip.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
