# A raw capture file is mapped (tools/pft/input.c): pft dump --stats and pft
# decode --stats on 128 MiB keep the peak RSS of 32 MiB, at --jobs 1 and 2
# (tests/scripts/raw_file_memory.py).  Included by tests/CMakeLists.txt.
pft_ctypes_test(raw_file_memory 300)
