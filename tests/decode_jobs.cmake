# pft decode --jobs N equal to --jobs 1 (stdout, stderr, exit code) in every
# output format: the real captures in data/, TC2's PTM stream repeated and
# 30 corrupted copies, and 30 recordings of the example programs under
# random configurations, each also corrupted; 2-8 threads, segments from 64
# bytes (tests/scripts/decode_jobs.py).  Included by tests/CMakeLists.txt.
pft_ctypes_test(decode_jobs 600 ${CMAKE_BINARY_DIR}/examples 30 13)
