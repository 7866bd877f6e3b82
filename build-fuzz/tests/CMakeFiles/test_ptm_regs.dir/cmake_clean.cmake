file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_regs.dir/unit/test_ptm_regs.c.o"
  "CMakeFiles/test_ptm_regs.dir/unit/test_ptm_regs.c.o.d"
  "test_ptm_regs"
  "test_ptm_regs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_regs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
