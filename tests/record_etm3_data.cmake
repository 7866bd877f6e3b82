# ETMv3 data trace: tests/programs/memops.c (ARM and Thumb-2) and four
# example programs recorded with --data-trace address, value and both under
# several ETMv3 configurations; decode equal to the emulator's instruction
# log, data packets equal to its access log, OpenCSD's packets compared
# where it reads them (tests/scripts/record_etm3_data.py, doc/etm3.md).
find_program(PFT_ARM_CC arm-none-eabi-gcc)
if(PFT_ARM_CC AND UNICORN_FOUND)
  set(PFT_MEMOPS_FLAGS -mcpu=cortex-a15 -mfloat-abi=soft -O2 -g -ffreestanding
      -fno-builtin -fno-stack-protector -fno-pic -fno-unwind-tables
      -fno-asynchronous-unwind-tables -Wall -Wextra -I${CMAKE_SOURCE_DIR}/examples)
  set(PFT_MEMOPS_LINK -nostdlib -nostartfiles -static -Wl,-T,${CMAKE_SOURCE_DIR}/examples/link.ld
      -Wl,--build-id=none -Wl,-z,max-page-size=0x1000 -lgcc)
  set(PFT_MEMOPS_ELFS "")
  foreach(mode arm thumb)
    set(elf ${CMAKE_CURRENT_BINARY_DIR}/memops_${mode}.elf)
    add_custom_command(OUTPUT ${elf}
      COMMAND ${PFT_ARM_CC} ${PFT_MEMOPS_FLAGS} -m${mode} ${CMAKE_SOURCE_DIR}/examples/start.S
              ${CMAKE_CURRENT_SOURCE_DIR}/programs/memops.c ${PFT_MEMOPS_LINK} -o ${elf}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/programs/memops.c ${CMAKE_SOURCE_DIR}/examples/start.S
              ${CMAKE_SOURCE_DIR}/examples/link.ld ${CMAKE_SOURCE_DIR}/examples/examples.h
      VERBATIM)
    list(APPEND PFT_MEMOPS_ELFS ${elf})
  endforeach()
  add_custom_target(memops_programs ALL DEPENDS ${PFT_MEMOPS_ELFS})
  add_test(NAME record_etm3_data
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/record_etm3_data.py ${PFT_MEMOPS_ELFS})
  set_tests_properties(record_etm3_data PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
