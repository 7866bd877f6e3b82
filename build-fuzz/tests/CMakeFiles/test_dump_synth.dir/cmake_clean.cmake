file(REMOVE_RECURSE
  "CMakeFiles/test_dump_synth.dir/unit/test_dump_synth.c.o"
  "CMakeFiles/test_dump_synth.dir/unit/test_dump_synth.c.o.d"
  "test_dump_synth"
  "test_dump_synth.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dump_synth.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
