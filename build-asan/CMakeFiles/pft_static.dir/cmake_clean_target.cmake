file(REMOVE_RECURSE
  "libpft.a"
)
