# Hostile input (issue 14): bad files, bad options and bad snapshots given to
# the pft commands (scripts/hostile_cli.sh: exit status and one clear message
# naming the file), memory dumps that cost only what is touched and the
# image map built in n log n (scripts/hostile_image.py).
find_program(PYTHON3 python3)
if(PYTHON3)
  add_test(NAME hostile_image
           COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/hostile_image.py)
  set_tests_properties(hostile_image PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
endif()
add_test(NAME hostile_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/hostile_cli.sh)
set_tests_properties(hostile_cli PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
# pft record refuses executions that cannot happen (defect 1): real plain
# and qemu logs damaged line by line (scripts/hostile_record.py).
if(PYTHON3)
  add_test(NAME hostile_record
           COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/hostile_record.py)
  set_tests_properties(hostile_record PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 300)
endif()
