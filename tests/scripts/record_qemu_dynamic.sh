#!/bin/sh
# A dynamically linked Linux program under qemu-arm: most of what runs is
# Debian's armhf ld.so and libc (from gcc-arm-linux-gnueabihf's sysroot),
# loaded at addresses chosen at run time.  scripts/qemu_elf_args.sh reads the
# bases from the log (-d page, -strace) and pft record maps each object
# there (--elf FILE@BASE); pft decode of the recorded trace and OpenCSD's
# decode must give back exactly the instructions qemu logged.
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}"
ROOT=/usr/arm-linux-gnueabihf
if ! command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || ! command -v qemu-arm >/dev/null 2>&1 ||
   [ ! -e "$ROOT/lib/libc.so.6" ]; then
	echo "SKIP: needs arm-linux-gnueabihf-gcc, its sysroot and qemu-arm"; exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
int main(void)
{
	char buf[64], *words[200];
	int i;
	for (i = 0; i < 200; i++) {
		snprintf(buf, sizeof buf, "w%d-%x", (i * 7919) % 1000, i * 31);
		words[i] = strdup(buf);
	}
	qsort(words, 200, sizeof words[0], cmp);
	printf("%s %s %zu\n", words[0], words[199], strlen(words[100]));
	return 0;
}
C
arm-linux-gnueabihf-gcc -O2 -o "$T/prog" "$T/prog.c"
qemu-arm -L "$ROOT" -singlestep -d exec,nochain,page -strace -D "$T/q.log" "$T/prog" > "$T/out"
args=$(sh "$PFT_SOURCE/scripts/qemu_elf_args.sh" "$T/q.log" "$T/prog" "$ROOT")
echo "mapped: $(echo $args)"
awk '/^Trace / { s = $0; sub(/.*\[/, "", s); split(s, f, "/"); d = substr(f[1], 3, 1);
                 printf "%s %s\n", f[2], (d ~ /[89a-f]/ ? "T32" : "A32") }' "$T/q.log" > "$T/expected"
# shellcheck disable=SC2086
"$PFT_BIN" record --qemu-log "$T/q.log" $args -o "$T/snap" --log "$T/rec" --return-stack
"$PFT_BIN" decode "$T/snap" --format addrs > "$T/decoded"
n=$(wc -l < "$T/expected")
fail=0
if cmp -s "$T/expected" "$T/rec" && cmp -s "$T/expected" "$T/decoded" && [ "$n" -gt 100000 ]; then
	echo "ok   dynamically linked program: $n instructions (ld.so, libc) recorded and decoded exactly"
else
	echo "FAIL: $n logged, $(wc -l < "$T/rec") recorded, $(wc -l < "$T/decoded") decoded"
	diff "$T/expected" "$T/decoded" | head -5; fail=1
fi
if command -v trc_pkt_lister >/dev/null 2>&1; then
	python3 "$PFT_SOURCE/tests/scripts/record_opencsd.py" "$T/snap" "$T/expected" || fail=1
fi
exit $fail
