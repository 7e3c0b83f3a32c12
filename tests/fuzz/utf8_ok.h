/* What the fuzz targets share: a UTF-8 check of their own (shortest forms, no surrogates, at most
 * U+10FFFF), written here rather than taken from the library, so a target judges the library with
 * something it does not share. Header-only; one target is one program. */
#ifndef DT_FUZZ_UTF8_OK_H
#define DT_FUZZ_UTF8_OK_H

#include <stddef.h>
#include <stdint.h>

/* UTF-8 written here, not the library's, so the check is independent of what it checks. */
static inline int utf8_ok(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (k == 0 || i + k > n) return 0;
        uint32_t cp = k == 1 ? c : c & (0x7Fu >> k);
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + j] & 0x3F);
        }
        static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[k] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += k;
    }
    return 1;
}

#endif
