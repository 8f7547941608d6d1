/*
 * names.c — pseudonyms. A student chooses one with a line in their file,
 *     // board-name: Warp Whisperer
 * checked here: 2 to 32 characters, printable, no control, format or
 * direction characters (a right-to-left override would reorder the board
 * around it), no zero-width or combining marks (names that look alike or
 * overflow), no leading, trailing or double spaces. Otherwise one is
 * generated: a keyed hash of the student's folder name under the class's
 * secret (DIR/board-secret), as "Adjective Animal NN". A plain hash of a
 * name could be reversed by hashing the roster; the secret key is what
 * keeps the name out of it.
 */
#include "board.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- characters ----------------------------------------------------------- */

/* Decodes one UTF-8 character at s: its code point and length, or -1 when the
 * bytes are not well-formed UTF-8 (overlong forms and surrogates included). */
static long utf8_next(const unsigned char *s, int *len)
{
    if (s[0] < 0x80) {
        *len = 1;
        return s[0];
    }
    int n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!n || (n == 3 && s[0] >= 0xf0))
        return -1;
    long cp = s[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return -1;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;
    *len = n;
    return cp;
}

/* Characters a name may not hold: controls, invisible and format characters,
 * direction marks and overrides, combining marks, private use, specials. */
static int refused_char(long cp)
{
    static const long ranges[][2] = {
        {0x00, 0x1f}, {0x7f, 0x9f},         /* controls */
        {0xad, 0xad},                       /* soft hyphen */
        {0x300, 0x36f}, {0x483, 0x489},     /* combining marks */
        {0x61c, 0x61c},                     /* Arabic letter mark */
        {0x115f, 0x1160}, {0x17b4, 0x17b5}, {0x180b, 0x180f},
        {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, /* combining marks */
        {0x2000, 0x200a},                   /* spaces of other widths */
        {0x200b, 0x200f},                   /* zero width, LRM, RLM */
        {0x2028, 0x202e},                   /* separators, embeddings, overrides */
        {0x205f, 0x206f},                   /* isolates, invisible operators */
        {0x20d0, 0x20ff},                   /* combining marks for symbols */
        {0x3000, 0x3000}, {0x3164, 0x3164}, /* ideographic space, Hangul filler */
        {0xe000, 0xf8ff},                   /* private use */
        {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f}, /* variation selectors, combining halves */
        {0xfeff, 0xfeff}, {0xffa0, 0xffa0}, /* BOM, half-width filler */
        {0xfff0, 0xffff},                   /* specials */
        {0x1d173, 0x1d17a},                 /* musical format characters */
        {0xe0000, 0xe0fff},                 /* tags, variation selectors */
        {0xf0000, 0x10ffff},                /* private use planes */
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return 1;
    return 0;
}

int board_name_ok(const char *name, char *why, size_t whylen)
{
    int chars = 0, len;
    long prev = ' ';
    for (const unsigned char *p = (const unsigned char *)name; *p; p += len) {
        long cp = utf8_next(p, &len);
        if (cp < 0) {
            snprintf(why, whylen, "it is not UTF-8 text");
            return 0;
        }
        if (refused_char(cp)) {
            snprintf(why, whylen, "it holds U+%04lX, an invisible, control or direction character", cp);
            return 0;
        }
        if (cp == ' ' && prev == ' ') {
            snprintf(why, whylen, "it starts with a space or holds two in a row");
            return 0;
        }
        prev = cp;
        if (++chars > NAME_MAX_CHARS) {
            snprintf(why, whylen, "it is longer than %d characters", NAME_MAX_CHARS);
            return 0;
        }
    }
    if (chars < NAME_MIN_CHARS) {
        snprintf(why, whylen, "it is shorter than %d characters", NAME_MIN_CHARS);
        return 0;
    }
    if (prev == ' ') {
        snprintf(why, whylen, "it ends with a space");
        return 0;
    }
    return 1;
}

int board_name_from_source(const char *path, char *out, size_t len, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read %s", path);
        return -1;
    }
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        if (strncmp(p, "//", 2) != 0)
            continue;
        p += 2;
        p += strspn(p, " \t");
        if (strncmp(p, "board-name:", 11) != 0)
            continue;
        p += 11;
        p += strspn(p, " \t");
        size_t n = strcspn(p, "\r\n");
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        char name[4096];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        found = 1;
        if (!board_name_ok(name, why, whylen)) {
            fclose(f);
            return -1;
        }
        snprintf(out, len, "%s", name);
    }
    fclose(f);
    if (!found) {
        snprintf(why, whylen, "no // board-name: line");
        return -1;
    }
    return 0;
}

int board_contains_ci(const char *text, const char *word)
{
    size_t n = strlen(word);
    if (n == 0)
        return 0;
    for (const char *p = text; *p; p++)
        if (strncasecmp(p, word, n) == 0)
            return 1;
    return 0;
}

/* ---- generated names -------------------------------------------------------- */

/* SipHash-2-4 (Aumasson and Bernstein): a keyed hash, so the names it gives
 * cannot be tied to a roster without the class's key. */
#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                  \
    do {                                                                                          \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                              \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                                   \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                                   \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                              \
    } while (0)

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t siphash(const unsigned char key[16], const unsigned char *m, size_t n)
{
    uint64_t k0 = le64(key), k1 = le64(key + 8);
    uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1, v2 = 0x6c7967656e657261ULL ^ k0,
             v3 = 0x7465646279746573ULL ^ k1;
    size_t whole = n - n % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t mi = le64(m + i);
        v3 ^= mi;
        SIPROUND;
        SIPROUND;
        v0 ^= mi;
    }
    uint64_t b = (uint64_t)n << 56;
    for (size_t i = 0; i < n % 8; i++)
        b |= (uint64_t)m[whole + i] << (8 * i);
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* Words from the labs and from animals; none a common first name. */
static const char *const adjectives[] = {
    "Coalesced", "Strided", "Tiled", "Padded", "Fused", "Unrolled", "Vector", "Banked", "Pinned", "Cached",
    "Async", "Blocked", "Cold", "Warm", "Aligned", "Packed", "Swift", "Steady", "Quiet", "Bright",
    "Clever", "Brave", "Nimble", "Patient", "Lucky", "Bold", "Calm", "Keen", "Eager", "Gentle",
    "Sharp", "Sunny",
};
static const char *const animals[] = {
    "Otter", "Falcon", "Lynx", "Heron", "Badger", "Marten", "Ibis", "Kestrel", "Puffin", "Gecko",
    "Tapir", "Okapi", "Narwhal", "Wombat", "Quokka", "Yak", "Ocelot", "Bison", "Crane", "Dingo",
    "Egret", "Ferret", "Gibbon", "Hare", "Jackal", "Koala", "Lemur", "Moose", "Newt", "Osprey",
    "Panda", "Walrus",
};

void board_generated_name(const unsigned char key[16], const char *student, unsigned salt, char *out, size_t len)
{
    unsigned char msg[512];
    size_t n = strlen(student);
    if (n > sizeof msg - 8)
        n = sizeof msg - 8;
    memcpy(msg, student, n);
    for (int i = 0; i < 4; i++)
        msg[n + i] = (unsigned char)(salt >> (8 * i));
    uint64_t h = siphash(key, msg, n + 4);
    snprintf(out, len, "%s %s %02u", adjectives[h % 32], animals[(h >> 8) % 32], (unsigned)((h >> 16) % 90 + 10));
}

int board_secret(const char *path, unsigned char key[16], char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char hex[64] = "";
    if (!f) {
        /* Made once, kept private beside the gradebook (mode 600). */
        int rnd = open("/dev/urandom", O_RDONLY);
        if (rnd < 0 || read(rnd, key, 16) != 16) {
            snprintf(err, errlen, "cannot read /dev/urandom to make %s", path);
            if (rnd >= 0)
                close(rnd);
            return -1;
        }
        close(rnd);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0 || !(f = fdopen(fd, "w"))) {
            snprintf(err, errlen, "cannot write %s", path);
            return -1;
        }
        for (int i = 0; i < 16; i++)
            fprintf(f, "%02x", key[i]);
        fputc('\n', f);
        return fclose(f) == 0 ? 0 : -1;
    }
    int ok = fgets(hex, sizeof hex, f) != NULL;
    fclose(f);
    for (int i = 0; ok && i < 16; i++) {
        unsigned v;
        ok = sscanf(hex + 2 * i, "%2x", &v) == 1;
        key[i] = (unsigned char)v;
    }
    if (!ok || strspn(hex, "0123456789abcdefABCDEF") != 32) {
        snprintf(err, errlen, "%s: not 32 hex digits (the class's pseudonym key; delete it to make a new one, "
                              "which renames every generated pseudonym)", path);
        return -1;
    }
    return 0;
}
