# pft record: execution sources, examples and the end-to-end round trips
# (scripts in tests/scripts/record_*; see each script's header).
foreach(t record_emu_oracle record_roundtrip record_cli record_qemu_busybox record_qemu_dynamic)
  add_test(NAME ${t} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/${t}.sh)
  set_tests_properties(${t} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

# Unit test of the record building blocks, compiled from the tool sources
# (they are not in libpft).
add_executable(test_record_tools ${CMAKE_CURRENT_SOURCE_DIR}/record_unit/test_record_tools.c
    ${CMAKE_SOURCE_DIR}/tools/pft/record_util.c ${CMAKE_SOURCE_DIR}/tools/pft/record_cycles.c
    ${CMAKE_SOURCE_DIR}/tools/pft/record_log.c ${CMAKE_SOURCE_DIR}/tools/pft/record_pipe.c
    ${CMAKE_SOURCE_DIR}/tools/pft/record_elf.c)
target_include_directories(test_record_tools PRIVATE ${CMAKE_SOURCE_DIR}/tools/pft)
target_link_libraries(test_record_tools PRIVATE pft_testcommon)
add_test(NAME test_record_tools COMMAND test_record_tools)
set_tests_properties(test_record_tools PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 60)
