/* json.c — JSON writer and reader (see json.h). */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ---------------------------------------------------------- */

void tl_jw_init(tl_json_writer *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

/* The length of the well-formed UTF-8 sequence at p (1-4), or 0 when the
 * bytes there are not one: a stray continuation byte, a truncated sequence,
 * an overlong form, a surrogate or a code point past U+10FFFF. */
static int utf8_sequence(const unsigned char *p)
{
    int n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 0;
    if (n == 0 || p[0] > 0xF4 || p[0] == 0xC0 || p[0] == 0xC1)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)   /* also stops at the terminating NUL */
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||   /* overlong; a surrogate */
        (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))     /* overlong; past U+10FFFF */
        return 0;
    return n;
}

void tl_json_write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':  fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        default:
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else if (*p < 0x80) {
                fputc(*p, out);
            } else {
                /* UTF-8 passes through; any other byte (a Latin-1 comment
                 * quoted from a student's file) becomes U+FFFD, so the
                 * document stays valid JSON. */
                int n = utf8_sequence(p);
                if (n) {
                    fwrite(p, 1, (size_t)n, out);
                    p += n - 1;
                } else {
                    fputs("\xEF\xBF\xBD", out);
                }
            }
        }
    }
    fputc('"', out);
}

/* Separator, indentation and key before every value. */
static void begin_value(tl_json_writer *w, const char *key)
{
    if (w->depth > 0) {
        fputs(w->count[w->depth]++ ? ",\n" : "\n", w->out);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->out);
    }
    if (key) {
        tl_json_write_escaped(w->out, key);
        fputs(": ", w->out);
    }
}

static void open_level(tl_json_writer *w, const char *key, char bracket)
{
    begin_value(w, key);
    fputc(bracket, w->out);
    if (w->depth + 1 < TL_JSON_MAX_DEPTH)
        w->depth++;
    w->count[w->depth] = 0;
}

static void close_level(tl_json_writer *w, char bracket)
{
    int had_values = w->count[w->depth] > 0;
    if (w->depth > 0)
        w->depth--;
    if (had_values) {
        fputc('\n', w->out);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->out);
    }
    fputc(bracket, w->out);
    if (w->depth == 0)
        fputc('\n', w->out);
}

void tl_jw_object_begin(tl_json_writer *w, const char *key) { open_level(w, key, '{'); }
void tl_jw_object_end(tl_json_writer *w) { close_level(w, '}'); }
void tl_jw_array_begin(tl_json_writer *w, const char *key) { open_level(w, key, '['); }
void tl_jw_array_end(tl_json_writer *w) { close_level(w, ']'); }

void tl_jw_string(tl_json_writer *w, const char *key, const char *value)
{
    begin_value(w, key);
    if (value)
        tl_json_write_escaped(w->out, value);
    else
        fputs("null", w->out);
}

void tl_jw_number(tl_json_writer *w, const char *key, double value)
{
    begin_value(w, key);
    if (isfinite(value))
        fprintf(w->out, "%.10g", value);
    else
        fputs("null", w->out);
}

void tl_jw_int(tl_json_writer *w, const char *key, long long value)
{
    begin_value(w, key);
    fprintf(w->out, "%lld", value);
}

void tl_jw_bool(tl_json_writer *w, const char *key, int value)
{
    begin_value(w, key);
    fputs(value ? "true" : "false", w->out);
}

/* ---- reader ---------------------------------------------------------- */

typedef struct {
    const char *start, *p;
    char *err;
    size_t errlen;
    int failed;
} parser;

static void fail(parser *ps, const char *what)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    int line = 1, col = 1;
    for (const char *q = ps->start; q < ps->p; q++) {
        if (*q == '\n') { line++; col = 1; } else { col++; }
    }
    if (ps->err)
        snprintf(ps->err, ps->errlen, "line %d, column %d: %s", line, col, what);
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static tl_json *new_value(tl_json_type type)
{
    tl_json *v = calloc(1, sizeof *v);
    if (v)
        v->type = type;
    return v;
}

static void put_utf8(char **out, unsigned cp)
{
    char *o = *out;
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | (cp >> 6));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | (cp >> 12));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (cp >> 18));
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    *out = o;
}

static int read_hex4(const char *p, unsigned *cp)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *cp = v;
    return 0;
}

/* Parses a string at ps->p (which points at the opening quote). */
static char *parse_string(parser *ps)
{
    const char *q = ++ps->p;
    size_t raw = 0;
    while (q[raw] && q[raw] != '"') {
        if (q[raw] == '\\' && q[raw + 1])
            raw++;
        raw++;
    }
    char *s = malloc(raw + 1), *o = s;   /* escapes only shrink */
    if (!s) { fail(ps, "out of memory"); return NULL; }
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '\0') { fail(ps, "unterminated string"); free(s); return NULL; }
        if (c < 0x20) { fail(ps, "control character in string"); free(s); return NULL; }
        if (c != '\\') { *o++ = (char)c; ps->p++; continue; }
        ps->p++;
        switch (*ps->p++) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (read_hex4(ps->p, &cp)) { fail(ps, "bad \\u escape"); free(s); return NULL; }
            ps->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u' &&
                !read_hex4(ps->p + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                ps->p += 6;
            }
            put_utf8(&o, cp);
            break;
        }
        default: ps->p--; fail(ps, "bad escape in string"); free(s); return NULL;
        }
    }
    ps->p++;
    *o = '\0';
    return s;
}

static tl_json *parse_value(parser *ps, int depth);

static tl_json *parse_container(parser *ps, int depth, char close)
{
    tl_json *v = new_value(close == '}' ? TL_JSON_OBJECT : TL_JSON_ARRAY), **tail = NULL;
    if (!v) { fail(ps, "out of memory"); return NULL; }
    tail = &v->child;
    ps->p++;
    skip_space(ps);
    if (*ps->p == close) { ps->p++; return v; }
    for (;;) {
        char *key = NULL;
        skip_space(ps);
        if (close == '}') {
            if (*ps->p != '"') { fail(ps, "expected a member name"); break; }
            key = parse_string(ps);
            if (!key) break;
            skip_space(ps);
            if (*ps->p != ':') { free(key); fail(ps, "expected ':'"); break; }
            ps->p++;
        }
        tl_json *item = parse_value(ps, depth + 1);
        if (!item) { free(key); break; }
        item->key = key;
        *tail = item;
        tail = &item->next;
        skip_space(ps);
        if (*ps->p == ',') { ps->p++; continue; }
        if (*ps->p == close) { ps->p++; return v; }
        fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    tl_json_free(v);
    return NULL;
}

static tl_json *parse_value(parser *ps, int depth)
{
    skip_space(ps);
    if (depth > 256) { fail(ps, "nested too deeply"); return NULL; }
    char c = *ps->p;
    if (c == '{') return parse_container(ps, depth, '}');
    if (c == '[') return parse_container(ps, depth, ']');
    if (c == '"') {
        char *s = parse_string(ps);
        if (!s) return NULL;
        tl_json *v = new_value(TL_JSON_STRING);
        if (!v) { free(s); fail(ps, "out of memory"); return NULL; }
        v->string = s;
        return v;
    }
    static const struct { const char *word; tl_json_type type; double number; } words[] = {
        {"true", TL_JSON_BOOL, 1}, {"false", TL_JSON_BOOL, 0}, {"null", TL_JSON_NULL, 0}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        if (strncmp(ps->p, words[i].word, n) == 0) {
            ps->p += n;
            tl_json *v = new_value(words[i].type);
            if (v) v->number = words[i].number;
            return v;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        double d = strtod(ps->p, &end);
        if (end == ps->p) { fail(ps, "bad number"); return NULL; }
        ps->p = end;
        tl_json *v = new_value(TL_JSON_NUMBER);
        if (v) v->number = d;
        return v;
    }
    fail(ps, c ? "unexpected character" : "unexpected end of input");
    return NULL;
}

tl_json *tl_json_parse(const char *text, char *err, size_t errlen)
{
    parser ps = {text, text, err, errlen, 0};
    tl_json *v = parse_value(&ps, 0);
    if (!v) {
        fail(&ps, "invalid JSON");
        return NULL;
    }
    skip_space(&ps);
    if (*ps.p) {
        fail(&ps, "text after the JSON value");
        tl_json_free(v);
        return NULL;
    }
    return v;
}

tl_json *tl_json_parse_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        char *bigger = realloc(text, cap *= 2);
        if (!bigger) { free(text); text = NULL; }
        else text = bigger;
    }
    fclose(f);
    if (!text) {
        snprintf(err, errlen, "out of memory reading %s", path);
        return NULL;
    }
    text[len] = '\0';
    tl_json *v = tl_json_parse(text, err, errlen);
    free(text);
    return v;
}

void tl_json_free(tl_json *v)
{
    while (v) {
        tl_json *next = v->next;
        tl_json_free(v->child);
        free(v->key);
        free(v->string);
        free(v);
        v = next;
    }
}

const tl_json *tl_json_get(const tl_json *object, const char *key)
{
    if (!object || object->type != TL_JSON_OBJECT)
        return NULL;
    for (const tl_json *m = object->child; m; m = m->next)
        if (m->key && strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

double tl_json_number(const tl_json *object, const char *key, double fallback)
{
    const tl_json *m = tl_json_get(object, key);
    return m && (m->type == TL_JSON_NUMBER || m->type == TL_JSON_BOOL) ? m->number : fallback;
}

const char *tl_json_string(const tl_json *object, const char *key, const char *fallback)
{
    const tl_json *m = tl_json_get(object, key);
    return m && m->type == TL_JSON_STRING ? m->string : fallback;
}

size_t tl_json_length(const tl_json *array)
{
    size_t n = 0;
    if (array && (array->type == TL_JSON_ARRAY || array->type == TL_JSON_OBJECT))
        for (const tl_json *m = array->child; m; m = m->next)
            n++;
    return n;
}
