# Installation: cmake --install into a temporary prefix and an out-of-tree
# program built with pkg-config (tests/scripts/package_install.sh; with
# PFT_TEST_DEB=1 in the environment it also runs dpkg-buildpackage).
add_test(NAME package_install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/package_install.sh)
# A sanitizer build installs a sanitized libpft: the out-of-tree program is
# built with the same compiler and sanitizer flags.
set(PFT_PACKAGE_ENV ${PFT_TEST_ENV} "PFT_TEST_CC=${CMAKE_C_COMPILER}")
if(PFT_SANITIZE)
  list(APPEND PFT_PACKAGE_ENV "PFT_TEST_CFLAGS=-fsanitize=address,undefined")
endif()
set_tests_properties(package_install PROPERTIES ENVIRONMENT "${PFT_PACKAGE_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
