file(REMOVE_RECURSE
  "CMakeFiles/test_frame_roundtrip.dir/unit/test_frame_roundtrip.c.o"
  "CMakeFiles/test_frame_roundtrip.dir/unit/test_frame_roundtrip.c.o.d"
  "test_frame_roundtrip"
  "test_frame_roundtrip.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_frame_roundtrip.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
