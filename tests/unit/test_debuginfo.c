/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information layer against binutils: for every instruction of the
 * example programs (arm-none-eabi-gcc) and of clang-built armv7 programs,
 * function, file:line and inline chain equal what `addr2line -a -f -i`
 * prints; the symbol table and the mapping symbols equal `nm`.  Plus load
 * offsets, several images at once, a plain symbol map, line enumeration
 * (never line 0) and bad input. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/debuginfo.h"

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "??";
}

static int have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* "name file:line" lines, one per frame, as addr2line -f -i gives them
 * (basename, discriminator dropped); frames separated by '|'. */
static void our_chain(const struct pft_dbg *d, uint64_t a, char *out, size_t cap)
{
	struct pft_dbg_frame fr[16];
	struct pft_dbg_line ln;
	struct pft_dbg_symbol sym;
	int n = pft_dbg_inline_chain(d, a, fr, 16), i;
	size_t len = 0;

	out[0] = 0;
	if (n > 0) {
		for (i = 0; i < n && i < 16; i++) {
			len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "|" : "",
						fr[i].function ? fr[i].function : "??");
			if (fr[i].line)
				len += (size_t)snprintf(out + len, cap - len, " %s:%u",
							base(fr[i].file), fr[i].line);
			else
				len += (size_t)snprintf(out + len, cap - len, " ?");
		}
		return;
	}
	/* no DWARF function: addr2line names the symbol and gives the line */
	if (pft_dbg_symbol(d, a, &sym, sizeof(sym)) != 0)
		sym.name = "??";
	if (pft_dbg_line(d, a, &ln, sizeof(ln)) == 0)
		snprintf(out, cap, "%s %s:%u", sym.name, base(ln.file), ln.line);
	else
		snprintf(out, cap, "%s ?", sym.name);
}

/* "a X" against "b X" where a and b name the same address (weak aliases
 * such as the exception handlers of start.S: tools pick either). */
static int alias(const struct pft_dbg *d, const char *ours, const char *theirs)
{
	const char *s1 = strchr(ours, ' '), *s2 = strchr(theirs, ' ');
	uint64_t a1 = 1, a2 = 2;
	size_t i;

	if (!s1 || !s2 || strchr(ours, '|') || strchr(theirs, '|') || strcmp(s1, s2))
		return 0;
	for (i = 0; i < pft_dbg_symbol_count(d); i++) {
		struct pft_dbg_symbol s;

		pft_dbg_symbol_at(d, i, &s, sizeof(s));
		if (strlen(s.name) == (size_t)(s1 - ours) && !strncmp(s.name, ours, (size_t)(s1 - ours)))
			a1 = s.addr;
		if (strlen(s.name) == (size_t)(s2 - theirs) &&
		    !strncmp(s.name, theirs, (size_t)(s2 - theirs)))
			a2 = s.addr;
	}
	return a1 == a2;
}

/* Every instruction address of elf (objdump -d, data words excluded),
 * through addr2line; returns the number compared, counts mismatches. */
static long compare_addr2line(const char *a2l, const char *elf, uint64_t offset, long *bad)
{
	char cmd[1024], line[1024], ours[2048], theirs[2048];
	char tmp[] = "/tmp/pft_dbg_XXXXXX";
	struct pft_dbg *d = pft_dbg_alloc();
	char msg[256];
	FILE *p;
	long n = 0;
	int fd = mkstemp(tmp);
	uint64_t cur = 0;
	int have_cur = 0;
	size_t tl = 0;

	CHECK(fd >= 0);
	close(fd);
	CHECK(pft_dbg_add_elf(d, elf, offset, msg, sizeof(msg)) == 0);
	snprintf(cmd, sizeof(cmd),
		 "arm-none-eabi-objdump -d '%s' | awk '/^ *[0-9a-f]+:\t/ && !/\\.(word|short|byte)/ "
		 "{ sub(\":\", \"\", $1); print \"0x\" $1 }' | %s -a -f -i -e '%s' > %s",
		 elf, a2l, elf, tmp);
	CHECK(system(cmd) == 0);
	p = fopen(tmp, "r");
	CHECK(p != NULL);
	theirs[0] = 0;
	for (;;) {
		int eof = !p || !fgets(line, sizeof(line), p);
		char *nl;

		if (!eof) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
		}
		if (eof || (line[0] == '0' && line[1] == 'x')) {
			/* data in code ($d, e.g. a table of function pointers) */
			if (have_cur && pft_dbg_mapping(d, cur + offset) != PFT_DBG_MAP_DATA) {
				our_chain(d, cur + offset, ours, sizeof(ours));
				n++;
				if (strcmp(ours, theirs) && !alias(d, ours, theirs)) {
					if (++*bad <= 10)
						fprintf(stderr, "%s 0x%llx: ours '%s' addr2line '%s'\n",
							base(elf), (unsigned long long)cur, ours, theirs);
				}
			}
			if (eof)
				break;
			cur = strtoull(line, NULL, 16);
			have_cur = 1;
			theirs[0] = 0;
			tl = 0;
			continue;
		}
		/* alternating function / file:line lines */
		{
			char *disc = strstr(line, " (discriminator");
			const char *b;

			if (disc)
				*disc = 0;
			b = strchr(line, ':') ? base(line) : line;
			if (!strchr(line, ':'))
				tl += (size_t)snprintf(theirs + tl, sizeof(theirs) - tl, "%s%s",
						       tl ? "|" : "", b);
			else if (strstr(b, ":?") || (strlen(b) > 2 && !strcmp(b + strlen(b) - 2, ":0")))
				tl += (size_t)snprintf(theirs + tl, sizeof(theirs) - tl, " ?");
			else
				tl += (size_t)snprintf(theirs + tl, sizeof(theirs) - tl, " %s", b);
		}
	}
	if (p)
		fclose(p);
	unlink(tmp);
	pft_dbg_free(d);
	return n;
}

/* nm's symbols: every one is in the table at its address (Thumb bit
 * cleared); $a/$t/$d agree with pft_dbg_mapping. */
static void compare_nm(const char *prefix, const char *elf)
{
	char cmd[1024], line[1024];
	struct pft_dbg *d = pft_dbg_alloc();
	FILE *p;
	long nsym = 0, nmap = 0, bad = 0;
	char msg[256];

	CHECK(pft_dbg_add_elf(d, elf, 0, msg, sizeof(msg)) == 0);
	snprintf(cmd, sizeof(cmd), "%snm --defined-only --special-syms '%s'", prefix, elf);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	while (p && fgets(line, sizeof(line), p)) {
		char type, name[512];
		unsigned long long v;
		size_t i;
		int found = 0;

		if (sscanf(line, "%llx %c %511s", &v, &type, name) != 3)
			continue;
		if (name[0] == '$') {
			enum pft_dbg_map want = name[1] == 'a' ? PFT_DBG_MAP_ARM :
						name[1] == 't' ? PFT_DBG_MAP_THUMB :
								 PFT_DBG_MAP_DATA;
			nmap++;
			if (pft_dbg_mapping(d, v) != want && ++bad <= 5)
				fprintf(stderr, "%s: mapping %s at %llx\n", base(elf), name, v);
			continue;
		}
		if (strchr("aAN", type))
			continue;
		nsym++;
		for (i = 0; i < pft_dbg_symbol_count(d); i++) {
			struct pft_dbg_symbol s;

			pft_dbg_symbol_at(d, i, &s, sizeof(s));
			if (!strcmp(s.name, name) &&
			    (s.addr == v || (s.isa == PFT_ISA_THUMB && s.addr == (v & ~1ull)))) {
				found = 1;
				break;
			}
		}
		if (!found && ++bad <= 5)
			fprintf(stderr, "%s: nm symbol %s at %llx missing\n", base(elf), name, v);
	}
	if (p)
		pclose(p);
	CHECK(nsym > 0);
	CHECK(nmap > 0);
	CHECK_EQ(bad, 0);
	printf("nm %s: %ld symbols, %ld mapping symbols agree\n", base(elf), nsym, nmap);
	pft_dbg_free(d);
}

/* Lines never 0, rows sorted and disjoint, every row found by its address. */
static void check_rows(const char *elf)
{
	struct pft_dbg *d = pft_dbg_alloc();
	struct pft_dbg_line a, b;
	size_t i, n;
	long bad = 0;

	CHECK(pft_dbg_add_elf(d, elf, 0, NULL, 0) == 0);
	n = pft_dbg_line_count(d);
	CHECK(n > 10);
	CHECK(pft_dbg_has_lines(d));
	for (i = 0; i < n; i++) {
		pft_dbg_line_at(d, i, &a, sizeof(a));
		if (a.line == 0 || a.end <= a.addr || pft_dbg_line_index(d, a.addr) != (long)i)
			bad++;
		if (i + 1 < n) {
			pft_dbg_line_at(d, i + 1, &b, sizeof(b));
			if (b.addr < a.end)
				bad++;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(pft_dbg_func_count(d) > 0);
	pft_dbg_free(d);
}

/* Two images at once with load offsets; symbol map; errors. */
static void test_images(const char *e1, const char *e2)
{
	struct pft_dbg *d = pft_dbg_alloc();
	struct pft_dbg_symbol s1, s2;
	struct pft_dbg_line l1, l2;
	struct pft_dbg_func f;
	char msg[256], map[] = "/tmp/pft_map_XXXXXX", cmd[1024];
	int fd;

	CHECK_EQ(pft_dbg_add_elf(d, e1, 0, msg, sizeof(msg)), 0);
	CHECK_EQ(pft_dbg_add_elf(d, e2, 0x40000000, msg, sizeof(msg)), 1);
	CHECK_EQ(pft_dbg_image_count(d), 2);
	for (fd = 0; fd < (int)pft_dbg_func_count(d); fd++) {
		CHECK_EQ(pft_dbg_func_at(d, (size_t)fd, &f, sizeof(f)), 0);
		if (f.image == 1 && !strcmp(f.name, "main"))
			break;
	}
	CHECK(f.image == 1 && f.addr > 0x40000000);
	CHECK_EQ(pft_dbg_func_find(d, f.addr + 2, &f, sizeof(f)), 0);
	CHECK(f.image == 1 && !strcmp(f.name, "main") && f.line > 0 && strstr(f.file, "switch.c"));
	CHECK_EQ(pft_dbg_symbol(d, 0x1003c, &s1, sizeof(s1)), 0);
	CHECK_EQ(pft_dbg_symbol(d, 0x4001003c, &s2, sizeof(s2)), 0);
	CHECK(!strcmp(s1.name, "_start") && !strcmp(s2.name, "_start"));
	CHECK_EQ(s2.image, 1);
	CHECK_EQ(pft_dbg_line(d, 0x1003c, &l1, sizeof(l1)), 0);
	CHECK_EQ(pft_dbg_line(d, 0x4001003c, &l2, sizeof(l2)), 0);
	CHECK_EQ(l1.line, l2.line);
	CHECK_EQ(l1.file_id, l2.file_id); /* same start.S: one file id */
	CHECK_EQ(pft_dbg_line(d, 0x20000000, &l1, sizeof(l1)), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_dbg_add_elf(d, "/nonexistent", 0, msg, sizeof(msg)), -PFT_E_IO);
	CHECK(strstr(msg, "nonexistent") != NULL);
	CHECK_EQ(pft_dbg_add_elf_mem(d, "not an elf", 10, 0, msg, sizeof(msg)), -PFT_E_FORMAT);
	CHECK_EQ(pft_dbg_image_count(d), 2);
	pft_dbg_free(d);

	/* nm output as a symbol map: the same symbols as the ELF */
	fd = mkstemp(map);
	CHECK(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "arm-none-eabi-nm -S --special-syms '%s' > %s", e1, map);
	CHECK(system(cmd) == 0);
	d = pft_dbg_alloc();
	CHECK_EQ(pft_dbg_add_symbol_map(d, map, 0x1000, msg, sizeof(msg)), 0);
	CHECK_EQ(pft_dbg_symbol(d, 0x1003c + 0x1000, &s1, sizeof(s1)), 0);
	CHECK(!strcmp(s1.name, "_start"));
	CHECK_EQ(pft_dbg_mapping(d, 0x1003c + 0x1000), PFT_DBG_MAP_ARM);
	CHECK(!pft_dbg_has_lines(d));
	pft_dbg_free(d);
	check_write_file(map, "c0008001 T stext\nnot a line at all\n");
	d = pft_dbg_alloc();
	CHECK_EQ(pft_dbg_add_symbol_map(d, map, 0, msg, sizeof(msg)), -PFT_E_FORMAT);
	CHECK(strstr(msg, ":2:") != NULL);
	CHECK_EQ(pft_dbg_symbol_count(d), 0); /* nothing half-added */
	pft_dbg_free(d);

	/* a stripped ELF (no .symtab, no DWARF): loads with empty tables (the
	   tables were sorted with qsort(NULL, 0, ...), undefined: UBSan) */
	snprintf(cmd, sizeof(cmd), "arm-none-eabi-strip -o %s '%s'", map, e1);
	CHECK(system(cmd) == 0);
	d = pft_dbg_alloc();
	CHECK_EQ(pft_dbg_add_elf(d, map, 0, msg, sizeof(msg)), 0);
	CHECK_EQ(pft_dbg_symbol_count(d), 0);
	CHECK_EQ(pft_dbg_symbol(d, 0x1003c, &s1, sizeof(s1)), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_dbg_line(d, 0x1003c, &l1, sizeof(l1)), -PFT_E_NOTFOUND);
	CHECK(!pft_dbg_has_lines(d));
	pft_dbg_free(d);
	check_write_file(map, "# a comment\n\nc0008001 T stext\nc0008100 00000010 t helper\n"
			      "         U undefined\nc0009000 d $d\nc0009000 D data\n");
	d = pft_dbg_alloc();
	CHECK_EQ(pft_dbg_add_symbol_map(d, map, 0, msg, sizeof(msg)), 0);
	CHECK_EQ(pft_dbg_symbol_count(d), 3);
	CHECK_EQ(pft_dbg_symbol(d, 0xc0008004, &s1, sizeof(s1)), 0);
	CHECK(!strcmp(s1.name, "stext") && s1.addr == 0xc0008000 && s1.isa == PFT_ISA_THUMB);
	CHECK_EQ(pft_dbg_symbol(d, 0xc0008104, &s1, sizeof(s1)), 0);
	CHECK(!strcmp(s1.name, "helper") && s1.size == 0x10);
	CHECK_EQ(pft_dbg_mapping(d, 0xc0009004), PFT_DBG_MAP_DATA);
	pft_dbg_free(d);
	unlink(map);
}

/* pft_dbg_symbol_range: every address of its range gives the answer
 * pft_dbg_symbol gives at the address asked, over maps with nested sized
 * symbols, several symbols at one address, unsized ones and gaps. */
static void test_symbol_range(void)
{
	unsigned seed, k;

	for (seed = 1; seed <= 20; seed++) {
		char map[] = "/tmp/pft_symrange_XXXXXX", msg[256];
		int fd = mkstemp(map);
		FILE *mf = fd >= 0 ? fdopen(fd, "w") : NULL;
		struct pft_dbg *d;
		uint64_t a = 0x1000, x, lo, hi, y;
		unsigned r = seed * 2654435761u;

		CHECK(mf != NULL);
		if (!mf)
			return;
		for (k = 0; k < 40; k++) {
			r = r * 1103515245u + 12345u;
			a += (r >> 16) % 3 == 0 ? 0 : 4 * ((r >> 8) % 24);
			if ((r >> 20) % 3)
				fprintf(mf, "%08llx %08x T f%u\n", (unsigned long long)a, 4 * ((r >> 4) % 40), k);
			else
				fprintf(mf, "%08llx T f%u\n", (unsigned long long)a, k);
		}
		fclose(mf);
		d = pft_dbg_alloc();
		CHECK_EQ(pft_dbg_add_symbol_map(d, map, 0, msg, sizeof(msg)), 0);
		for (x = 0xF00; x < a + 0x200; x += 2) {
			struct pft_dbg_symbol s1, s2;
			int r1 = pft_dbg_symbol_range(d, x, &s1, sizeof(s1), &lo, &hi), r2;

			CHECK(lo <= x && x < hi);
			CHECK_EQ(r1, pft_dbg_symbol(d, x, &s2, sizeof(s2)));
			if (hi - lo > 0x10000)      /* before the first, or past the last */
				hi = lo + 0x10000 > x + 0x400 ? x + 0x400 : lo + 0x10000;
			for (y = lo < 0xE00 ? 0xE00 : lo; y < hi; y++) {
				r2 = pft_dbg_symbol(d, y, &s2, sizeof(s2));
				if (r2 != r1 || (r1 == 0 && (s2.addr != s1.addr || strcmp(s2.name, s1.name)))) {
					printf("seed %u: 0x%llx gives [0x%llx, 0x%llx) but 0x%llx differs\n", seed,
					       (unsigned long long)x, (unsigned long long)lo,
					       (unsigned long long)hi, (unsigned long long)y);
					CHECK(0);
					break;
				}
			}
		}
		CHECK_EQ(pft_dbg_symbol_range(NULL, 0, NULL, 0, &lo, &hi), -PFT_E_INVAL);
		pft_dbg_free(d);
		unlink(map);
	}
}

/* Programs built with clang for armv7 (ARM and Thumb, -O2 so that
 * functions are inlined, DWARF 4 and 5), linked with lld. */
static void test_clang(const char *src)
/* binutils' addr2line misreads clang's mix of DWARF 4 (C) and 5 (start.S)
 * and its DWARF 5 inline records: llvm-addr2line is the reference here */
{
	static const char *const variants[] = {
		"-marm -O2 -gdwarf-4", "-mthumb -O2 -gdwarf-5", "-mthumb -O0 -gdwarf-4",
	};
	char dir[] = "/tmp/pft_clang_XXXXXX", cmd[2048], elf[512];
	size_t v;

	if (!have("clang") || !have("ld.lld") || !have("llvm-addr2line") || !mkdtemp(dir)) {
		printf("SKIP clang programs: clang or ld.lld missing\n");
		return;
	}
	for (v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		long bad = 0, n;

		snprintf(elf, sizeof(elf), "%s/prog%zu.elf", dir, v);
		snprintf(cmd, sizeof(cmd),
			 "clang --target=armv7a-none-eabi -mcpu=cortex-a15 -mfloat-abi=soft %s "
			 "-ffreestanding -fno-builtin -nostdlib -fuse-ld=lld -I%s/examples "
			 "-Wl,-T,%s/examples/link.ld %s/examples/start.S %s/examples/%s -o %s",
			 variants[v], src, src, src, src, "recursion.c", elf);
		if (system(cmd) != 0) {
			fprintf(stderr, "cannot build with: %s\n", cmd);
			CHECK(0);
			continue;
		}
		n = compare_addr2line("llvm-addr2line", elf, 0, &bad);
		printf("llvm-addr2line clang %s: %ld instructions, %ld differ\n", variants[v], n, bad);
		CHECK(n > 50);
		CHECK_EQ(bad, 0);
		compare_nm("arm-none-eabi-", elf);
		check_rows(elf);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* Damaged ELF files (random bytes changed, cut short): a load either
 * succeeds or fails with a message, never crashes; what loads answers
 * every query.  (fuzz/fuzz_debuginfo.c does this without end.) */
static void test_damaged(const char *src)
{
	static const char *const seeds[] = { "irq_gcc.elf", "pgo_clang_dwarf5.elf" };
	size_t k;
	uint64_t rs = check_seed(7);

	for (k = 0; k < 2; k++) {
		char path[1024];
		size_t len, i;
		uint8_t *orig, *buf;
		int it, ok = 0, failed = 0;

		snprintf(path, sizeof(path), "%s/fuzz/seeds/debuginfo/%s", src, seeds[k]);
		orig = check_read_file(path, &len);
		CHECK(orig != NULL);
		if (!orig)
			continue;
		buf = malloc(len);
		for (it = 0; it < 400; it++) {
			struct pft_dbg *d = pft_dbg_alloc();
			char msg[256] = "";
			size_t n = len;
			int r, j;

			memcpy(buf, orig, len);
			for (j = 0; j < 1 + it % 8; j++)
				buf[check_rand(&rs) % len] = (uint8_t)check_rand(&rs);
			if (it % 5 == 4)
				n = 1 + check_rand(&rs) % len;
			r = pft_dbg_add_elf_mem(d, buf, n, 0x1000, msg, sizeof(msg));
			if (r < 0) {
				failed++;
				CHECK(msg[0] != 0);
			} else {
				struct pft_dbg_frame fr[8];

				ok++;
				for (i = 0; i < pft_dbg_line_count(d); i++) {
					struct pft_dbg_line l;

					CHECK_EQ(pft_dbg_line_at(d, i, &l, sizeof(l)), 0);
					CHECK(l.line != 0 && l.file != NULL);
					pft_dbg_inline_chain(d, l.addr, fr, 8);
				}
			}
			pft_dbg_free(d);
		}
		printf("damaged %s: %d loaded, %d refused with a message\n", seeds[k], ok, failed);
		free(buf);
		free(orig);
	}
}

int main(void)
{
	const char *build = getenv("PFT_BUILD"), *src = getenv("PFT_SOURCE");
	static const char *const ex[] = { "recursion", "switch", "funcptr", "interwork",
					  "itblock", "irq", "pgo" };
	char elf[512], elf2[512];
	size_t i;

	test_symbol_range();
	if (!build || !src || !have("arm-none-eabi-addr2line")) {
		printf("SKIP: needs PFT_BUILD, PFT_SOURCE and arm-none-eabi binutils\n");
		return 77;
	}
	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		long bad = 0, n;

		snprintf(elf, sizeof(elf), "%s/examples/%s.elf", build, ex[i]);
		if (access(elf, R_OK) != 0) {
			printf("SKIP %s: not built\n", elf);
			continue;
		}
		n = compare_addr2line("arm-none-eabi-addr2line", elf, 0, &bad);
		printf("addr2line %s: %ld instructions, %ld differ\n", ex[i], n, bad);
		CHECK(n > 50);
		CHECK_EQ(bad, 0);
		/* the same with a load offset */
		bad = 0;
		compare_addr2line("arm-none-eabi-addr2line", elf, 0x80000000u, &bad);
		CHECK_EQ(bad, 0);
		compare_nm("arm-none-eabi-", elf);
		check_rows(elf);
	}
	snprintf(elf, sizeof(elf), "%s/examples/recursion.elf", build);
	snprintf(elf2, sizeof(elf2), "%s/examples/switch.elf", build);
	if (access(elf, R_OK) == 0 && access(elf2, R_OK) == 0)
		test_images(elf, elf2);
	test_clang(src);
	test_damaged(src);
	return check_report();
}
