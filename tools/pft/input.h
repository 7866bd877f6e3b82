/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared input handling of the pft commands that read trace (dump, decode,
 * ...) and of those that only need a PTM configuration (record ...).
 *
 * 1. Options.  Merge input_long_options into the command's getopt_long
 *    table (input_merge_options), and hand every option getopt returns to
 *    input_parse_option first:
 *
 *        struct input_opts io;
 *        struct option all[64];
 *        static const struct option own[] = { {"json", no_argument, 0, 'j'}, ... {0} };
 *        input_opts_init(&io);
 *        input_merge_options(all, 64, own);
 *        while ((c = getopt_long(argc, argv, "o:h", all, NULL)) != -1) {
 *            int r = input_parse_option(&io, c, optarg, "dump");
 *            if (r < 0) return PFT_EXIT_USAGE;   // message printed
 *            if (r > 0) continue;                 // one of ours
 *            switch (c) { ... the command's own options ... }
 *        }
 *
 *    The input options (INPUT_OPTIONS_HELP prints them for --help):
 *      --id 0xNN             trace ID to read (CoreSight frames)
 *      --source NAME         snapshot trace source (e.g. PTM_0)
 *      --format raw|frames|tpiu
 *      --etmcr/--etmccr/--etmccer/--etmidr/--etmtraceidr/--etmsyncfr VALUE
 *      --cycle-accurate --timestamps --vmid --return-stack --branch-broadcast
 *      --contextid-bytes 0|1|2|4  --pft-version 1.0|1.1
 *
 * 2. input_open(): positional argument (snapshot folder, capture file, or
 *    "-" for stdin) + options -> a pft_source (pft/source.h: which source,
 *    which trace ID, which layout, streaming in chunks, capture offsets),
 *    and the configuration: the source's registers (the snapshot's [regs],
 *    else pft_config_init() defaults), then --etmXX values, then the named
 *    flags (input_apply_options); it must pass pft_config_check().
 *
 *        struct input in;
 *        r = input_open(&in, path, &io, 0, "dump");   // exit code, message printed
 *        if (r) return r;
 *        while ((k = input_read(&in, &buf, &len)) > 0)
 *            feed buf[0..len) (valid until the next input_read);
 *        if (k < 0) -> in.exit_code (read error, message printed)
 *        r = input_finish(&in, "dump");               // end-of-stream checks
 *        input_close(&in);
 *
 *    Every failure prints one message "pft <cmd>: ..." on stderr and returns
 *    the exit code: PFT_EXIT_USAGE for a missing file, bad snapshot, bad
 *    options, nonsense registers or an absent trace ID (the message lists
 *    the IDs the capture holds); PFT_EXIT_DATA for an empty input or
 *    stream.  Frame errors (a truncated frame ...) do not fail the reader:
 *    they are counted in frame_errors, and the first is described in
 *    frame_error_msg, for the command to report at the end.
 *
 * 3. input_config(): the options alone -> struct pft_config, for commands
 *    that generate trace (no input file). */
#ifndef PFT_TOOLS_INPUT_H
#define PFT_TOOLS_INPUT_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "pft/etm3.h"
#include "pft/frame.h"
#include "pft/packet.h"
#include "pft/snapshot.h"
#include "pft/source.h"

/* getopt_long codes of the input options (long options only). */
enum {
	INPUT_OPT_BASE = 0x1000,
	INPUT_OPT_ID = INPUT_OPT_BASE,
	INPUT_OPT_SOURCE,
	INPUT_OPT_FORMAT,
	INPUT_OPT_ETMCR,
	INPUT_OPT_ETMCCR,
	INPUT_OPT_ETMCCER,
	INPUT_OPT_ETMIDR,
	INPUT_OPT_ETMTRACEIDR,
	INPUT_OPT_ETMSYNCFR,
	INPUT_OPT_CYCLE_ACCURATE,
	INPUT_OPT_CONTEXTID_BYTES,
	INPUT_OPT_TIMESTAMPS,
	INPUT_OPT_VMID,
	INPUT_OPT_RETURN_STACK,
	INPUT_OPT_BRANCH_BROADCAST,
	INPUT_OPT_PFT_VERSION,
	INPUT_OPT_NO_REALIGN,
	INPUT_OPT_ISYNC_RESYNC,
	INPUT_OPT_ALLOW_OUTSIDE,
	INPUT_OPT_END
};

extern const struct option input_long_options[]; /* ends with { 0 } */

#define INPUT_OPTIONS_HELP                                                                       \
	"Input (a snapshot folder, a capture file, or - for stdin):\n"                            \
	"  --id ID              trace ID to read from CoreSight frames (e.g. 0x13)\n"              \
	"  --source NAME        trace source of a snapshot (e.g. PTM_0)\n"                         \
	"  --format FMT         capture layout: raw (PTM bytes, one source), frames\n"             \
	"                       (CoreSight 16-byte frames) or tpiu (frames with FSYNC/HSYNC);\n"   \
	"                       default: the snapshot's, else frames with --id, else what\n"      \
	"                       the bytes say (pft probe: layout, PFT trace ID, options)\n"       \
	"  --allow-outside      follow paths in the snapshot's ini files that leave its\n"       \
	"                       folder (absolute, ../, links out; refused by default)\n"          \
	"PTM configuration (default: a PFTv1.1 PTM as on Cortex-A15, ETMCR=0, or the\n"            \
	"snapshot's registers; raw values first, then the named flags):\n"                       \
	"  --etmcr V  --etmccr V  --etmccer V  --etmidr V  --etmtraceidr V  --etmsyncfr V\n"      \
	"  --cycle-accurate     ETMCR[12]: cycle counts in the packets\n"                         \
	"  --timestamps         ETMCR[28]: timestamp packets\n"                                   \
	"  --contextid-bytes N  ETMCR[15:14]: context ID size 0, 1, 2 or 4\n"                     \
	"  --vmid               ETMCR[30]: VMID packets (PFTv1.1)\n"                              \
	"  --return-stack       ETMCR[29]: return stack\n"                                        \
	"  --branch-broadcast   ETMCR[8]: every branch as a branch packet\n"                      \
	"  --pft-version V      1.0 or 1.1 (sets ETMIDR[7:4])\n"                                 \
	"  --no-realign         no frame alignment recovery (doc/decode.md)\n"               \
	"  --isync-resync M     off, lost (default) or always: I-syncs as sync points\n"

struct input_opts {
	int id;                 /* -1: not given */
	const char *source;     /* NULL: not given */
	int format;             /* -1: not given, else enum pft_frame_format */
	uint32_t regs_given;    /* PFT_SNAPSHOT_REG_* bits of the --etmXX given */
	struct pft_config regs; /* their values */
	int cycle_accurate, timestamps, vmid, return_stack, branch_broadcast; /* 0/1 */
	int contextid_bytes;    /* -1: not given */
	int pft_minor;          /* -1: not given */
	int allow_etm3;         /* the command reads ETMv3 sources too (pft dump) */
	int no_realign;         /* --no-realign */
	int isync_resync;       /* enum pft_isync_resync (--isync-resync) */
	int allow_outside;      /* --allow-outside */
	struct pft_source_group *group; /* NULL, or the group the source joins (--id all) */
};

void input_opts_init(struct input_opts *o);

/* Copy the command's options (ending with {0}) and input_long_options into
 * dst (cap entries, ending with {0}).  Returns dst, or NULL if cap is too
 * small. */
struct option *input_merge_options(struct option *dst, size_t cap, const struct option *own);

/* Returns 1 if opt was an input option (and was valid), 0 if it is not one
 * of ours, -1 after printing "pft <cmd>: ..." for a bad value. */
int input_parse_option(struct input_opts *o, int opt, const char *arg, const char *cmd);

/* Options -> configuration (pft_config_init defaults, --etmXX, flags), then
 * pft_config_check.  PFT_EXIT_OK or PFT_EXIT_USAGE (message printed). */
int input_config(const struct input_opts *o, struct pft_config *cfg, const char *cmd);

/* The registers describe an ETMv3 (ETMIDR[11:8] = 2), not a PTM. */
static inline int input_is_etm3(const struct pft_config *cfg)
{
	return ((cfg->etmidr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK) == PFT_ETM3_ETMIDR_MAJOR;
}

#define INPUT_CHUNK PFT_SOURCE_CHUNK
#define INPUT_LEN_UNKNOWN PFT_SOURCE_LEN_UNKNOWN

/* Layer the options over cfg (defaults or a snapshot's registers): the one
 * place where flags become ETMCR/ETMIDR bits. */
void input_apply_options(struct pft_config *cfg, const struct input_opts *o);
/* The ETMCR part of it: --etmcr, then the named flags, over etmcr. */
uint32_t input_apply_etmcr(const struct input_opts *o, uint32_t etmcr);

/* pft_config_check with the message "pft <cmd>: bad PTM registers[ in
 * WHERE]: ...".  PFT_EXIT_OK or PFT_EXIT_USAGE. */
int input_check_config(const struct pft_config *cfg, const char *cmd, const char *where);

struct input {
	const char *path;          /* as given ("-" for stdin) */
	struct pft_config config;  /* checked */
	uint8_t trace_id;          /* the ID read (frames), or ETMTRACEIDR (raw) */
	enum pft_frame_format format;
	uint64_t stream_len;       /* stream bytes of the source: known up front for a
	                              regular file, else INPUT_LEN_UNKNOWN until the end */
	uint64_t delivered;        /* stream bytes handed out by input_read so far */
	uint64_t capture_len;      /* capture bytes read so far (all of them at the end) */
	const struct pft_snapshot *snap; /* NULL unless the input is a snapshot folder */
	const char *source_name;   /* snapshot source, or NULL */
	const char *core_name;     /* core it traces (memory dumps: pft_snapshot_dump), or NULL */
	const char *buffer_path;   /* the capture file read */
	struct pft_frame_stats frame_stats; /* so far; complete at the end */
	uint64_t frame_errors;     /* ERROR/UNSYNCED frame items */
	const char *frame_error_msg; /* the first, described; "" if none */
	int exit_code;             /* after input_read returned -1 */
	int isync_resync;          /* enum pft_isync_resync: set it on the decoders */
	int gap;                   /* the chunk input_read gave starts after a gap
	                              (PFT_SOURCE_CHUNK_GAP): resync the decoder */
	const char *cmd;
	struct pft_source *src;
	/* A raw capture in a regular file is mapped, not read: src then hands
	   out views of the mapping in place (no copy), and meta is the source
	   as opened (snapshot, names, registers, probe).  The pages behind the
	   reader are given back (input_drop), so the resident size stays
	   bounded whatever the file's size.  The file's size is taken at
	   open: a file that grows is read to that size; one truncated while
	   it is read faults (SIGBUS) on the next page: pft then names the
	   file, says the output is incomplete and exits 1 (input.c). */
	struct pft_source *meta;
	const uint8_t *map;
	size_t map_len;
	uint64_t dropped;          /* stream bytes below this were given back */
	uint64_t last_end;         /* end of the chunk handed out last */
	int keep_views;            /* input_keep_views: the caller drops pages itself */
};

/* See the top of this file.  capture_offsets: keep the stream -> capture
 * offset map for input_capture_offset (only what input_release allows to
 * forget is dropped).  On failure *in is left empty (input_close is still
 * safe). */
int input_open(struct input *in, const char *path, const struct input_opts *o, int capture_offsets,
	       const char *cmd);

/* Next chunk of the stream: 1 with *buf and *len set (valid until the next
 * call), 0 at the end of the stream, -1 on a read error (message printed,
 * in->exit_code set). */
int input_read(struct input *in, const uint8_t **buf, size_t *len);

/* 1 when the chunks are views of one mapping of the whole stream (a raw
 * capture file, see struct input): a chunk stays valid after later
 * input_read calls, and consecutive chunks are contiguous in memory. */
static inline int input_mapped(const struct input *in)
{
	return in->map != NULL;
}

/* A mapped input (input_mapped): keep == 1 keeps every chunk valid until
 * input_drop gives it back (the caller holds views across reads); by
 * default the pages of a chunk are given back at the next input_read. */
static inline void input_keep_views(struct input *in, int keep)
{
	in->keep_views = keep;
}

/* A mapped input: the stream bytes below off are not needed any more
 * (their pages leave the resident set).  No-op otherwise. */
void input_drop(struct input *in, uint64_t off);

/* After the last chunk: the checks that need the whole capture (see the top
 * of this file).  PFT_EXIT_OK, or the exit code after printing the message. */
int input_finish(struct input *in, const char *cmd);

void input_close(struct input *in);

/* Offset in the capture of stream byte off: off must be handed out already
 * and not below what was released.  Needs capture_offsets in input_open. */
static inline uint64_t input_capture_offset(const struct input *in, uint64_t off)
{
	return pft_source_capture_offset(in->src, off);
}

/* Stream bytes below off will not be asked for again (their map is freed). */
static inline void input_release(struct input *in, uint64_t off)
{
	pft_source_release(in->src, off);
}

#endif
