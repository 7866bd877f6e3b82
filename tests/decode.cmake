# pft decode against independent decoders, run at test time:
#  - ARM DS-5's decode of TC2 trace ID 0x13, row by row (decode_ds5.py);
#  - OpenCSD's trc_pkt_lister -decode on trace_cov_a15 and on TC2 ID 0x13:
#    the same instruction ranges (decode_opencsd.py).
#  - the output formats of pft decode (decode_cli.sh).
find_program(PYTHON3 python3)
if(PYTHON3)
  add_test(NAME decode_ds5_tc2
           COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_ds5.py
                   $<TARGET_FILE:pft> ${PFT_DATA_DIR}/TC2 0x13
                   ${PFT_DATA_DIR}/TC2/ds5-dumps/ptmv1_0x13.txt)
  set_tests_properties(decode_ds5_tc2 PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
  if(TRC_PKT_LISTER)
    add_test(NAME decode_opencsd_cov
             COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_opencsd.py
                     $<TARGET_FILE:pft> ${PFT_DATA_DIR}/trace_cov_a15)
    add_test(NAME decode_opencsd_tc2
             COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_opencsd.py
                     $<TARGET_FILE:pft> ${PFT_DATA_DIR}/TC2 0x13)
    set_tests_properties(decode_opencsd_cov decode_opencsd_tc2 PROPERTIES
                         ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
  endif()
endif()
add_test(NAME decode_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_cli.sh)
set_tests_properties(decode_cli PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
