file(REMOVE_RECURSE
  "CMakeFiles/example_switch"
  "switch.elf"
  "switch.start.o"
  "switch.switch.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_switch.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
