#!/bin/sh
# The whole test suite:
#   1. build with -Werror and run every test (ctest);
#   2. build again with AddressSanitizer + UndefinedBehaviorSanitizer, run every test;
#   3. build the libFuzzer targets with clang and run each for $PFT_FUZZ_SECONDS (default 20).
set -e
cd "$(dirname "$0")/.."
JOBS=$(nproc 2>/dev/null || echo 2)
FUZZ_SECONDS=${PFT_FUZZ_SECONDS:-20}

echo "== build (-Werror) and test"
cmake -S . -B build/werror -DPFT_WERROR=ON >/dev/null
cmake --build build/werror -j"$JOBS"
ctest --test-dir build/werror --output-on-failure -j"$JOBS"

echo "== ASan + UBSan build and test"
cmake -S . -B build/asan -DCMAKE_C_COMPILER=clang -DPFT_WERROR=ON -DPFT_SANITIZE=ON \
	-DPFT_BENCH=OFF >/dev/null
cmake --build build/asan -j"$JOBS"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir build/asan --output-on-failure -j"$JOBS"

echo "== fuzz (${FUZZ_SECONDS}s per target)"
cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DPFT_FUZZ=ON -DPFT_BENCH=OFF \
	>/dev/null
cmake --build build/fuzz -j"$JOBS"
for f in build/fuzz/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=build/fuzz/corpus/$name
	mkdir -p "$corpus"
	[ -d "fuzz/seeds/${name#fuzz_}" ] && cp -n fuzz/seeds/"${name#fuzz_}"/* "$corpus"/ 2>/dev/null || true
	echo "-- $name"
	# a finding (crash, leak, timeout, sanitizer report) fails the suite
	if ! "$f" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -print_final_stats=0 \
		-artifact_prefix=build/fuzz/ "$corpus" > build/fuzz/"$name".log 2>&1; then
		tail -n 40 build/fuzz/"$name".log
		echo "== $name found a failing input (see build/fuzz/)" >&2
		exit 1
	fi
	tail -n 1 build/fuzz/"$name".log
done
echo "== all tests passed"
