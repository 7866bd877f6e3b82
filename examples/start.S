/* SPDX-License-Identifier: BSD-3-Clause */
/* Startup of the pft example programs (ARMv7-A, ARM state).
 *
 * _start is the ELF entry.  Run from reset (SVC mode, as `pft record` starts
 * a program) it points VBAR at the vector table below, gives the IRQ, abort,
 * undefined, SVC and System modes their stacks, enables IRQs, and calls main
 * in System mode (ARM or Thumb: BLX register interworks).  Run in User mode (qemu-arm user mode,
 * which the tests use as an independent oracle) it skips the system set-up.
 * When main returns, BKPT stops the run.
 *
 * Exception entries call the C handlers the example may define (weak
 * defaults below) and return the way ARMv7-A code does: MOVS PC, LR for
 * SVC, undefined instructions and aborts, LDM ^ for IRQ. */
	.syntax unified
	.arm

	.section .vectors, "ax"
	.global _vectors
_vectors:
	ldr	pc, =_start		/* reset */
	ldr	pc, =undef_entry	/* undefined instruction */
	ldr	pc, =svc_entry		/* SVC */
	ldr	pc, =pabt_entry		/* prefetch abort */
	ldr	pc, =dabt_entry		/* data abort */
	nop				/* reserved */
	ldr	pc, =irq_entry		/* IRQ */
	ldr	pc, =fiq_entry		/* FIQ */
	.ltorg

	.section .text.start, "ax"
	.global _start
	.type _start, %function
_start:
	mrs	r0, cpsr
	and	r0, r0, #0x1f
	cmp	r0, #0x10		/* User mode: no system set-up */
	beq	1f
	ldr	r0, =_vectors
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	isb
	cps	#0x12			/* IRQ */
	ldr	sp, =__stack_irq
	cps	#0x17			/* Abort */
	ldr	sp, =__stack_abt
	cps	#0x1b			/* Undefined */
	ldr	sp, =__stack_und
	cps	#0x13			/* SVC */
	ldr	sp, =__stack_svc
	cps	#0x1f			/* System: main runs here, so that an SVC */
	ldr	sp, =__stack_sys	/* does not overwrite its LR */
	cpsie	i
1:	ldr	r4, =__bss_start	/* clear .bss */
	ldr	r5, =__bss_end
	mov	r0, #0
2:	cmp	r4, r5
	strlo	r0, [r4], #4
	blo	2b
	ldr	r4, =main
	blx	r4
	.global _exit
_exit:
	bkpt	#0
	b	_exit

	.type undef_entry, %function
undef_entry:
	push	{r0-r3, r12, lr}
	sub	r0, lr, #4		/* address of the undefined instruction (ARM) */
	ldr	r12, =undef_handler
	blx	r12
	pop	{r0-r3, r12, lr}
	movs	pc, lr			/* resume after it */

	.type svc_entry, %function
svc_entry:
	push	{r1-r3, r12, lr}
	mrs	r12, spsr
	tst	r12, #0x20		/* Thumb caller: SVC #imm8 at lr-2 */
	ldrhne	r1, [lr, #-2]
	andne	r1, r1, #0xff
	ldreq	r1, [lr, #-4]		/* ARM caller: SVC #imm24 at lr-4 */
	biceq	r1, r1, #0xff000000
	ldr	r12, =svc_handler	/* r0 = argument, r1 = SVC number */
	blx	r12
	pop	{r1-r3, r12, lr}
	movs	pc, lr

	.type irq_entry, %function
irq_entry:
	sub	lr, lr, #4
	push	{r0-r3, r12, lr}
	ldr	r12, =irq_handler
	blx	r12
	ldm	sp!, {r0-r3, r12, pc}^

	.type dabt_entry, %function
dabt_entry:
	sub	lr, lr, #8		/* faulting instruction */
	push	{r0-r3, r12, lr}
	mov	r0, lr
	ldr	r12, =abort_handler
	blx	r12
	pop	{r0-r3, r12, lr}
	mrs	r12, spsr
	tst	r12, #0x20
	addne	lr, lr, #2		/* skip it (16-bit Thumb or ARM) */
	addeq	lr, lr, #4
	movs	pc, lr

	/* Prefetch abort: a call went to unmapped memory.  Return from the
	 * call as if the callee had returned at once: to the caller's LR
	 * (System/User bank), in the caller's instruction set. */
	.type pabt_entry, %function
pabt_entry:
	sub	sp, sp, #4
	stmia	sp, {lr}^		/* the interrupted mode's LR */
	ldr	lr, [sp], #4
	mrs	r12, spsr
	tst	lr, #1
	bicne	lr, lr, #1
	orrne	r12, r12, #0x20		/* back to Thumb */
	biceq	r12, r12, #0x20
	msr	spsr_fsxc, r12
	movs	pc, lr

fiq_entry:
	b	_exit

	.weak undef_handler, svc_handler, irq_handler, abort_handler
	.type default_handler, %function
default_handler:
undef_handler:
svc_handler:
irq_handler:
abort_handler:
	bx	lr
	.ltorg
