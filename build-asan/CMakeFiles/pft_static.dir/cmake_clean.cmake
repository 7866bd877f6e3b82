file(REMOVE_RECURSE
  "libpft.a"
  "libpft.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pft_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
