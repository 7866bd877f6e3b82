/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PFT_EXAMPLE_INTERWORK_H
#define PFT_EXAMPLE_INTERWORK_H
unsigned arm_mix(unsigned x);
unsigned arm_calls_thumb(unsigned x);
unsigned arm_via_pointer(unsigned (*fn)(unsigned), unsigned x);
unsigned thumb_square(unsigned x);
#endif
