file(REMOVE_RECURSE
  "CMakeFiles/example_funcptr"
  "funcptr.elf"
  "funcptr.funcptr.o"
  "funcptr.start.o"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/example_funcptr.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
