file(REMOVE_RECURSE
  "CMakeFiles/example_itblock"
  "itblock.elf"
  "itblock.itblock.o"
  "itblock.start.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_itblock.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
