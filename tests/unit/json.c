/* The JSON writer's escaping, read back by the JSON reader; reader errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

static char *write_sample(void)
{
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_jw_string(&w, "tricky", "quote \" backslash \\ newline \n tab \t bell \a é");
    tl_jw_number(&w, "score", 93.25);
    tl_jw_number(&w, "nan", NAN);
    tl_jw_int(&w, "big", 1LL << 40);
    tl_jw_bool(&w, "yes", 1);
    tl_jw_string(&w, "none", NULL);
    tl_jw_array_begin(&w, "tests");
    tl_jw_object_begin(&w, NULL);
    tl_jw_string(&w, "name", "1x1");
    tl_jw_object_end(&w);
    tl_jw_object_begin(&w, NULL);
    tl_jw_object_end(&w);
    tl_jw_array_end(&w);
    tl_jw_array_begin(&w, "empty");
    tl_jw_array_end(&w);
    tl_jw_object_end(&w);
    fclose(f);
    return text;
}

Test(json, written_json_reads_back)
{
    char *text = write_sample(), err[128] = "";
    tl_json *v = tl_json_parse(text, err, sizeof err);
    cr_assert(v, "the writer's output must parse: %s\n%s", err, text);
    cr_assert_str_eq(tl_json_string(v, "tricky", ""), "quote \" backslash \\ newline \n tab \t bell \a é");
    cr_assert_eq(tl_json_number(v, "score", 0), 93.25);
    cr_assert_eq(tl_json_get(v, "nan")->type, TL_JSON_NULL, "NaN is not JSON: it must be written as null");
    cr_assert_eq(tl_json_number(v, "big", 0), (double)(1LL << 40));
    cr_assert_eq(tl_json_get(v, "yes")->type, TL_JSON_BOOL);
    cr_assert_eq(tl_json_get(v, "none")->type, TL_JSON_NULL);
    cr_assert_eq(tl_json_length(tl_json_get(v, "tests")), 2);
    cr_assert_str_eq(tl_json_string(tl_json_get(v, "tests")->child, "name", ""), "1x1");
    cr_assert_eq(tl_json_length(tl_json_get(v, "empty")), 0);
    cr_assert_null(tl_json_get(v, "missing"));
    cr_assert_eq(tl_json_number(v, "missing", -1), -1);
    tl_json_free(v);
    free(text);
}

Test(json, reads_criterion_report_shape)
{
    const char *doc = "{ \"id\": \"Criterion v2.4.1\", \"passed\": 1, \"failed\": 1,\n"
                      "  \"test_suites\": [ { \"name\": \"transpose\", \"tests\": [\n"
                      "    { \"name\": \"s01_1x1\", \"assertions\": 1, \"status\": \"PASSED\" },\n"
                      "    { \"name\": \"s07_31x33\", \"status\": \"FAILED\", \"messages\": [\"a.c:3: x\", \"  y\"] },\n"
                      "    { \"name\": \"s08\", \"status\": \"FAILED\", \"messages\": [\n\n   ] } ] } ] }";
    char err[128];
    tl_json *v = tl_json_parse(doc, err, sizeof err);
    cr_assert(v, "%s", err);
    const tl_json *tests = tl_json_get(tl_json_get(v, "test_suites")->child, "tests");
    cr_assert_eq(tl_json_length(tests), 3);
    cr_assert_str_eq(tl_json_get(tests->child->next, "messages")->child->next->string, "  y");
    tl_json_free(v);
}

Test(json, unicode_escapes)
{
    char err[128];
    tl_json *v = tl_json_parse("[\"\\u00e9\\u2192\\ud83d\\ude00\\/\"]", err, sizeof err);
    cr_assert(v, "%s", err);
    cr_assert_str_eq(v->child->string, "é→😀/");
    tl_json_free(v);
}

Test(json, errors_name_line_and_column)
{
    static const char *bad[] = {"{\"a\": 1,}", "[1 2]", "{\"a\" 1}", "\"open", "{\"s\": \"x\"y\"}", "tru", "[1] 2", "", "\"a\tb\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[128] = "";
        tl_json *v = tl_json_parse(bad[i], err, sizeof err);
        cr_assert_null(v, "'%s' must not parse", bad[i]);
        cr_assert(strstr(err, "line 1, column"), "'%s': %s", bad[i], err);
    }
    char err[128] = "";
    cr_assert_null(tl_json_parse("{\n  \"a\": ?\n}", err, sizeof err));
    cr_assert(strstr(err, "line 2, column 8"), "%s", err);
}

/* Whether `s` is well-formed UTF-8 (RFC 3629), checked apart from the writer. */
static int is_utf8(const unsigned char *s)
{
    while (*s) {
        int n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : (*s & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0)
            return 0;
        unsigned cp = n == 1 ? *s : *s & (0x7F >> n);
        for (int i = 1; i < n; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3F);
        }
        static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        s += n;
    }
    return 1;
}

/* A Latin-1 comment quoted in a compiler error, and other bytes that are not
 * UTF-8 (overlong, surrogate, truncated at the end): U+FFFD each, the rest
 * of the text and the UTF-8 around them kept. */
Test(json, bytes_that_are_not_utf8_become_replacement_characters)
{
    const char *cases[][2] = {
        {"lab1.cu:3: // caf\xe9 na\xefve", "lab1.cu:3: // caf\xef\xbf\xbd na\xef\xbf\xbdve"},
        {"\xc0\xaf overlong, \xed\xa0\x80 surrogate", "\xef\xbf\xbd\xef\xbf\xbd overlong, \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate"},
        {"kept: \xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80, cut: \xe2\x86", "kept: \xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80, cut: \xef\xbf\xbd\xef\xbf\xbd"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text, err[128] = "";
        size_t len;
        FILE *f = open_memstream(&text, &len);
        tl_json_writer w;
        tl_jw_init(&w, f);
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "output", cases[i][0]);
        tl_jw_object_end(&w);
        fclose(f);
        cr_assert(is_utf8((const unsigned char *)text), "case %zu: the written JSON is not UTF-8:\n%s", i, text);
        tl_json *v = tl_json_parse(text, err, sizeof err);
        cr_assert(v, "case %zu: %s", i, err);
        cr_assert_str_eq(tl_json_string(v, "output", ""), cases[i][1], "case %zu", i);
        tl_json_free(v);
        free(text);
    }
}
