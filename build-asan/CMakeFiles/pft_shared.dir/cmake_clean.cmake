file(REMOVE_RECURSE
  "libpft.pdb"
  "libpft.so"
  "libpft.so.0"
  "libpft.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pft_shared.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
