file(REMOVE_RECURSE
  "CMakeFiles/example_interwork"
  "interwork.elf"
  "interwork.interwork_arm.o"
  "interwork.interwork_thumb.o"
  "interwork.start.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_interwork.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
