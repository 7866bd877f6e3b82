file(REMOVE_RECURSE
  "CMakeFiles/test_pkt_tables.dir/unit/test_pkt_tables.c.o"
  "CMakeFiles/test_pkt_tables.dir/unit/test_pkt_tables.c.o.d"
  "test_pkt_tables"
  "test_pkt_tables.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pkt_tables.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
