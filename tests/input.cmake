# Unit test of the streaming input layer of the pft commands, compiled from
# the tool sources (they are not in libpft).
add_executable(test_input_tools ${CMAKE_CURRENT_SOURCE_DIR}/input_unit/test_input_tools.c
    ${CMAKE_SOURCE_DIR}/tools/pft/input.c)
target_include_directories(test_input_tools PRIVATE ${CMAKE_SOURCE_DIR}/tools/pft
                           ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(test_input_tools PRIVATE pft_testcommon)
add_test(NAME test_input_tools COMMAND test_input_tools)
set_tests_properties(test_input_tools PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
