file(REMOVE_RECURSE
  "CMakeFiles/fuzz_packet.dir/fuzz_packet.c.o"
  "CMakeFiles/fuzz_packet.dir/fuzz_packet.c.o.d"
  "fuzz_packet"
  "fuzz_packet.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_packet.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
