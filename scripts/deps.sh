#!/bin/sh
# Install what pft needs to build and test on Debian 12 (run as root or with sudo),
# then check that every header, library and tool is there (scripts/check_deps.sh).
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# a mirror caught mid-sync fails some index files: the install below still
# works from the lists that did update (and fails, stopping here, if not)
$SUDO apt-get update -qq || echo "deps: apt-get update reported errors; installing from the package lists at hand" >&2
$SUDO apt-get install -y -qq --no-install-recommends \
	build-essential cmake pkg-config git clang lld llvm libclang-rt-14-dev \
	libcapstone-dev libelf-dev libdw-dev libunicorn-dev \
	libopencsd-dev libopencsd-bin \
	gcc-arm-none-eabi libnewlib-arm-none-eabi \
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user \
	python3 python3-jsonschema lcov valgrind autofdo \
	dpkg-dev debhelper fakeroot >/dev/null
# A Debian armhf program for the pft record end-to-end test (tests/scripts/record_qemu_busybox.sh)
"$(dirname "$0")/fetch_busybox_armhf.sh" || echo "deps: busybox armhf not fetched; its test will be skipped" >&2
"$(dirname "$0")/check_deps.sh"
