/* SPDX-License-Identifier: BSD-3-Clause */
#include "count_check.h"

#include <string.h>

#include "check.h"

/* A counts struct of any family: items[n], bytes[n], first_error. */
struct tally {
	uint64_t v[2 * COUNT_MAX_TYPES + 1];
};

static size_t tally_size(const struct count_ops *o)
{
	return (2 * (size_t)o->ntypes + 1) * sizeof(uint64_t);
}

static uint64_t *items(struct tally *k)
{
	return k->v;
}

static uint64_t *bytes(const struct count_ops *o, struct tally *k)
{
	return k->v + o->ntypes;
}

static uint64_t *first_error(const struct count_ops *o, struct tally *k)
{
	return k->v + 2 * o->ntypes;
}

static const void *item_at(const struct count_ops *o, const void *arr, int i)
{
	return (const char *)arr + (size_t)i * o->item_size;
}

/* Counts one item as _count does. */
static void add_item(const struct count_ops *o, struct tally *k, const void *item)
{
	unsigned type;
	uint64_t offset, size;

	o->item_info(item, &type, &offset, &size);
	if (type == o->error_type && !items(k)[type])
		*first_error(o, k) = offset;
	items(k)[type]++;
	bytes(o, k)[type] += size;
}

/* Adds the counts of one _count call (part) to the total so far; returns
 * the items it counted. */
static uint64_t add_tally(const struct count_ops *o, struct tally *total, struct tally *part)
{
	uint64_t n = 0;
	unsigned t;

	for (t = 0; t < o->ntypes; t++) {
		n += items(part)[t];
		if (items(part)[t] && t == o->error_type && !items(total)[t])
			*first_error(o, total) = *first_error(o, part);
		items(total)[t] += items(part)[t];
		bytes(o, total)[t] += bytes(o, part)[t];
	}
	return n;
}

static void same_counts(const struct count_ops *o, const char *what, struct tally *a,
			struct tally *b)
{
	unsigned t;

	if (!memcmp(a, b, tally_size(o)))
		return;
	fprintf(stderr, "%s: counts differ\n", what);
	for (t = 0; t < o->ntypes; t++)
		if (items(a)[t] != items(b)[t] || bytes(o, a)[t] != bytes(o, b)[t])
			fprintf(stderr, "  %-16s %llu/%llu items, %llu/%llu bytes\n", o->type_name(t),
				(unsigned long long)items(a)[t], (unsigned long long)items(b)[t],
				(unsigned long long)bytes(o, a)[t], (unsigned long long)bytes(o, b)[t]);
	if (*first_error(o, a) != *first_error(o, b))
		fprintf(stderr, "  first error at %llu/%llu\n",
			(unsigned long long)*first_error(o, a), (unsigned long long)*first_error(o, b));
	CHECK(0);
}

static void print_item(const struct count_ops *o, const void *item)
{
	unsigned type;
	uint64_t offset, size;

	fprintf(stderr, "  ");
	if (o->print) {
		o->print(stderr, item);
		return;
	}
	o->item_info(item, &type, &offset, &size);
	fprintf(stderr, "%s at %llu, %llu bytes\n", o->type_name(type), (unsigned long long)offset,
		(unsigned long long)size);
}

int count_ref(const struct count_ops *o, const struct pft_config *c, int mode,
	      const uint8_t *buf, size_t len, void *out, int max)
{
	void *d = o->alloc(c, mode);
	int n = 0;

	if (!d)
		return 0;
	CHECK_EQ(o->feed(d, buf, len), 0);
	CHECK_EQ(o->end(d), 0);
	while (n < max && o->next(d, (char *)out + (size_t)n * o->item_size) == 0)
		n++;
	CHECK(n < max);
	o->free(d);
	return n;
}

void count_check_stream(const struct count_ops *o, const char *what, const struct pft_config *c,
			int mode, const uint8_t *buf, size_t len, const void *ref, int nref,
			uint64_t *rng)
{
	struct tally want, got, part;
	unsigned char item[1024];
	size_t pos = 0;
	int i, r, idx = 0, bad = 0;
	void *d;

	CHECK(o->ntypes <= COUNT_MAX_TYPES && o->item_size <= sizeof(item));
	if (o->ntypes > COUNT_MAX_TYPES || o->item_size > sizeof(item))
		return;
	memset(&want, 0, sizeof(want));
	for (i = 0; i < nref; i++)
		add_item(o, &want, item_at(o, ref, i));

	/* one chunk */
	d = o->alloc(c, mode);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	CHECK_EQ(o->feed(d, buf, len), 0);
	CHECK_EQ(o->count(d, got.v, tally_size(o)), -PFT_E_AGAIN);
	CHECK_EQ(o->end(d), 0);
	CHECK_EQ(o->count(d, got.v, tally_size(o)), -PFT_E_EOS);
	CHECK_EQ(o->get_offset(d), len);
	same_counts(o, what, &want, &got);
	o->free(d);

	/* random chunks, each counted (into a fresh struct, added up after)
	 * or pulled one item at a time */
	d = o->alloc(c, mode);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	for (;;) {
		uint64_t x = check_rand(rng);
		size_t k = (x & 1) ? (x >> 8) % 20 : (x >> 8) % 3000;
		if (k > len - pos)
			k = len - pos;
		CHECK_EQ(o->feed(d, buf + pos, k), 0);
		pos += k;
		if (pos == len)
			o->end(d);
		if ((x >> 40) % 3 == 0) {
			while ((r = o->next(d, item)) == 0) {
				if ((idx >= nref || memcmp(item, item_at(o, ref, idx), o->item_size)) &&
				    !bad++) {
					fprintf(stderr, "%s: item %d pulled after counting differs\n", what,
						idx);
					print_item(o, item);
					if (idx < nref)
						print_item(o, item_at(o, ref, idx));
				}
				add_item(o, &got, item);
				idx++;
			}
		} else {
			memset(&part, 0, sizeof(part));
			r = o->count(d, part.v, tally_size(o));
			idx += (int)add_tally(o, &got, &part);
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(bad, 0);
	CHECK_EQ(idx, nref);
	same_counts(o, what, &want, &got);
	o->free(d);
}

void count_check_short_struct(const struct count_ops *o, const struct pft_config *c, int mode,
			      const uint8_t *buf, size_t len, int nref)
{
	uint64_t small[COUNT_MAX_TYPES + 1], total = 0;
	unsigned t;
	void *d = o->alloc(c, mode);

	if (!d)
		return;
	memset(small, 0, sizeof(small));
	small[o->ntypes] = 0xA5A5A5A5A5A5A5A5ull;
	CHECK_EQ(o->feed(d, buf, len), 0);
	CHECK_EQ(o->end(d), 0);
	CHECK_EQ(o->count(d, small, o->ntypes * sizeof(small[0])), -PFT_E_EOS);
	for (t = 0; t < o->ntypes; t++)
		total += small[t];
	CHECK_EQ(total, (uint64_t)nref);
	CHECK_EQ(small[o->ntypes], 0xA5A5A5A5A5A5A5A5ull);
	o->free(d);
}
