/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: execution sources that replay a log of executed instructions.
 *
 * qemu: the output of `qemu-arm -singlestep -d exec,nochain` (QEMU 7.x),
 * one line per executed translation block, which -singlestep makes one
 * instruction:
 *     Trace 0: 0x7f9c05c000c0 [00800480/0001003c/00000000/00000201] symbol
 * The bracket holds cs_base/pc/flags/cflags.  For AArch32, cs_base carries
 * the TB flags: bit 23 is the Thumb bit and bits [31:24] are ITSTATE (the
 * IT block condition and mask of the instruction).  Other lines (and the
 * ones of other CPUs' log categories) are skipped and counted.  A user-mode
 * log has no kernel: each SVC is delivered, then an SVC exception whose
 * handler is untraced (the PTM sees a prohibited region, 4.7), left at the
 * next logged instruction.
 *
 * plain: the format documented in doc/record.md: "ADDR ISA" per executed
 * instruction (exactly what pft decode --format addrs and pft record --log
 * write), '#' comments, and "! TYPE PREF_RETURN [ISA]" for an exception
 * taken before the next listed instruction (its vector); ISA is the state at
 * PREF_RETURN (the last listed instruction's when absent); a fifth field
 * "untraced" says the handler is not in the log (a kernel under a user-mode
 * log): the next listed instruction is where it returned.
 *
 * Both read the instruction bytes from the --elf images and stream the file
 * line by line: nothing is held but the current line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/isa.h"
#include "pft/record.h"

struct replay {
	const struct pft_rec_elf *const *elfs;
	unsigned nelf;
	const struct pft_rec_sink *sink;
	struct pft_rec_src_stats *st;
	uint64_t max;
	char *msg;
	size_t cap;
	int syscalls;           /* model SVCs as kernel entries (qemu user mode) */
	int track_it;           /* derive IT conditions from the code (plain logs) */
	uint64_t expect;        /* address after the last instruction */
	uint8_t it;             /* ITSTATE of the instruction at expect */
	int have_prev;          /* prev holds the last instruction delivered */
	int free_next;          /* the next instruction may be anywhere (after a
	                           kernel entry) or is checked by the caller */
	struct pft_rec_insn prev;
	uint64_t line;          /* line number of the instruction being delivered */
};

/* The step rule (record_check.c) between the last instruction delivered
 * and the one at addr; 0 or -PFT_E_FORMAT with the line in msg. */
static int check_step(struct replay *r, uint64_t addr, enum pft_isa isa)
{
	char why[160];

	if (!r->have_prev || r->free_next || pft_rec_can_follow(&r->prev, addr, isa, why, sizeof why))
		return 0;
	snprintf(r->msg, r->cap, "line %llu: 0x%08llx %s cannot follow 0x%08llx %s (%s)",
	         (unsigned long long)r->line, (unsigned long long)addr, pft_isa_name(isa),
	         (unsigned long long)r->prev.addr, pft_isa_name((enum pft_isa)r->prev.isa), why);
	return -PFT_E_FORMAT;
}

static unsigned read_code(const struct replay *r, uint64_t addr, uint8_t *b, unsigned n)
{
	unsigned i, got;

	for (i = 0; i < r->nelf; i++) {
		got = pft_rec_elf_read(r->elfs[i], addr, b, n);
		if (got)
			return got;
	}
	return 0;
}

/* Deliver the instruction at addr; 1 = stop (BKPT or --max-insns). */
static int deliver(struct replay *r, uint64_t addr, enum pft_isa isa, unsigned itstate)
{
	uint8_t b[4];
	unsigned size, got;
	struct pft_rec_insn in;
	int rc;

	if (isa != PFT_ISA_ARM && isa != PFT_ISA_THUMB) {
		snprintf(r->msg, r->cap, "line %llu: instruction set %s cannot be traced from a log",
		         (unsigned long long)r->line, pft_isa_name(isa));
		return -PFT_E_UNSUPPORTED;
	}
	if ((addr & (isa == PFT_ISA_ARM ? 3u : 1u)) != 0) {
		snprintf(r->msg, r->cap, "line %llu: misaligned %s address 0x%08llx",
		         (unsigned long long)r->line, pft_isa_name(isa),
		         (unsigned long long)addr);
		return -PFT_E_FORMAT;
	}
	memset(&in, 0, sizeof(in));
	got = read_code(r, addr, b, 4);
	size = isa == PFT_ISA_ARM ? 4 : (got >= 2 ? (unsigned)pft_isa_thumb_size((uint32_t)(b[0] | b[1] << 8)) : 2);
	if (got < size) {
		snprintf(r->msg, r->cap, "line %llu: no code at 0x%08llx in the --elf images",
		         (unsigned long long)r->line, (unsigned long long)addr);
		return -PFT_E_NOMAP;
	}
	in.addr = addr;
	in.isa = (uint8_t)isa;
	in.size = (uint8_t)size;
	in.opcode = pft_rec_opcode(isa, b, size);
	in.cond = -1;
	in.user = 1;
	in.context_id = 0;
	if (r->track_it) {
		uint8_t cur = (addr == r->expect && isa == PFT_ISA_THUMB) ? r->it : 0;

		itstate = cur;
		if (isa == PFT_ISA_THUMB && pft_rec_is_it(in.opcode, size, &r->it))
			;
		else
			r->it = cur ? pft_rec_it_advance(cur) : 0;
		r->expect = addr + size;
	}
	in.condcode = (uint8_t)((itstate & 0xfu) ? itstate >> 4 : pft_rec_insn_cond(isa, in.opcode, size));
	rc = check_step(r, addr, isa);
	if (rc < 0)
		return rc;
	r->prev = in;
	r->have_prev = 1;
	r->free_next = 0;
	if (pft_rec_is_bkpt(isa, in.opcode, size))
		return 1;
	if (r->max && r->st->insns >= r->max)
		return 1;
	rc = r->sink->insn(r->sink->ctx, &in);
	if (rc < 0)
		return rc;
	r->st->insns++;
	if (r->syscalls && pft_rec_is_svc(isa, in.opcode, size)) {
		/* a system call: the kernel ran, untraced, and returned after
		 * the SVC (or never did: exit) */
		struct pft_rec_exc x;

		x.pref_return = addr + size;
		x.vector = 0xffff0008u; /* Linux: high vectors */
		x.type = PFT_REC_EXC_SVC;
		x.isa = PFT_ISA_ARM;
		x.untraced = 1;
		x.return_isa = (uint8_t)isa;
		r->st->syscalls++;
		r->free_next = 1; /* the kernel returns anywhere: a signal handler,
		                     sigreturn's saved PC, execve's entry */
		return r->sink->exception(r->sink->ctx, &x);
	}
	return 0;
}

/* Read one line into buf; a longer line is cut and the rest dropped.
 * Returns 0 at end of file. */
static int get_line(FILE *f, char *buf, size_t cap)
{
	size_t n;

	if (!fgets(buf, (int)cap, f))
		return 0;
	n = strlen(buf);
	if (n && buf[n - 1] != '\n' && !feof(f)) {
		int c;

		while ((c = getc(f)) != EOF && c != '\n')
			;
	}
	return 1;
}

/* The interrupted instruction of an asynchronous signal: qemu stopped
 * before stop_pc (a successor of the last instruction, in either
 * instruction set) and the kernel delivered the signal there, untraced.
 * The next logged instruction is the handler's. */
static int deliver_signal(struct replay *r, uint64_t stop_pc, uint64_t stop_line)
{
	struct pft_rec_exc x;
	enum pft_isa isa = (enum pft_isa)r->prev.isa;
	char why[160];

	if (!pft_rec_can_follow(&r->prev, stop_pc, isa, why, sizeof why)) {
		enum pft_isa other = isa == PFT_ISA_ARM ? PFT_ISA_THUMB : PFT_ISA_ARM;

		if (!pft_rec_can_follow(&r->prev, stop_pc, other, NULL, 0)) {
			snprintf(r->msg, r->cap, "line %llu: stopped before 0x%08llx, which cannot "
			         "follow 0x%08llx %s (%s)", (unsigned long long)stop_line,
			         (unsigned long long)stop_pc, (unsigned long long)r->prev.addr,
			         pft_isa_name(isa), why);
			return -PFT_E_FORMAT;
		}
		isa = other;
	}
	x.pref_return = stop_pc;
	x.vector = 0xffff0018u; /* Linux: high vectors, an IRQ-like entry */
	x.type = PFT_REC_EXC_IRQ;
	x.isa = PFT_ISA_ARM;
	x.untraced = 1;
	x.return_isa = (uint8_t)isa;
	r->st->signals++;
	r->free_next = 1;
	return r->sink->exception(r->sink->ctx, &x);
}

/* A line that names an instruction but cannot be read is an error: a
 * short escaped excerpt of it in msg. */
static int bad_line(struct replay *r, const char *what, const char *line)
{
	char ex[48];
	size_t i, o = 0;

	for (i = 0; line[i] && line[i] != '\n' && o + 5 < sizeof ex; i++) {
		unsigned char c = (unsigned char)line[i];

		if (c >= 0x20 && c < 0x7f)
			ex[o++] = (char)c;
		else
			o += (size_t)snprintf(ex + o, sizeof ex - o, "\\x%02X", c);
	}
	ex[o] = 0;
	snprintf(r->msg, r->cap, "line %llu: %s: '%s%s'", (unsigned long long)r->st->lines, what,
	         ex, line[i] && line[i] != '\n' ? "..." : "");
	return -PFT_E_FORMAT;
}

static const char stopped_prefix[] = "Stopped execution of TB chain before ";

/* A qemu line naming an instruction, held back until the next line says
 * whether it executed. */
struct held {
	unsigned long long cs_base, pc;
	uint64_t line;
	int valid;
};

static int deliver_held(struct replay *r, struct held *h)
{
	if (!h->valid)
		return 0;
	h->valid = 0;
	r->line = h->line;
	return deliver(r, h->pc, (h->cs_base & (1u << 23)) ? PFT_ISA_THUMB : PFT_ISA_ARM,
	               (unsigned)(h->cs_base >> 24) & 0xffu);
}

int pft_rec_qemu_run(FILE *log, const struct pft_rec_elf *const *elfs, unsigned nelf,
                 uint64_t max_insns, const struct pft_rec_sink *sink,
                 struct pft_rec_src_stats *st, char *msg, size_t cap)
{
	struct replay r = { elfs, nelf, sink, st, max_insns, msg, cap, 1, 0, 0, 0, 0, 0, { 0 }, 0 };
	char line[1024];
	struct held h = { 0, 0, 0, 0 };
	uint64_t stop_pc = 0, stop_line = 0;
	int stopped = 0, rc = 0;

	memset(st, 0, sizeof(*st));
	while (get_line(log, line, sizeof(line))) {
		unsigned long long cs_base, pc;
		unsigned flags, cflags;
		const char *br;

		st->lines++;
		br = strchr(line, '[');
		if (!strncmp(line, stopped_prefix, sizeof stopped_prefix - 1)) {
			/* "We didn't start executing this TB": qemu logged the
			 * TB at pc, then left its loop before running it (a
			 * signal is pending).  The line before is taken back. */
			if (!br || sscanf(br, "[%llx]", &pc) != 1)
				return bad_line(&r, "unreadable PC in qemu's 'Stopped execution' line",
				                line);
			if (!h.valid)
				continue;
			if (h.pc != pc) {
				snprintf(msg, cap, "line %llu: qemu stopped before 0x%08llx, but the "
				         "line before (%llu) is 0x%08llx", (unsigned long long)st->lines,
				         pc, (unsigned long long)h.line, h.pc);
				return -PFT_E_FORMAT;
			}
			h.valid = 0;
			stopped = r.have_prev && !r.free_next;
			stop_pc = pc;
			stop_line = st->lines;
			continue;
		}
		if (strncmp(line, "Trace ", 6) != 0) {
			st->skipped_lines++;
			continue;
		}
		if (!br || sscanf(br, "[%llx/%llx/%x/%x]", &cs_base, &pc, &flags, &cflags) != 4 ||
		    pc > 0xffffffffu)
			return bad_line(&r, "unreadable 'Trace' line (expected "
			                "[cs_base/pc/flags/cflags])", line);
		rc = deliver_held(&r, &h);
		if (rc != 0)
			break;
		if (stopped && pc != stop_pc) {
			/* the kernel delivered a signal at stop_pc */
			rc = deliver_signal(&r, stop_pc, stop_line);
			if (rc < 0)
				return rc;
		}
		stopped = 0;
		h.cs_base = cs_base;
		h.pc = pc;
		h.line = st->lines;
		h.valid = 1;
	}
	if (rc == 0)
		rc = deliver_held(&r, &h);
	if (rc < 0)
		return rc;
	if (ferror(log)) {
		snprintf(msg, cap, "read error");
		return -PFT_E_IO;
	}
	if (!st->insns) {
		snprintf(msg, cap, "no 'Trace N: ... [cs_base/pc/flags/cflags]' lines: "
		         "run qemu-arm with -singlestep -d exec,nochain");
		return -PFT_E_FORMAT;
	}
	return 0;
}

static int parse_isa(const char *s, enum pft_isa *isa)
{
	static const enum pft_isa all[] = { PFT_ISA_ARM, PFT_ISA_THUMB, PFT_ISA_THUMBEE,
	                                    PFT_ISA_JAZELLE };
	unsigned i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, pft_isa_name(all[i]))) {
			*isa = all[i];
			return 0;
		}
	return -1;
}

static int parse_exc(const char *s)
{
	static const unsigned types[] = { PFT_REC_EXC_UNDEF, PFT_REC_EXC_SVC, PFT_REC_EXC_PABT,
	                                  PFT_REC_EXC_DABT, PFT_REC_EXC_IRQ, PFT_REC_EXC_FIQ };
	unsigned i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(s, pft_rec_exc_type_name(types[i])))
			return (int)types[i];
	return -1;
}

/* An exception line of a plain log (at line exc_line) and the vector line
 * after it: the preferred return address is where the last instruction
 * went (an SVC's is the address after that SVC), and the vector is at the
 * type's offset in a vector table (or, for an SVC whose handler the log
 * leaves out, the return address itself).  0 or -PFT_E_FORMAT. */
static int check_exception(struct replay *r, const struct pft_rec_exc *x, uint64_t exc_line)
{
	char why[160] = "";

	if (r->have_prev) {
		const struct pft_rec_insn *p = &r->prev;
		int ok;

		if (x->type == PFT_REC_EXC_SVC) {
			ok = pft_rec_is_svc((enum pft_isa)p->isa, p->opcode, p->size) &&
			     x->pref_return == p->addr + p->size && x->return_isa == p->isa;
			snprintf(why, sizeof why, "an SVC returns to the address after an SVC "
			         "instruction");
		} else {
			ok = pft_rec_can_follow(p, x->pref_return, (enum pft_isa)x->return_isa,
			                        why, sizeof why);
		}
		if (!ok) {
			snprintf(r->msg, r->cap, "line %llu: %s return address 0x%08llx %s cannot "
			         "follow 0x%08llx %s (%s)", (unsigned long long)exc_line,
			         pft_rec_exc_type_name(x->type), (unsigned long long)x->pref_return,
			         pft_isa_name((enum pft_isa)x->return_isa), (unsigned long long)p->addr,
			         pft_isa_name((enum pft_isa)p->isa), why);
			return -PFT_E_FORMAT;
		}
	}
	if (!x->untraced && !pft_rec_is_vector(x->type, x->vector) &&
	    !(x->type == PFT_REC_EXC_SVC && x->vector == x->pref_return)) {
		snprintf(r->msg, r->cap, "line %llu: 0x%08llx cannot be the %s vector (offset 0x%02x "
		         "in a vector table, whose base is 32-byte aligned)",
		         (unsigned long long)r->st->lines, (unsigned long long)x->vector,
		         pft_rec_exc_type_name(x->type), (unsigned)pft_rec_vector_offset(x->type));
		return -PFT_E_FORMAT;
	}
	return 0;
}

int pft_rec_plain_run(FILE *log, const struct pft_rec_elf *const *elfs, unsigned nelf,
                  uint64_t max_insns, const struct pft_rec_sink *sink,
                  struct pft_rec_src_stats *st, char *msg, size_t cap)
{
	struct replay r = { elfs, nelf, sink, st, max_insns, msg, cap, 0, 1, 0, 0, 0, 0, { 0 }, 0 };
	char line[512];
	struct pft_rec_exc exc;
	uint64_t exc_line = 0;
	int have_exc = 0;
	enum pft_isa last_isa = PFT_ISA_ARM;

	memset(st, 0, sizeof(*st));
	while (get_line(log, line, sizeof(line))) {
		char a[64], b[64], c[64], d[64], e[64];
		int n, rc;
		uint64_t addr;
		enum pft_isa isa;

		st->lines++;
		n = sscanf(line, "%63s %63s %63s %63s %63s", a, b, c, d, e);
		if (n <= 0 || a[0] == '#') {
			st->skipped_lines++;
			continue;
		}
		if (!strcmp(a, "!")) {
			int t = n >= 3 && n <= 5 ? parse_exc(b) : -1;
			char hex[70];
			enum pft_isa risa = last_isa;

			snprintf(hex, sizeof(hex), "0x%s", c);
			if (t < 0 || have_exc || pft_rec_parse_u64(hex, &exc.pref_return) ||
			    (n >= 4 && parse_isa(d, &risa)) || (n == 5 && strcmp(e, "untraced"))) {
				snprintf(msg, cap, "line %llu: expected '! TYPE PREF_RETURN [ISA [untraced]]' "
				         "(TYPE undef|svc|pabt|dabt|irq|fiq, one per instruction)",
				         (unsigned long long)st->lines);
				return -PFT_E_FORMAT;
			}
			exc.type = (uint8_t)t;
			exc.untraced = n == 5;
			exc.return_isa = (uint8_t)risa;
			have_exc = 1;
			exc_line = st->lines;
			r.it = 0;
			continue;
		}
		{
			char hex[70];

			snprintf(hex, sizeof(hex), "0x%s", a);
			if (n < 2 || strlen(a) > 16 || !isxdigit((unsigned char)a[0]) ||
			    pft_rec_parse_u64(hex, &addr) || parse_isa(b, &isa)) {
				snprintf(msg, cap, "line %llu: expected 'ADDR ISA' (hex address, "
				         "A32|T32), '! TYPE PREF_RETURN' or a '#' comment",
				         (unsigned long long)st->lines);
				return -PFT_E_FORMAT;
			}
		}
		if (have_exc) {
			/* the vector; or, after an exception whose handler is
			 * not in the log, where it returned (the vector is
			 * then the high vectors' entry, as qemu-user's) */
			exc.vector = exc.untraced ? 0xffff0000u + (unsigned)pft_rec_vector_offset(exc.type)
			                          : addr;
			exc.isa = exc.untraced ? (uint8_t)PFT_ISA_ARM : (uint8_t)isa;
			have_exc = 0;
			rc = check_exception(&r, &exc, exc_line);
			if (rc < 0)
				return rc;
			rc = sink->exception(sink->ctx, &exc);
			if (rc < 0)
				return rc;
			r.free_next = 1; /* checked: the vector */
		}
		r.line = st->lines;
		rc = deliver(&r, addr, isa, 0);
		if (rc < 0)
			return rc;
		if (rc > 0)
			break;
		last_isa = isa;
	}
	if (ferror(log)) {
		snprintf(msg, cap, "read error");
		return -PFT_E_IO;
	}
	if (have_exc && exc.untraced) {
		/* the kernel never came back (exit) */
		int rc;

		exc.vector = 0xffff0000u + (unsigned)pft_rec_vector_offset(exc.type);
		exc.isa = PFT_ISA_ARM;
		rc = check_exception(&r, &exc, exc_line);
		if (rc == 0)
			rc = sink->exception(sink->ctx, &exc);
		return rc < 0 ? rc : 0;
	}
	if (have_exc) {
		snprintf(msg, cap, "line %llu: exception without a following instruction (its vector)",
		         (unsigned long long)st->lines);
		return -PFT_E_FORMAT;
	}
	return 0;
}

int pft_rec_log_insn_line(char *buf, size_t cap, uint64_t addr, enum pft_isa isa)
{
	return snprintf(buf, cap, "%08llx %s", (unsigned long long)addr, pft_isa_name(isa));
}

int pft_rec_log_exc_line(char *buf, size_t cap, const struct pft_rec_exc *x)
{
	return snprintf(buf, cap, "! %s %08llx %s%s", pft_rec_exc_type_name(x->type),
	                (unsigned long long)x->pref_return, pft_isa_name((enum pft_isa)x->return_isa),
	                x->untraced ? " untraced" : "");
}
