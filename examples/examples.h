/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared bits of the pft example programs. */
#ifndef PFT_EXAMPLES_H
#define PFT_EXAMPLES_H

/* Hide a constant from the optimiser so that the work happens at run time. */
static inline unsigned example_arg(unsigned v)
{
	__asm__ volatile("" : "+r"(v));
	return v;
}

/* Handlers the startup code (start.S) calls; weak defaults there. */
void irq_handler(void);
unsigned svc_handler(unsigned arg, unsigned number);
void undef_handler(unsigned addr);
void abort_handler(unsigned addr);
int main(void);

#endif
