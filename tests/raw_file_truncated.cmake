# A raw capture file cut short while pft reads its mapping: a message naming
# the file and exit 1, not death by SIGBUS (tests/scripts/raw_file_truncated.py).
# Included by tests/CMakeLists.txt.
pft_ctypes_test(raw_file_truncated 120)
