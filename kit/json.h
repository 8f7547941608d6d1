/*
 * json.h — a small JSON writer (with full string escaping) and reader.
 *
 * The writer produces the results the grader hands to Gradescope and the
 * measurement files between grader steps; the reader reads those and
 * Criterion's --json report. Both are unit-tested in tests/unit/json.c.
 */
#ifndef TILELAB_JSON_H
#define TILELAB_JSON_H

#include <stdio.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- writer ---------------------------------------------------------- */

enum { TL_JSON_MAX_DEPTH = 32 };

typedef struct {
    FILE *out;
    int depth;
    int count[TL_JSON_MAX_DEPTH];  /* values written so far at each level */
} tl_json_writer;

void tl_jw_init(tl_json_writer *w, FILE *out);
/* `key` is the member name inside an object, NULL inside an array or at top level. */
void tl_jw_object_begin(tl_json_writer *w, const char *key);
void tl_jw_object_end(tl_json_writer *w);
void tl_jw_array_begin(tl_json_writer *w, const char *key);
void tl_jw_array_end(tl_json_writer *w);
void tl_jw_string(tl_json_writer *w, const char *key, const char *value); /* NULL writes null */
void tl_jw_number(tl_json_writer *w, const char *key, double value);     /* NaN/Inf write null */
void tl_jw_int(tl_json_writer *w, const char *key, long long value);
void tl_jw_bool(tl_json_writer *w, const char *key, int value);
/* Write `s` as a quoted JSON string: quotes, backslashes and control bytes
 * escaped; bytes that are not UTF-8 written as U+FFFD. */
void tl_json_write_escaped(FILE *out, const char *s);

/* ---- reader ---------------------------------------------------------- */

typedef enum { TL_JSON_NULL, TL_JSON_BOOL, TL_JSON_NUMBER, TL_JSON_STRING,
               TL_JSON_ARRAY, TL_JSON_OBJECT } tl_json_type;

typedef struct tl_json tl_json;
struct tl_json {
    tl_json_type type;
    char *key;          /* member name when inside an object */
    double number;      /* NUMBER, and BOOL as 0/1 */
    char *string;       /* STRING */
    tl_json *child;     /* first element of ARRAY / OBJECT */
    tl_json *next;      /* next sibling */
};

/* NULL on error, with "line L, column C: what" in err. */
tl_json *tl_json_parse(const char *text, char *err, size_t errlen);
tl_json *tl_json_parse_file(const char *path, char *err, size_t errlen);
void tl_json_free(tl_json *v);

const tl_json *tl_json_get(const tl_json *object, const char *key);
/* Path lookups with a fallback when the member is missing or of another type. */
double tl_json_number(const tl_json *object, const char *key, double fallback);
const char *tl_json_string(const tl_json *object, const char *key, const char *fallback);
size_t tl_json_length(const tl_json *array);

#ifdef __cplusplus
}
#endif

#endif
