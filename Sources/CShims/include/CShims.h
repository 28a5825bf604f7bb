#ifndef CSHIMS_H
#define CSHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* zlib's init functions are macros that pass the library version and struct size. */
int cshim_inflate_init(z_streamp stream);
int cshim_inflate_init2(z_streamp stream, int window_bits);
int cshim_deflate_init(z_streamp stream, int level);

/* memmem is a GNU extension that Swift's Glibc module does not export. */
const void *cshim_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/* libFuzzer's driver, present only in binaries built with -sanitize=fuzzer. */
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
