#!/bin/sh
# Profile-guided optimisation from trace, the whole loop: examples/pgo.c
# built with clang for armv7-a (ARM and Thumb; -gdwarf-4
# -fdebug-info-for-profiling; and with arm-none-eabi-gcc -gdwarf-4 for the
# profile alone), run and traced by pft record, profiled by
# pft coverage --format autofdo, converted by create_llvm_prof
# --profiler=text (Debian autofdo), read back by llvm-profdata show --sample:
# the functions are listed and the entry counts (head samples) of next_rand
# and score equal the times the emulator's log shows their first
# instruction; then clang compiles with -fprofile-sample-use.
#
# -gno-inline-line-tables: autofdo 0.19 writes unreadable names for the
# inlined call sites of clang 14's DWARF (on x86-64 too), which makes
# llvm-profdata reject the profile; without inline line tables the inlined
# code counts for its call site.
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}"
for t in clang ld.lld create_llvm_prof llvm-profdata arm-none-eabi-nm; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: needs $t"; exit 77; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
EX=$PFT_SOURCE/examples
CFLAGS="--target=armv7a-none-eabi -mcpu=cortex-a15 -mfloat-abi=soft -O2 -ffreestanding -fno-builtin
	-nostdlib -fuse-ld=lld -I$EX -Wl,-T,$EX/link.ld"
GCCFLAGS="-mcpu=cortex-a15 -mfloat-abi=soft -O2 -ffreestanding -fno-builtin -nostdlib -nostartfiles
	-static -I$EX -Wl,-T,$EX/link.ld"
fail=0
# gcc: the profile is made the same way (create_llvm_prof needs DWARF 4:
# gcc 12 writes DWARF 5 by default, which autofdo 0.19 reads as no function)
for isa in arm thumb gcc; do
	if [ "$isa" = gcc ]; then
		command -v arm-none-eabi-gcc >/dev/null 2>&1 || continue
		# shellcheck disable=SC2086
		arm-none-eabi-gcc $GCCFLAGS -mthumb -gdwarf-4 "$EX/start.S" "$EX/pgo.c" -lgcc -o "$T/pgo.elf"
	else
		# shellcheck disable=SC2086
		clang $CFLAGS -m$isa -gdwarf-4 -fdebug-info-for-profiling -gno-inline-line-tables \
			"$EX/start.S" "$EX/pgo.c" -o "$T/pgo.elf"
	fi
	rm -rf "$T/snap" # record writes a new folder each time
	"$PFT_BIN" record "$T/pgo.elf" -o "$T/snap" --log "$T/log" 2> "$T/r1"
	"$PFT_BIN" coverage "$T/snap" --elf "$T/pgo.elf" --format autofdo -o "$T/pgo.afdo" -q
	create_llvm_prof --profiler=text --profile="$T/pgo.afdo" --binary="$T/pgo.elf" \
		--out="$T/pgo.prof" > "$T/cp.log" 2>&1 || { echo "FAIL create_llvm_prof"; cat "$T/cp.log"; fail=1; continue; }
	llvm-profdata show --sample "$T/pgo.prof" > "$T/show" 2>&1 ||
		{ echo "FAIL llvm-profdata"; cat "$T/show"; fail=1; continue; }
	for fn in next_rand score main; do
		head=$(sed -n "s/^Function: $fn: [0-9]*, \([0-9]*\),.*/\1/p" "$T/show")
		if [ -z "$head" ]; then
			echo "FAIL $isa: $fn not in the profile"; cat "$T/show"; fail=1; continue
		fi
		[ "$fn" = main ] && { echo "ok   $isa: main listed"; continue; }
		a=$(arm-none-eabi-nm "$T/pgo.elf" | awk -v f="$fn" '$3 == f { print $1 }')
		a=$(printf '%08x' $((0x$a & ~1)))
		want=$(grep -c "^$a " "$T/log" || true)
		if [ "$head" = "$want" ] && [ "$want" -gt 0 ]; then
			echo "ok   $isa: $fn: $head entries in the profile, as in the emulator's log"
		else
			echo "FAIL $isa: $fn: $head entries in the profile, $want in the log"; fail=1
		fi
	done
	# body lines of score() (declared on line 20): line 22 (the test, every
	# call) and line 24 (after the rare return): counts of their first
	# instruction in the emulator's log
	for line in 22 24; do
		a=$(arm-none-eabi-objdump -dl "$T/pgo.elf" | awk -v l="pgo.c:$line" '
			index($0, l) && substr($0, length($0) - length(l) + 1) == l { want = 1; next }
			want && /^ *[0-9a-f]+:/ { sub(":", "", $1); print $1; exit }')
		a=$(printf '%08x' "0x$a")
		want=$(grep -c "^$a " "$T/log" || true)
		got=$(sed -n '/^Function: score:/,/^No inlined/p' "$T/show" | sed -n "s/^  $((line - 20)): \([0-9]*\).*/\1/p")
		if [ "$got" = "$want" ]; then
			echo "ok   $isa: score line $line: $got samples, as the log counts its first instruction"
		else
			echo "FAIL $isa: score line $line: $got samples, the log has $want"; fail=1
		fi
	done
	[ "$isa" = gcc ] && continue
	# shellcheck disable=SC2086
	if clang $CFLAGS -m$isa -gdwarf-4 -fprofile-sample-use="$T/pgo.prof" "$EX/start.S" "$EX/pgo.c" \
		-o "$T/pgo_opt.elf" 2> "$T/cc.log"; then
		echo "ok   $isa: clang -fprofile-sample-use compiles with the profile"
	else
		echo "FAIL $isa: clang -fprofile-sample-use"; cat "$T/cc.log"; fail=1
	fi
	rm -rf "$T/snap2"
	"$PFT_BIN" record "$T/pgo_opt.elf" -o "$T/snap2" 2> "$T/r2" || true
	r1=$(sed -n 's/.*with r0=\(0x[0-9a-f]*\).*/\1/p' "$T/r1")
	r2=$(sed -n 's/.*with r0=\(0x[0-9a-f]*\).*/\1/p' "$T/r2")
	if [ -n "$r1" ] && [ "$r1" = "$r2" ]; then
		echo "ok   $isa: the optimised program gives the same result (r0=$r2)"
	else
		echo "FAIL $isa: result $r1, optimised $r2"; cat "$T/r1" "$T/r2"; fail=1
	fi
done
exit $fail
