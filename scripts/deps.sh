#!/bin/sh
# Install what pft needs to build and test on Debian 12 (run as root or with sudo).
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
	build-essential cmake pkg-config clang libclang-rt-14-dev \
	libcapstone-dev libelf-dev libdw-dev libunicorn-dev \
	libopencsd-dev libopencsd-bin \
	gcc-arm-none-eabi libnewlib-arm-none-eabi gcc-arm-linux-gnueabihf qemu-user \
	python3 >/dev/null
# A Debian armhf program for the pft record end-to-end test (tests/scripts/record_qemu_busybox.sh)
"$(dirname "$0")/fetch_busybox_armhf.sh" || echo "deps: busybox armhf not fetched; its test will be skipped" >&2
