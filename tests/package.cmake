# Installation: cmake --install into a temporary prefix and an out-of-tree
# program built with pkg-config (tests/scripts/package_install.sh; with
# PFT_TEST_DEB=1 in the environment it also runs dpkg-buildpackage).
add_test(NAME package_install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/package_install.sh)
set_tests_properties(package_install PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
