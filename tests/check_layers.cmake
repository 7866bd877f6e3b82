# One-way dependencies: no file of a clean layer uses a file that uses it
# back, and no layer uses a higher one (scripts/check_layers.py, which reads
# the library's object files with nm).  The self-test proves the check can
# fail: it must catch a cycle and an upward use in tiny files of its own.
find_program(PFT_LAYERS_PYTHON3 python3)
find_program(PFT_LAYERS_NM nm)
if(PFT_LAYERS_PYTHON3 AND PFT_LAYERS_NM)
  set(PFT_LAYERS_OBJECTS "$<JOIN:$<TARGET_OBJECTS:pft_obj>,|>")
  if(TARGET pft_record)
    string(APPEND PFT_LAYERS_OBJECTS "|$<JOIN:$<TARGET_OBJECTS:pft_record>,|>")
  endif()
  add_test(NAME check_layers
           COMMAND ${PFT_LAYERS_PYTHON3} ${CMAKE_SOURCE_DIR}/scripts/check_layers.py
                   --src ${CMAKE_SOURCE_DIR}/src --objects "${PFT_LAYERS_OBJECTS}")
  add_test(NAME check_layers_selftest
           COMMAND ${PFT_LAYERS_PYTHON3} ${CMAKE_SOURCE_DIR}/scripts/check_layers.py --self-test)
  set_tests_properties(check_layers_selftest PROPERTIES ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
endif()
