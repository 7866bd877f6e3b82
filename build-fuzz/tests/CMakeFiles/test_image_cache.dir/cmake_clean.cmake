file(REMOVE_RECURSE
  "CMakeFiles/test_image_cache.dir/unit/test_image_cache.c.o"
  "CMakeFiles/test_image_cache.dir/unit/test_image_cache.c.o.d"
  "test_image_cache"
  "test_image_cache.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_image_cache.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
