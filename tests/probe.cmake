# pft probe: the repository's captures without their ini files, and captures
# written by pft record under random configurations (tests/scripts/probe_*).
add_test(NAME probe_captures COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/probe_captures.sh)
add_test(NAME probe_record COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/probe_record.py 40 1)
set_tests_properties(probe_captures probe_record PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME probe_record_etm3 COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/probe_record_etm3.py 40 1)
set_tests_properties(probe_record_etm3 PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" SKIP_RETURN_CODE 77
                     TIMEOUT 600)
