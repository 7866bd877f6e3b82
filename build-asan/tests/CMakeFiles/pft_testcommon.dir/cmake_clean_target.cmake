file(REMOVE_RECURSE
  "libpft_testcommon.a"
)
