/* SPDX-License-Identifier: BSD-3-Clause */
/* Does a stream read as ITM (ARMv7-M architecture, appendix D4)?  ITM's
 * synchronisation packet is the PFT/ETMv3 A-sync (47+ zero bits then a 1:
 * five 0x00 then 0x80), so a stream with that sync that neither the PFT nor
 * the ETMv3 decoder reads is walked as ITM packets from its first sync:
 *   0x00...0x80           synchronisation
 *   0x70                  overflow
 *   bits[1:0] != 0        instrumentation (bit 2 = 0) or hardware source
 *                         packet with 1, 2 or 4 payload bytes
 *   bits[3:0] = 0         local timestamp (continuation bytes when b7 set)
 *   0x94, 0xB4            global timestamp 1 / 2 (continuation bytes)
 *   bits[3:0] = 1x00      extension (continuation bytes when b7 set)
 *   bits[3:0] = 0100      reserved (other than 0x94/0xB4)
 * ITM has no redundancy beyond its reserved headers, about one header value
 * in sixteen: a real ITM stream has none, random bytes one header in ~16. */
#include "probe_int.h"

static size_t continuation(const uint8_t *buf, size_t len, size_t i, unsigned max)
{
	unsigned k = 0;

	while (i < len && k < max) {
		uint8_t b = buf[i++];
		k++;
		if (!(b & 0x80))
			break;
	}
	return i;
}

void probe_itm(const uint8_t *buf, size_t len, size_t i, uint64_t *packets, uint64_t *reserved,
               uint64_t *swit)
{
	static const uint8_t payload[4] = { 0, 1, 2, 4 };

	*packets = *reserved = *swit = 0;
	while (i < len) {
		uint8_t h = buf[i];

		(*packets)++;
		if (h == 0x00) {
			size_t z = i;
			while (z < len && buf[z] == 0)
				z++;
			if (z < len && buf[z] != 0x80)
				(*reserved)++;
			i = z + 1;
		} else if (h == 0x70) {
			i++;
		} else if (h & 3) {
			*swit += !(h & 4);
			i += 1 + payload[h & 3];
		} else if ((h & 0x0F) == 0) {
			i = h & 0x80 ? continuation(buf, len, i + 1, 4) : i + 1;
		} else if (h == 0x94 || h == 0xB4) {
			i = continuation(buf, len, i + 1, h == 0x94 ? 4 : 6);
		} else if ((h & 0x0B) == 0x08) {
			i = h & 0x80 ? continuation(buf, len, i + 1, 4) : i + 1;
		} else {
			(*reserved)++;
			i++;
		}
	}
}
