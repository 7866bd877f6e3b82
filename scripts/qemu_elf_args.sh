#!/bin/sh
# Print the --elf options pft record --qemu-log needs for a dynamically
# linked Linux program: the program, its ELF interpreter and every shared
# object it mapped executable, each with the base it was loaded at.
#
#   qemu-arm -L SYSROOT -singlestep -d exec,nochain,page -strace -D LOG PROGRAM ARGS...
#   pft record --qemu-log LOG $(scripts/qemu_elf_args.sh LOG PROGRAM SYSROOT) -o DIR
#
# It reads what -d page and -strace add to the log: "start_code" (where the
# program's first segment went), "entry" (the interpreter's entry point, for
# a dynamically linked program) and, for each shared object, the openat()
# that returned its file descriptor and the executable mmap2() of it and the
# address that call returned.  Paths in the log are the program's own; they
# are looked up under SYSROOT (the -L of qemu-arm) first.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 LOG PROGRAM SYSROOT" >&2; exit 2; }
LOG=$1 PROG=$2 ROOT=$3
READELF=readelf
command -v "$READELF" >/dev/null 2>&1 || READELF=arm-linux-gnueabihf-readelf

first_load() { "$READELF" -lW "$1" | awk '$1 == "LOAD" { print $3; exit }'; }
entry_of() { "$READELF" -hW "$1" | awk '/Entry point address/ { print $4 }'; }
host_path() { if [ -e "$ROOT$1" ]; then echo "$ROOT$1"; else echo "$1"; fi; }
hex() { printf '0x%x' "$1"; }

start=$(awk '$1 == "start_code" { print $2; exit }' "$LOG")
[ -n "$start" ] || { echo "$0: no start_code in $LOG: run qemu-arm with -d page" >&2; exit 1; }
echo "--elf $PROG@$(hex $((start - $(first_load "$PROG"))))"

interp=$("$READELF" -lW "$PROG" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
if [ -n "$interp" ]; then
	ip=$(host_path "$interp")
	entry=$(awk '$1 == "entry" { print $2; exit }' "$LOG")
	echo "--elf $ip@$(hex $((entry - $(entry_of "$ip"))))"
fi

awk '
	/ openat\(/ && / = [0-9]+$/ {
		p = $0; sub(/^[^"]*"/, "", p); sub(/".*/, "", p); fd[$NF] = p }
	/ mmap2\(/ && /PROT_EXEC/ {
		a = $0; sub(/.*mmap2\(/, "", a); split(a, f, ",");
		if (f[5] in fd) want = fd[f[5]] }
	want != "" && /^ = 0x/ { print want, $2; want = "" }
' "$LOG" | while read -r path base; do
	hp=$(host_path "$path")
	echo "--elf $hp@$(hex $((base - $(first_load "$hp"))))"
done
