#ifndef CSHIMS_H
#define CSHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#define JMSG_LENGTH_MAX_SHIM 200

/* zlib's init functions are macros that pass the library version and struct size. */
int cshim_inflate_init(z_streamp stream);
int cshim_inflate_init2(z_streamp stream, int window_bits);
int cshim_deflate_init(z_streamp stream, int level);
/* Raw deflate (no zlib header or checksum): pieces compressed apart are then joined. */
int cshim_deflate_init_raw(z_streamp stream, int level);

/* memmem is a GNU extension that Swift's Glibc module does not export. */
const void *cshim_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/* libjpeg reports errors through a handler that must not return, so decoding and encoding run
   behind setjmp here. Pixels are malloc'ed; the caller frees them. */
typedef struct {
    unsigned char *pixels;  /* rows top to bottom, `components` bytes a pixel */
    int width;
    int height;
    int components;         /* 1 (grey), 3 (RGB) or 4 (CMYK) */
    int adobe_inverted;     /* CMYK stored inverted (Adobe APP14 marker) */
    int truncated;          /* the data ended early: the missing rows are grey */
    int frame_width;        /* the size jpeg_read_header read from the frame header, before scaling */
    int frame_height;
    char message[JMSG_LENGTH_MAX_SHIM];
} cshim_jpeg_image;

/* Decodes with the largest DCT scaling (1/2, 1/4, 1/8) that keeps at least min_width x min_height
   pixels; refuses a frame header (as jpeg_read_header reads it) of more than max_pixels pixels before
   anything is allocated for it, images above max_bytes of pixels, and truncated data unless allow_truncated.
   color_transform is PDF's /ColorTransform (-1: the JPEG's own markers decide; 0: the samples are
   stored untransformed; 1: YCbCr or YCCK); gray asks for one luminance component from colour data.
   Returns 0 on success. */
int cshim_jpeg_decode(const uint8_t *data, size_t size, int min_width, int min_height, size_t max_bytes,
                      size_t max_pixels, int color_transform, int gray, int allow_truncated,
                      cshim_jpeg_image *image);

/* Encodes grey (1) or RGB (3) pixels at a quality from 1 to 100. Returns 0 on success. */
int cshim_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                      unsigned char **output, unsigned long *output_size, char *message, size_t message_size);

/* mallopt(M_MMAP_THRESHOLD, bytes): allocations from this size up are mapped on their own and
   given back to the system when freed (glibc; no effect elsewhere). Setting it also stops glibc
   raising the threshold by itself after each large free. */
int autograph_set_malloc_mmap_threshold(int bytes);

/* setpriority(PRIO_PROCESS, gettid(), niceness): the calling thread's niceness (Linux; 0 elsewhere). */
int autograph_set_thread_niceness(int niceness);

/* libmicrohttpd's log (an MHD_LogCallback, returned untyped: its va_list parameter is C's own). It
   writes just before it queues an error page of its own (a chunked body it cannot read, a footer
   line it cannot parse): the connection being read on this thread is then shut down at once, so
   that page, without the server's security headers, never leaves. */
void *autograph_http_log_callback(void);
/* The socket of the request this thread reads (libmicrohttpd runs a thread per connection), or -1. */
void autograph_http_set_thread_socket(int socket);

/* libFuzzer's driver, present only in binaries built with -sanitize=fuzzer. */
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
