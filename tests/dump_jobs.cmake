# pft dump --stats --jobs N equal to --jobs 1 on TC2, a long TC2 stream with
# right and wrong options, and 100 corrupted copies, at 2-8 threads and many
# segment sizes (tests/scripts/dump_jobs.py).  Included by tests/CMakeLists.txt.
pft_ctypes_test(dump_jobs 300)
