file(REMOVE_RECURSE
  "CMakeFiles/example_irq"
  "irq.elf"
  "irq.irq.o"
  "irq.start.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_irq.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
