/*
 * lab_kinds.c — the table of lab_kind rows (lab_kinds.h), one per kind, read
 * from each kind's descriptor (kinds/<kind>/kind.def, its TL_KIND line): a new
 * kind is a new descriptor, not a branch in the plan or the report.
 */
#include "lab_kinds.h"

#include <string.h>

#define TL_KIND(name, ...) {.kind = #name, __VA_ARGS__},
static const lab_kind kinds[] = {
    /* The first row (transpose) is also the kind of a rubric whose kind has no row. */
#include "../kinds/kinds.def"
};
#undef TL_KIND

const lab_kind *kind_of(const tl_rubric *r)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kinds[i].kind, r->kind))
            return &kinds[i];
    return &kinds[0];
}
