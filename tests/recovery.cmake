# Damaged captures: bytes deleted from or inserted into TC2's framed ETB
# capture; the instructions recovered against the clean decode (frame
# realignment, gaps, resynchronisation at I-syncs).  The thresholds sit just
# below what is measured (doc/decode.md, "Damaged captures").
find_program(PFT_RECOVERY_PYTHON3 python3)
if(PFT_RECOVERY_PYTHON3)
  foreach(mode_min delete:97 insert:96)
    string(REPLACE ":" ";" mm ${mode_min})
    list(GET mm 0 mode)
    list(GET mm 1 min)
    add_test(NAME frame_recovery_${mode}
             COMMAND ${PFT_RECOVERY_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/frame_recovery.py
                     $<TARGET_FILE:pft> ${PFT_DATA_DIR} --mode ${mode} --seeds 20
                     --min-recovered ${min})
    set_tests_properties(frame_recovery_${mode} PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 300)
  endforeach()
endif()
