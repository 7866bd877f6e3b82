tests/CMakeFiles/test_image_cache.dir/unit/test_image_cache.c.o: \
  /usr/lib/llvm-14/lib/clang/14.0.6/share/asan_ignorelist.txt \
  /work/wt/tfo/tests/unit/test_image_cache.c \
  /usr/include/capstone/capstone.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/stdarg.h \
  /usr/include/stdlib.h \
  /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
  /usr/include/features.h /usr/include/features-time64.h \
  /usr/include/x86_64-linux-gnu/bits/wordsize.h \
  /usr/include/x86_64-linux-gnu/bits/timesize.h \
  /usr/include/stdc-predef.h /usr/include/x86_64-linux-gnu/sys/cdefs.h \
  /usr/include/x86_64-linux-gnu/bits/long-double.h \
  /usr/include/x86_64-linux-gnu/gnu/stubs.h \
  /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/stddef.h \
  /usr/include/x86_64-linux-gnu/bits/floatn.h \
  /usr/include/x86_64-linux-gnu/bits/floatn-common.h \
  /usr/include/x86_64-linux-gnu/bits/stdlib-bsearch.h \
  /usr/include/x86_64-linux-gnu/bits/stdlib-float.h /usr/include/stdio.h \
  /usr/include/x86_64-linux-gnu/bits/types.h \
  /usr/include/x86_64-linux-gnu/bits/typesizes.h \
  /usr/include/x86_64-linux-gnu/bits/time64.h \
  /usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h \
  /usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h \
  /usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h \
  /usr/include/x86_64-linux-gnu/bits/types/__FILE.h \
  /usr/include/x86_64-linux-gnu/bits/types/FILE.h \
  /usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h \
  /usr/include/x86_64-linux-gnu/bits/stdio_lim.h \
  /usr/include/x86_64-linux-gnu/bits/stdio.h \
  /usr/include/capstone/platform.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/stdbool.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/inttypes.h \
  /usr/include/inttypes.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/stdint.h \
  /usr/include/stdint.h /usr/include/x86_64-linux-gnu/bits/wchar.h \
  /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
  /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
  /usr/include/capstone/arm.h /usr/include/capstone/arm64.h \
  /usr/include/capstone/m68k.h /usr/include/capstone/mips.h \
  /usr/include/capstone/ppc.h /usr/include/capstone/sparc.h \
  /usr/include/capstone/systemz.h /usr/include/capstone/x86.h \
  /usr/include/capstone/xcore.h /usr/include/capstone/tms320c64x.h \
  /usr/include/capstone/m680x.h /usr/include/capstone/evm.h \
  /usr/include/string.h /work/wt/tfo/tests/common/check.h \
  /usr/lib/llvm-14/lib/clang/14.0.6/include/__stddef_max_align_t.h \
  /work/wt/tfo/src/image/block_cache.h /work/wt/tfo/include/pft/flow.h \
  /work/wt/tfo/include/pft/common.h /work/wt/tfo/include/pft/packet.h \
  /work/wt/tfo/include/pft/image.h /work/wt/tfo/include/pft/isa.h
