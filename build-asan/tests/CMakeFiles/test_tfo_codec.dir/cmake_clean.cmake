file(REMOVE_RECURSE
  "CMakeFiles/test_tfo_codec.dir/unit/test_tfo_codec.c.o"
  "CMakeFiles/test_tfo_codec.dir/unit/test_tfo_codec.c.o.d"
  "test_tfo_codec"
  "test_tfo_codec.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tfo_codec.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
