# pft record: execution sources, examples and the end-to-end round trips.
add_test(NAME record_emu_oracle COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/record_emu_oracle.sh)
set_tests_properties(record_emu_oracle PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 300)
