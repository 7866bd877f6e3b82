file(REMOVE_RECURSE
  "CMakeFiles/pft_obj.dir/src/common/config.c.o"
  "CMakeFiles/pft_obj.dir/src/common/config.c.o.d"
  "CMakeFiles/pft_obj.dir/src/common/errors.c.o"
  "CMakeFiles/pft_obj.dir/src/common/errors.c.o.d"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o.d"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o.d"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o.d"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o"
  "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pft_obj.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
