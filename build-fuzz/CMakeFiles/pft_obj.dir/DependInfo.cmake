
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/tfo/src/common/config.c" "CMakeFiles/pft_obj.dir/src/common/config.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/common/config.c.o.d"
  "/work/wt/tfo/src/common/errors.c" "CMakeFiles/pft_obj.dir/src/common/errors.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/common/errors.c.o.d"
  "/work/wt/tfo/src/flow/flow.c" "CMakeFiles/pft_obj.dir/src/flow/flow.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/flow/flow.c.o.d"
  "/work/wt/tfo/src/flow/flow_names.c" "CMakeFiles/pft_obj.dir/src/flow/flow_names.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/flow/flow_names.c.o.d"
  "/work/wt/tfo/src/flow/flow_walk.c" "CMakeFiles/pft_obj.dir/src/flow/flow_walk.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/flow/flow_walk.c.o.d"
  "/work/wt/tfo/src/flow/rstack.c" "CMakeFiles/pft_obj.dir/src/flow/rstack.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/flow/rstack.c.o.d"
  "/work/wt/tfo/src/frame/deformat.c" "CMakeFiles/pft_obj.dir/src/frame/deformat.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/frame/deformat.c.o.d"
  "/work/wt/tfo/src/frame/format.c" "CMakeFiles/pft_obj.dir/src/frame/format.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/frame/format.c.o.d"
  "/work/wt/tfo/src/image/block_cache.c" "CMakeFiles/pft_obj.dir/src/image/block_cache.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/image/block_cache.c.o.d"
  "/work/wt/tfo/src/image/image.c" "CMakeFiles/pft_obj.dir/src/image/image.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/image/image.c.o.d"
  "/work/wt/tfo/src/image/image_elf.c" "CMakeFiles/pft_obj.dir/src/image/image_elf.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/image/image_elf.c.o.d"
  "/work/wt/tfo/src/isa/isa.c" "CMakeFiles/pft_obj.dir/src/isa/isa.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/isa/isa.c.o.d"
  "/work/wt/tfo/src/isa/isa_a32.c" "CMakeFiles/pft_obj.dir/src/isa/isa_a32.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/isa/isa_a32.c.o.d"
  "/work/wt/tfo/src/isa/isa_t16.c" "CMakeFiles/pft_obj.dir/src/isa/isa_t16.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/isa/isa_t16.c.o.d"
  "/work/wt/tfo/src/isa/isa_t32.c" "CMakeFiles/pft_obj.dir/src/isa/isa_t32.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/isa/isa_t32.c.o.d"
  "/work/wt/tfo/src/packet/pkt_decoder.c" "CMakeFiles/pft_obj.dir/src/packet/pkt_decoder.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/packet/pkt_decoder.c.o.d"
  "/work/wt/tfo/src/packet/pkt_encoder.c" "CMakeFiles/pft_obj.dir/src/packet/pkt_encoder.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/packet/pkt_encoder.c.o.d"
  "/work/wt/tfo/src/packet/pkt_names.c" "CMakeFiles/pft_obj.dir/src/packet/pkt_names.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/packet/pkt_names.c.o.d"
  "/work/wt/tfo/src/packet/pkt_tables.c" "CMakeFiles/pft_obj.dir/src/packet/pkt_tables.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/packet/pkt_tables.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_fifo.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_fifo.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_fifo.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_gen.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_gen.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_gen.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_output.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_output.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_output.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_regs.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_regs.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_regs.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_resources.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_resources.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_resources.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_rstack.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_rstack.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_rstack.c.o.d"
  "/work/wt/tfo/src/ptm/ptm_sync.c" "CMakeFiles/pft_obj.dir/src/ptm/ptm_sync.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/ptm/ptm_sync.c.o.d"
  "/work/wt/tfo/src/snapshot/ini.c" "CMakeFiles/pft_obj.dir/src/snapshot/ini.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/snapshot/ini.c.o.d"
  "/work/wt/tfo/src/snapshot/snapshot.c" "CMakeFiles/pft_obj.dir/src/snapshot/snapshot.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/snapshot/snapshot.c.o.d"
  "/work/wt/tfo/src/snapshot/snapshot_write.c" "CMakeFiles/pft_obj.dir/src/snapshot/snapshot_write.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/snapshot/snapshot_write.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_capture.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_capture.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_codec.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_codec.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_gen.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_gen.c.o.d"
  "/work/wt/tfo/src/tfo/tfo_sync.c" "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o" "gcc" "CMakeFiles/pft_obj.dir/src/tfo/tfo_sync.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
