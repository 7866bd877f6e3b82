#!/bin/sh
# Check that every header, library and tool the build and the tests use is
# installed; name the Debian package of each one that is missing. Exit 1 if
# any is missing.
missing=0
need() { # need KIND WHAT PACKAGE
	case $1 in
	tool)   command -v "$2" >/dev/null 2>&1 ;;
	header) [ -f "/usr/include/$2" ] || [ -f "/usr/include/x86_64-linux-gnu/$2" ] ;;
	pc)     pkg-config --exists "$2" 2>/dev/null ;;
	file)   [ -e "$2" ] ;;
	esac || { echo "check_deps: missing $1 $2 (Debian package $3)" >&2; missing=1; }
}
need tool cc build-essential
need tool make build-essential
need tool cmake cmake
need tool pkg-config pkg-config
need tool git git
need tool clang clang
need tool ld.lld lld
need tool python3 python3
need pc capstone libcapstone-dev
need pc libelf libelf-dev
need pc libdw libdw-dev
need pc unicorn libunicorn-dev
need header opencsd/c_api/opencsd_c_api.h libopencsd-dev
need tool trc_pkt_lister libopencsd-bin
need file /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
need tool arm-none-eabi-gcc gcc-arm-none-eabi
need file /usr/lib/arm-none-eabi/newlib libnewlib-arm-none-eabi
need tool arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf
need header ../arm-linux-gnueabihf/include/stdio.h libc6-dev-armhf-cross
need tool qemu-arm qemu-user
need tool lcov lcov
need tool genhtml lcov
need tool valgrind valgrind
need tool callgrind_annotate valgrind
need tool create_llvm_prof autofdo
need tool llvm-profdata llvm
need tool dpkg-buildpackage dpkg-dev
need tool dh debhelper
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "check_deps: missing python module jsonschema (Debian package python3-jsonschema)" >&2; missing=1; }
[ $missing -eq 0 ] && echo "check_deps: every build and test dependency is installed"
exit $missing
