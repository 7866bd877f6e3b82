file(REMOVE_RECURSE
  "CMakeFiles/fuzz_snapshot.dir/fuzz_snapshot.c.o"
  "CMakeFiles/fuzz_snapshot.dir/fuzz_snapshot.c.o.d"
  "fuzz_snapshot"
  "fuzz_snapshot.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_snapshot.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
