# pft record: execution sources, examples and the end-to-end round trips
# (scripts in tests/scripts/record_*; see each script's header).  The
# building blocks of src/record/ are unit-tested by tests/unit/test_record.c.
foreach(t record_emu_oracle record_roundtrip record_cli record_qemu_busybox record_qemu_dynamic)
  add_test(NAME ${t} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/${t}.sh)
  set_tests_properties(${t} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
