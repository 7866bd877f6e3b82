/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv2 trace port capture files: the binary form (8-byte header, one record
 * per cycle) and the text form (one line per cycle).  doc/tfo.md is the
 * format specification.  Everything works on caller buffers, one header or
 * record or line at a time, so captures of any size stream through. */
#include <stdio.h>
#include <string.h>

#include "pft/tfo.h"

static const uint8_t magic[4] = { 'E', 'T', 'M', '2' };
#define BIN_VERSION 1
#define BIN_FLAG_CA 0x01u

size_t pft_tfo_bin_record_size(unsigned width)
{
	if (width == 4 || width == 8)
		return 2;
	if (width == 16)
		return 3;
	return 0;
}

int pft_tfo_bin_read_header(const uint8_t *buf, size_t len, struct pft_tfo_port *port)
{
	if (!buf || !port)
		return -PFT_E_INVAL;
	if (len < PFT_TFO_BIN_HEADER_SIZE)
		return len && memcmp(buf, magic, len < 4 ? len : 4) ? -PFT_E_FORMAT : -PFT_E_AGAIN;
	if (memcmp(buf, magic, 4) || buf[4] != BIN_VERSION)
		return -PFT_E_FORMAT;
	if (buf[5] != 4 && buf[5] != 8 && buf[5] != 16)
		return -PFT_E_FORMAT;
	port->width = buf[5];
	port->cycle_accurate = buf[6] & BIN_FLAG_CA;
	if ((buf[6] & ~BIN_FLAG_CA) || buf[7])
		return -PFT_E_BAD_FRAME;
	return PFT_TFO_BIN_HEADER_SIZE;
}

int pft_tfo_bin_read_record(const uint8_t *buf, size_t len, unsigned width,
			    struct pft_tfo_cycle *c)
{
	size_t n = pft_tfo_bin_record_size(width);
	int bad = 0;

	if (!buf || !c || !n)
		return -PFT_E_INVAL;
	if (len < n)
		return -PFT_E_AGAIN;
	c->pipestat = buf[0] & 0xFu;
	c->pad = 0;
	c->tracepkt = buf[1];
	if (n == 3)
		c->tracepkt |= (uint16_t)(buf[2] << 8);
	if (buf[0] & 0xF0u)
		bad = 1;
	if (width == 4 && (buf[1] & 0xF0u)) {
		c->tracepkt &= 0xFu;
		bad = 1;
	}
	return bad ? -PFT_E_BAD_FRAME : (int)n;
}

int pft_tfo_bin_write_header(uint8_t *buf, size_t cap, const struct pft_tfo_port *port)
{
	if (!buf || pft_tfo_port_check(port))
		return -PFT_E_INVAL;
	if (cap < PFT_TFO_BIN_HEADER_SIZE)
		return -PFT_E_NOSPC;
	memcpy(buf, magic, 4);
	buf[4] = BIN_VERSION;
	buf[5] = port->width;
	buf[6] = port->cycle_accurate ? BIN_FLAG_CA : 0;
	buf[7] = 0;
	return PFT_TFO_BIN_HEADER_SIZE;
}

static int cycle_fits(unsigned width, const struct pft_tfo_cycle *c)
{
	return c && c->pipestat < 16 && (width == 16 || c->tracepkt < (1u << width));
}

int pft_tfo_bin_write_record(uint8_t *buf, size_t cap, unsigned width,
			     const struct pft_tfo_cycle *c)
{
	size_t n = pft_tfo_bin_record_size(width);

	if (!buf || !n || !cycle_fits(width, c))
		return -PFT_E_INVAL;
	if (cap < n)
		return -PFT_E_NOSPC;
	buf[0] = c->pipestat;
	buf[1] = (uint8_t)(c->tracepkt & 0xFFu);
	if (n == 3)
		buf[2] = (uint8_t)(c->tracepkt >> 8);
	return (int)n;
}

/* ---- text form ------------------------------------------------------------ */

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Split the next whitespace-separated token. */
static size_t next_token(const char *s, size_t len, size_t *pos, const char **tok)
{
	size_t start, p = *pos;

	while (p < len && is_space((unsigned char)s[p]))
		p++;
	start = p;
	while (p < len && !is_space((unsigned char)s[p]) && s[p] != '#')
		p++;
	*tok = s + start;
	*pos = p;
	return p - start;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A number: "b0101" binary, "0x1F" or plain hex.  At most 16 bits. */
static int parse_num(const char *t, size_t n, unsigned *out)
{
	unsigned v = 0, digits = 0;
	size_t i = 0;
	int bin = 0;

	if (n >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		i = 2;
	else if (n >= 2 && (t[0] == 'b' || t[0] == 'B') && (t[1] == '0' || t[1] == '1'))
		i = 1, bin = 1;
	if (i >= n)
		return -1;
	for (; i < n; i++) {
		int d = bin ? (t[i] == '0' ? 0 : t[i] == '1' ? 1 : -1) : hexval((unsigned char)t[i]);

		if (d < 0 || ++digits > (bin ? 16u : 4u))
			return -1;
		v = bin ? (v << 1) | (unsigned)d : (v << 4) | (unsigned)d;
	}
	*out = v;
	return 0;
}

int pft_tfo_text_parse_line(const char *line, size_t len, unsigned width,
			    struct pft_tfo_cycle *c, struct pft_tfo_port *port)
{
	const char *t1, *t2, *t3, *t4;
	size_t n1, n2, n3, n4, pos = 0;
	unsigned ps, pkt;
	int r;

	if (!line)
		return -PFT_E_INVAL;
	n1 = next_token(line, len, &pos, &t1);
	if (n1 == 0)
		return (pos < len && line[pos] == '#') || pos >= len ? 0 : -PFT_E_BAD_FRAME;
	n2 = next_token(line, len, &pos, &t2);
	n3 = next_token(line, len, &pos, &t3);
	n4 = next_token(line, len, &pos, &t4);
	if (n4 || (pos < len && line[pos] != '#'))
		return -PFT_E_BAD_FRAME;
	if (n1 == 10 && !memcmp(t1, "etmv2-port", 10)) {
		unsigned w = 0;
		size_t i;

		if (!port || n2 == 0 || n2 > 2)
			return -PFT_E_BAD_FRAME;
		for (i = 0; i < n2; i++) {
			if (t2[i] < '0' || t2[i] > '9')
				return -PFT_E_BAD_FRAME;
			w = w * 10 + (unsigned)(t2[i] - '0');
		}
		if (w != 4 && w != 8 && w != 16)
			return -PFT_E_BAD_FRAME;
		if (n3 && !(n3 == 2 && !memcmp(t3, "ca", 2)))
			return -PFT_E_BAD_FRAME;
		port->width = (uint8_t)w;
		port->cycle_accurate = n3 ? 1 : 0;
		return 2;
	}
	if (!c || (width != 4 && width != 8 && width != 16) || !n2 || n3)
		return -PFT_E_BAD_FRAME;
	r = pft_tfo_ps_parse(t1, n1);
	if (r >= 0)
		ps = (unsigned)r;
	else if (parse_num(t1, n1, &ps) || ps > 15)
		return -PFT_E_BAD_FRAME;
	if (parse_num(t2, n2, &pkt) || (width < 16 && pkt >= (1u << width)))
		return -PFT_E_BAD_FRAME;
	c->pipestat = (uint8_t)ps;
	c->pad = 0;
	c->tracepkt = (uint16_t)pkt;
	return 1;
}

int pft_tfo_text_format_header(char *buf, size_t cap, const struct pft_tfo_port *port)
{
	int n;

	if (!buf || pft_tfo_port_check(port))
		return -PFT_E_INVAL;
	n = snprintf(buf, cap, "etmv2-port %u%s\n", port->width, port->cycle_accurate ? " ca" : "");
	if (n < 0 || (size_t)n >= cap)
		return -PFT_E_NOSPC;
	return n;
}

int pft_tfo_text_format_cycle(char *buf, size_t cap, unsigned width,
			      const struct pft_tfo_cycle *c)
{
	int n;

	if (!buf || (width != 4 && width != 8 && width != 16) || !cycle_fits(width, c))
		return -PFT_E_INVAL;
	n = snprintf(buf, cap, "%-4s 0x%0*x\n", pft_tfo_ps_name(c->pipestat), (int)(width / 4),
		     (unsigned)c->tracepkt);
	if (n < 0 || (size_t)n >= cap)
		return -PFT_E_NOSPC;
	return n;
}
