# pft profile / timeline / tail (scripts in tests/scripts/profile_*; see each
# script's header).
foreach(t profile_examples profile_tc2 profile_tail profile_qemu)
  add_test(NAME ${t} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/${t}.sh)
  set_tests_properties(${t} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
