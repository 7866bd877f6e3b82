# pft dump --id all: several PFT sources of one capture merged in capture
# order, each line with its trace ID, equal per source to the one-source
# listing (tests/scripts/dump_all.py).  Included by tests/CMakeLists.txt.
pft_ctypes_test(dump_all 120)
