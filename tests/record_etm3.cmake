# pft record --protocol etm3: every example under fixed configurations and
# 40 random ETMv3 configurations, each recording's decode equal to the
# emulator's log, OpenCSD's decode equal to it too, cycle counts adding up
# (tests/scripts/record_etm3.py).
add_test(NAME record_etm3 COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/record_etm3.py 40 1)
set_tests_properties(record_etm3 PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
