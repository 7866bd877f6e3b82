/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a probe report (include/pft/probe.h): the text and JSON of
 * pft probe, the pft dump / pft decode options a stream needs, and the one
 * line dump and decode print when they probed a bare capture themselves. */
#ifndef PFT_TOOLS_PROBE_OUT_H
#define PFT_TOOLS_PROBE_OUT_H

#include <stdio.h>

#include "pft/probe.h"

/* Appends printf-style text to the NUL-terminated string in buf (cap
 * bytes), truncated to fit. */
void probe_cat(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The input options that read stream s of the report: "--format frames
 * --id 0x13 --cycle-accurate --timestamps".  Writes at most cap bytes
 * (NUL terminated); returns buf. */
char *probe_options(const struct pft_probe_report *rep, const struct pft_probe_stream *s,
                    char *buf, size_t cap);

/* One line of evidence for the protocol of s (no newline). */
void probe_evidence(const struct pft_probe_stream *s, char *buf, size_t cap);

/* The whole report for a human; path is the capture as the user named it. */
void probe_print_text(FILE *out, const char *path, const struct pft_probe_report *rep);

/* The report as one JSON object (schema: doc/probe.md), newline ended. */
void probe_print_json(FILE *out, const char *path, const struct pft_probe_report *rep);

/* Read a whole file ("-": stdin) into *buf (malloc'd), at most max bytes;
 * *total gets the file's size when known (else the bytes read).  0, or -1
 * after printing "pft <cmd>: ..." */
int probe_read_file(const char *cmd, const char *path, size_t max, unsigned char **buf,
                    size_t *len, unsigned long long *total);

/* Streams pft dump and pft decode read: PFT and ETMv3 ones. */
unsigned probe_readable_count(const struct pft_probe_report *rep);

/* The options the probe reports for a stream of its protocol (PFT: all but
 * alt_branch and data_trace; ETMv3: cycle_accurate, contextid_bytes,
 * alt_branch, data_trace, timestamps, vmid; others: none). */
int probe_opt_shown(const struct pft_probe_stream *s, enum pft_probe_opt o);

#endif
