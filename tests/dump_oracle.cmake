# pft dump against OpenCSD's trc_pkt_lister (run at test time) on the real
# traces, and pft dump on bad input.  Included by tests/CMakeLists.txt.
find_program(PFT_PYTHON3 python3)
if(NOT PFT_PYTHON3)
  set(PFT_PYTHON3 python3)
endif()
set(PFT_DUMP_ORACLE ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dump_oracle.py)
add_test(NAME dump_oracle_tc2
         COMMAND ${PFT_PYTHON3} ${PFT_DUMP_ORACLE} $<TARGET_FILE:pft>
                 ${PFT_DATA_DIR}/TC2 --id 0x13 --min-packets 1789)
add_test(NAME dump_oracle_cov
         COMMAND ${PFT_PYTHON3} ${PFT_DUMP_ORACLE} $<TARGET_FILE:pft>
                 ${PFT_DATA_DIR}/trace_cov_a15 --min-packets 11)
add_test(NAME dump_bad_input
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dump_bad_input.sh)
set_tests_properties(dump_oracle_tc2 dump_oracle_cov dump_bad_input PROPERTIES
                     ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
