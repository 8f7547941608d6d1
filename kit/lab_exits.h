/*
 * lab_exits.h — a lab file's exit, _exit, _Exit, quick_exit and abort,
 * turned into a reply by the worker that mapped it (kit/lab_exits.c).
 */
#ifndef TILELAB_LAB_EXITS_H
#define TILELAB_LAB_EXITS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set by a worker once it has mapped the lab file: called with "called exit
 * (status 1)" and the caller's return address (NULL: none, an exception); it
 * replies and ends the process (it must not return). NULL: every call is
 * libc's own. */
extern void (*tl_lab_ending)(const char *what, const void *caller);

/* Where `caller` (a return address) lies, for a student: "in FUNCTION (+0xOFF,
 * LIBRARY)", the nearest exported name. */
void tl_lab_where(const void *caller, char *out, size_t len);

/* The functions the worker exports for the lab file to bind to (mk/kit.mk, cpu/cpu.mk). */
#define TL_LAB_EXITS "exit _exit _Exit quick_exit abort"

#ifdef __cplusplus
}
#endif

#endif
