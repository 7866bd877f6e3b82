#!/bin/sh
# pft record end to end: every example program under a matrix of PTM
# configurations, the decode against the emulator's log and OpenCSD's
# (record_roundtrip.py says what is checked).  The cases run in parallel,
# $PFT_JOBS at once (default: the number of processors).
#   record_roundtrip.sh [--list] [CASE-NUMBER ...]
set -eu
: "${PFT_BIN:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 missing"; exit 77
fi
exec python3 "$(dirname "$0")/record_roundtrip.py" "$@"
