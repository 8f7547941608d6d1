/*
 * switch_x86_64.S — the context switch between CUDA threads in CPU mode.
 *
 *   void tlc_switch(void **save_sp, void *to_sp);
 *
 * Saves the callee-saved registers of the System V ABI on the current stack,
 * stores the stack pointer in *save_sp, loads to_sp and restores the
 * registers saved there. Caller-saved registers need no saving: this is a
 * call. A new thread's stack is laid out by cpu/runtime.cc (fiber_init) as
 * six zero registers and the address to return into. Not saved: the x87
 * and SSE control words (no lab code changes rounding modes).
 */
    .text
    .globl tlc_switch
    .type tlc_switch, @function
tlc_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size tlc_switch, .-tlc_switch
    .section .note.GNU-stack, "", @progbits
