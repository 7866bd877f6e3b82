# ETMv3 packet layer: TC2's three ETMv3.5 streams against OpenCSD's
# trc_pkt_lister (run at test time), and pft dump's listing of them.
# Included by tests/CMakeLists.txt.
find_program(PFT_PYTHON3 python3)
if(NOT PFT_PYTHON3)
  set(PFT_PYTHON3 python3)
endif()
add_executable(etm3_dump ${CMAKE_CURRENT_SOURCE_DIR}/scripts/etm3_dump.c)
target_link_libraries(etm3_dump PRIVATE pft_static)
# TC2's three ETMv3 sources, each: the packets against OpenCSD's
# trc_pkt_lister and pft dump's listing; the instruction flow against
# OpenCSD's decode (trc_pkt_lister -decode); the commands above the flow
# (profile, decode --stats, coverage) against DS-5's instruction rows.
foreach(id 0x10 0x11 0x12)
  add_test(NAME etm3_oracle_tc2_${id}
           COMMAND ${PFT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/etm3_oracle.py
                   $<TARGET_FILE:etm3_dump> ${PFT_DATA_DIR}/TC2 --id ${id}
                   --pft $<TARGET_FILE:pft>)
  add_test(NAME etm3_decode_oracle_tc2_${id}
           COMMAND ${PFT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/etm3_decode_oracle.py
                   $<TARGET_FILE:etm3_dump> ${PFT_DATA_DIR}/TC2 --id ${id})
  add_test(NAME etm3_tools_oracle_tc2_${id}
           COMMAND ${PFT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/etm3_tools_oracle.py
                   $<TARGET_FILE:pft> ${PFT_DATA_DIR}/TC2 --id ${id})
  set_tests_properties(etm3_oracle_tc2_${id} etm3_decode_oracle_tc2_${id}
                       etm3_tools_oracle_tc2_${id} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       TIMEOUT 120)
endforeach()
add_test(NAME etm3_decode_tc2
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/etm3_decode.sh $<TARGET_FILE:pft>
                 ${PFT_DATA_DIR})
set_tests_properties(etm3_decode_tc2 PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
