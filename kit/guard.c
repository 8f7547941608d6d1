/* guard.c — canary guard regions: fill and scan (host side, unit-tested). */
#include "guard.h"

#include <stdio.h>

uint32_t tl_canary(unsigned k)
{
    return (TL_CANARY & TL_CANARY_MASK) | ((k & 0xFFu) << 8);
}

int tl_is_canary(uint32_t bits)
{
    return (bits & TL_CANARY_MASK) == (TL_CANARY & TL_CANARY_MASK);
}

void tl_guard_fill(uint32_t *guard_words, size_t guard, uint32_t canary)
{
    for (size_t i = 0; i < guard; i++)
        guard_words[i] = canary;
}

tl_guard_report tl_guard_scan(const uint32_t *before, const uint32_t *after, size_t guard, size_t n,
                              uint32_t canary)
{
    tl_guard_report g = {0, 0};
    for (size_t i = 0; i < guard; i++) {  /* lowest address first */
        if (before[i] != canary) {
            if (g.count == 0)
                g.offset = (long long)i - (long long)guard;
            g.count++;
        }
    }
    for (size_t i = 0; i < guard; i++) {
        if (after[i] != canary) {
            if (g.count == 0)
                g.offset = (long long)(n + i);
            g.count++;
        }
    }
    return g;
}

void tl_describe_guard(const tl_guard_report *g, const char *buffer_name, size_t n, char *buf, size_t len)
{
    if (g->count == 0) {
        snprintf(buf, len, "nothing written outside the %s", buffer_name);
    } else if (g->offset < 0) {
        snprintf(buf, len, "wrote outside the %s at offset %lld (%lld elements before its start); %zu guard words changed",
                 buffer_name, g->offset, -g->offset, g->count);
    } else {
        snprintf(buf, len, "wrote outside the %s at offset %lld (%lld elements past its end of %zu); %zu guard words changed",
                 buffer_name, g->offset, g->offset - (long long)n + 1, n, g->count);
    }
}
