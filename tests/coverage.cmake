# pft coverage against independent references (scripts in tests/scripts/coverage_*;
# see each script's header): the emulator's log and objdump, lcov/genhtml,
# gcov on qemu-arm runs, DS-5's decode of TC2, and the AutoFDO tools.
foreach(t coverage_emu coverage_gcov coverage_autofdo)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/scripts/${t}.sh)
    add_test(NAME ${t} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/${t}.sh)
    set_tests_properties(${t} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endforeach()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/scripts/coverage_tc2.py)
  add_test(NAME coverage_tc2 COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/coverage_tc2.py)
  set_tests_properties(coverage_tc2 PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
