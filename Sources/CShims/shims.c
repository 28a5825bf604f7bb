#define _GNU_SOURCE
#include <string.h>
#include "CShims.h"

int cshim_inflate_init(z_streamp stream) { return inflateInit(stream); }
int cshim_inflate_init2(z_streamp stream, int window_bits) { return inflateInit2(stream, window_bits); }
int cshim_deflate_init(z_streamp stream, int level) { return deflateInit(stream, level); }

const void *cshim_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
