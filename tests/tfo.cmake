# pft tfo command-line checks (tests/scripts/tfo_cli.sh).
add_test(NAME tfo_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tfo_cli.sh)
set_tests_properties(tfo_cli PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 60)
