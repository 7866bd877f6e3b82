file(REMOVE_RECURSE
  "CMakeFiles/example_recursion"
  "recursion.elf"
  "recursion.recursion.o"
  "recursion.start.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_recursion.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
