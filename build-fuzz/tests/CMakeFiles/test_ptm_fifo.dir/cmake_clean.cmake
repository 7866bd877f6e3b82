file(REMOVE_RECURSE
  "CMakeFiles/test_ptm_fifo.dir/unit/test_ptm_fifo.c.o"
  "CMakeFiles/test_ptm_fifo.dir/unit/test_ptm_fifo.c.o.d"
  "test_ptm_fifo"
  "test_ptm_fifo.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptm_fifo.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
