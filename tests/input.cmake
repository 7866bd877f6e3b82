# The trace sources (src/source/, pft/source.h) are tested by
# tests/unit/test_source.c and test_source_decode.c, and through the pft
# commands by stream.cmake (pipes, bounded memory) and decode_cli.sh.
