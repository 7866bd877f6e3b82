/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz the ISA classifier: every instruction set, every option, at an
 * address taken from the input; checks the output invariants. */
#include <stdlib.h>
#include <string.h>

#include "pft/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr = 0;
	size_t i;

	for (i = 0; i < 4 && i < size; i++)
		addr |= (uint64_t)data[i] << (8 * i);
	for (unsigned isa = 0; isa <= 4; isa++) {
		for (unsigned opts = 0; opts < 4; opts++) {
			size_t off = 0;
			while (off < size) {
				struct pft_insn_info in;
				int rc = pft_isa_decode((enum pft_isa)isa, addr + off, data + off,
				                        size - off, opts, &in);
				if (rc == -PFT_E_NOMAP) {
					if (in.size <= size - off)
						abort();
					break;
				}
				if (rc != 0) {
					if (isa < 3)
						abort();
					break;
				}
				if (in.size != 2 && in.size != 4)
					abort();
				if (in.wp_class >= PFT_WP_NR || in.cond > 15)
					abort();
				if ((in.flags & PFT_INSN_F_UNDEFINED) && in.wp_class != PFT_WP_NONE)
					abort();
				if (in.wp_class == PFT_WP_DIRECT && !(in.flags & PFT_INSN_F_TARGET))
					abort();
				if (!(in.flags & PFT_INSN_F_TARGET) && in.target != 0)
					abort();
				if (in.target > 0xFFFFFFFFu)
					abort();
				if (isa == PFT_ISA_ARM && in.size != 4)
					abort();
				if ((in.flags & PFT_INSN_F_IT) && (in.it_mask == 0 || isa == PFT_ISA_ARM))
					abort();
				off += in.size;
			}
		}
	}
	return 0;
}
