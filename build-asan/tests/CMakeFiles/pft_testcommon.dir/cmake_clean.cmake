file(REMOVE_RECURSE
  "CMakeFiles/pft_testcommon.dir/common/check.c.o"
  "CMakeFiles/pft_testcommon.dir/common/check.c.o.d"
  "libpft_testcommon.a"
  "libpft_testcommon.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pft_testcommon.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
