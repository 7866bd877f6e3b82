/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: DS-5/OpenCSD snapshot folders in and out (pft_snapshot_).
 *
 *     struct pft_snapshot *sn;
 *     struct pft_snapshot_source src;
 *     if (pft_snapshot_open("data/TC2", &sn, msg, sizeof msg) < 0) puts(msg);
 *     for (i = 0; i < pft_snapshot_source_count(sn); i++) {
 *         pft_snapshot_source(sn, i, &src);   // src.config: ETMCR, ETMIDR ...
 *         ... src.buffer_file, pft_snapshot_buffer_format(src.buffer_format)
 *     }
 *     pft_snapshot_close(sn);
 *
 * A snapshot folder holds (doc/snapshot.md has the details):
 *   snapshot.ini  [snapshot] version; [device_list] deviceN=<ini>;
 *                 [trace] metadata=trace.ini
 *   trace.ini     [trace_buffers] buffers=buffer0,...; [bufferN] name, file,
 *                 format (coresight | source_data); [source_buffers]
 *                 <source>=<buffer name>; [core_trace_sources] <core>=<source>
 *   <device>.ini  [device] name, class (core | trace_source | ...), type;
 *                 [regs] NAME(0xNUM)=VALUE, NAME(id:0xNUM)=VALUE, NAME=VALUE,
 *                 NAME(size:64)=VALUE; [dump] file, address, offset, length
 *                 (any number of [dump] sections)
 * Names of sections and keys compare without case; device names compare
 * exactly.  A key given twice in one section: the last value counts.
 *
 * Strings returned point into the snapshot object and live until
 * pft_snapshot_close().  Paths returned are the folder joined with the
 * file name from the ini. */
#ifndef PFT_SNAPSHOT_H
#define PFT_SNAPSHOT_H

#include "pft/common.h"
#include "pft/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_snapshot;

/* Read dir/snapshot.ini, the trace metadata and every device ini.  Buffer
 * and dump files are not opened here (see the paths returned below).
 * Returns 0 and *out; or -PFT_E_IO (a file cannot be read), -PFT_E_FORMAT
 * (a syntax error or a required key missing), -PFT_E_NOMEM, -PFT_E_INVAL;
 * msg (may be NULL) receives "FILE:LINE: what is wrong". */
PFT_API int pft_snapshot_open(const char *dir, struct pft_snapshot **out, char *msg, size_t cap);
/* The same with flags.  Files the ini files name (device files, trace
 * metadata, buffers, [dump] files) are followed inside the folder only:
 * an absolute path, a ".." that climbs out of it or a symbolic link that
 * leads out is refused (-PFT_E_FORMAT, with the ini file and line) unless
 * PFT_SNAPSHOT_ALLOW_OUTSIDE is given, so that a snapshot received from
 * someone else cannot make the reader open arbitrary files. */
#define PFT_SNAPSHOT_ALLOW_OUTSIDE 1u
PFT_API int pft_snapshot_open_flags(const char *dir, unsigned flags, struct pft_snapshot **out,
                                    char *msg, size_t cap);
PFT_API void pft_snapshot_close(struct pft_snapshot *snap);

/* The folder as given to pft_snapshot_open. */
PFT_API const char *pft_snapshot_dir(const struct pft_snapshot *snap);
/* Paths of its snapshot.ini, and of the trace metadata file that
 * snapshot.ini's [trace] metadata= names (NULL when it has no [trace]
 * section or no metadata=, so that no trace buffer is known). */
PFT_API const char *pft_snapshot_ini_path(const struct pft_snapshot *snap);
PFT_API const char *pft_snapshot_trace_ini_path(const struct pft_snapshot *snap);

struct pft_snapshot_device {
	const char *name;    /* [device] name (the ini file name if absent) */
	const char *dclass;  /* [device] class: "core", "trace_source", ... ("" if absent) */
	const char *type;    /* [device] type: "Cortex-A15", "PTM1.1", "ETM3.5" ... ("" if absent) */
	const char *ini;     /* path of its ini file */
};
PFT_API size_t pft_snapshot_device_count(const struct pft_snapshot *snap);
/* 0, or -PFT_E_INVAL for a bad index. */
PFT_API int pft_snapshot_device(const struct pft_snapshot *snap, size_t i,
                                struct pft_snapshot_device *out);
/* Index of the device with this name, or -PFT_E_NOTFOUND. */
PFT_API int pft_snapshot_find_device(const struct pft_snapshot *snap, const char *name);

/* pft_snapshot_source.regs_present */
#define PFT_SNAPSHOT_REG_ETMCR       0x01u
#define PFT_SNAPSHOT_REG_ETMCCR      0x02u
#define PFT_SNAPSHOT_REG_ETMCCER     0x04u
#define PFT_SNAPSHOT_REG_ETMIDR      0x08u
#define PFT_SNAPSHOT_REG_ETMTRACEIDR 0x10u
#define PFT_SNAPSHOT_REG_ETMSYNCFR   0x20u

/* A trace source: a device of class trace_source, in device-list order. */
struct pft_snapshot_source {
	const char *name;          /* "PTM_0" */
	const char *type;          /* "PTM1.1", "PFT1.1", "ETM3.5", "ITM" ... */
	const char *core;          /* core device traced ([core_trace_sources]), or NULL */
	const char *buffer_name;   /* its trace buffer ([source_buffers]), or NULL */
	const char *buffer_file;   /* path of the buffer's file, or NULL */
	const char *buffer_format; /* "coresight", "source_data" ... as written, or NULL */
	uint32_t regs_present;     /* PFT_SNAPSHOT_REG_*: registers the ini gives */
	uint8_t is_ptm;            /* type names a PTM/PFT, or ETMIDR says PFTv1 */
	uint8_t is_etm3;           /* type names an ETMv3 ("ETM3.x"), or ETMIDR says ETMv3 */
	uint8_t trace_id;          /* ETMTRACEIDR[6:0], 0 if absent */
	struct pft_config config;  /* the registers; pft_config_init() values for absent ones */
};
PFT_API size_t pft_snapshot_source_count(const struct pft_snapshot *snap);
/* 0, or -PFT_E_INVAL for a bad index. */
PFT_API int pft_snapshot_source(const struct pft_snapshot *snap, size_t i,
                                struct pft_snapshot_source *out);
/* Index of the source with this device name, or -PFT_E_NOTFOUND. */
PFT_API int pft_snapshot_find_source(const struct pft_snapshot *snap, const char *name);
/* Index of the first source whose ETMTRACEIDR is id, or -PFT_E_NOTFOUND. */
PFT_API int pft_snapshot_find_trace_id(const struct pft_snapshot *snap, uint8_t id);

/* Frame format of a buffer format string: "coresight" -> PFT_FRAME_CORESIGHT,
 * "source_data" -> PFT_FRAME_RAW; -PFT_E_UNSUPPORTED for others
 * ("dstream_coresight" ...), -PFT_E_INVAL for NULL. */
PFT_API int pft_snapshot_buffer_format(const char *format);

/* A register of a device's [regs] section, by name ("ETMCR", no case) or by
 * number ("0x000", "0x7A", "122").  0 and *val; -PFT_E_NOTFOUND. */
PFT_API int pft_snapshot_reg(const struct pft_snapshot *snap, const char *device,
                             const char *reg, uint64_t *val);

/* A [dump] section of a device (normally a core). */
struct pft_snapshot_dump {
	const char *path;    /* file */
	uint64_t address;    /* memory address of the first byte used */
	uint64_t offset;     /* where that byte is in the file */
	uint64_t length;     /* bytes; 0 = up to the end of the file */
	const char *space;   /* "space" key if present ("S", "N", "H" ...), else NULL */
};
/* Number of [dump] sections of the device (0 if none or no such device). */
PFT_API size_t pft_snapshot_dump_count(const struct pft_snapshot *snap, const char *device);
/* 0, -PFT_E_NOTFOUND (device), -PFT_E_INVAL (index). */
PFT_API int pft_snapshot_dump(const struct pft_snapshot *snap, const char *device, size_t i,
                              struct pft_snapshot_dump *out);

/* ---- writer ---------------------------------------------------------------
 * One core, one PTM, one trace buffer: the folder trc_pkt_lister and DS-5
 * read, and pft_snapshot_open() reads back. */
struct pft_snapshot_mem {
	uint64_t address;
	const uint8_t *data;
	size_t len;
};

struct pft_snapshot_spec {
	size_t size;               /* set by pft_snapshot_spec_init */
	const char *core_name;     /* "cpu_0" */
	const char *core_type;     /* "Cortex-A15" */
	const char *source_name;   /* "PTM_0" */
	const char *source_type;   /* NULL: "PTM1.0" or "PTM1.1" from ETMIDR */
	struct pft_config config;  /* written as ETMCR, ETMCCR, ETMIDR, ETMCCER, ETMSYNCFR,
	                              ETMTRACEIDR with their register numbers */
	const struct pft_snapshot_mem *mem; /* memory dumps of the core: mem_<i>.bin */
	size_t n_mem;
	const uint8_t *trace;      /* the trace buffer as captured */
	size_t trace_len;
	enum pft_frame_format trace_format; /* RAW: source_data, file <source>.bin;
	                                       CORESIGHT: coresight, file cstrace.bin
	                                       (the bytes must already be framed) */
};
PFT_API void pft_snapshot_spec_init(struct pft_snapshot_spec *spec);

/* Create dir (if needed) and write the snapshot into it, replacing files of
 * the same names.  0; -PFT_E_INVAL (NULL, bad names, TPIU format),
 * -PFT_E_BAD_CONFIG (the registers fail pft_config_check), -PFT_E_IO; msg
 * says what and where. */
PFT_API int pft_snapshot_write(const char *dir, const struct pft_snapshot_spec *spec,
                               char *msg, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
