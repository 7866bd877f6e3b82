# pft profile (every format), coverage (lcov, listing), timeline and tail
# (also stopped by --before) with --jobs N equal to --jobs 1 (stdout,
# stderr, exit code): the real captures in data/, TC2's PTM and ETMv3
# streams repeated and corrupted copies of them, and 20 recordings of the
# example programs under random configurations with their ELF, each also
# corrupted; 2-8 threads, segments from 64 bytes
# (tests/scripts/analysis_jobs.py).  Included by tests/CMakeLists.txt.
pft_ctypes_test(analysis_jobs 600 ${CMAKE_BINARY_DIR}/examples 20 17)
