#define _GNU_SOURCE
#include <string.h>
#include "CShims.h"

int cshim_inflate_init(z_streamp stream) { return inflateInit(stream); }
int cshim_inflate_init2(z_streamp stream, int window_bits) { return inflateInit2(stream, window_bits); }
int cshim_deflate_init(z_streamp stream, int level) { return deflateInit(stream, level); }
int cshim_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

const void *cshim_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

struct cshim_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t message_size;
    int truncated;
};

static void cshim_jpeg_fail(j_common_ptr info) {
    struct cshim_jpeg_error *error = (struct cshim_jpeg_error *)info->err;
    char text[JMSG_LENGTH_MAX];
    error->manager.format_message(info, text);
    snprintf(error->message, error->message_size, "%s", text);
    longjmp(error->jump, 1);
}

/* Warnings are not printed; running out of data (the decoder pads with grey) is remembered. */
static void cshim_jpeg_silence(j_common_ptr info, int level) {
    struct cshim_jpeg_error *error = (struct cshim_jpeg_error *)info->err;
    if (level < 0 && error->manager.msg_code == JWRN_JPEG_EOF) error->truncated = 1;
}

int cshim_jpeg_decode(const uint8_t *data, size_t size, int min_width, int min_height, size_t max_bytes,
                      size_t max_pixels, int color_transform, int gray, int allow_truncated,
                      cshim_jpeg_image *image) {
    struct jpeg_decompress_struct info;
    struct cshim_jpeg_error error;
    /* volatile: read after longjmp */
    unsigned char *volatile pixels = NULL;
    image->pixels = NULL;
    image->truncated = 0;
    image->frame_width = 0;
    image->frame_height = 0;
    image->message[0] = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cshim_jpeg_fail;
    error.manager.emit_message = cshim_jpeg_silence;
    error.message = image->message;
    error.message_size = sizeof(image->message);
    error.truncated = 0;
    if (setjmp(error.jump)) {
        free(pixels);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    /* The size checked is the one libjpeg will decode, before start_decompress allocates for it. */
    image->frame_width = (int)info.image_width;
    image->frame_height = (int)info.image_height;
    if ((unsigned long long)info.image_width * info.image_height > (unsigned long long)max_pixels) {
        snprintf(image->message, sizeof(image->message), "the image declares %u x %u pixels, more than the %zu allowed",
                 info.image_width, info.image_height, max_pixels);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    if (info.num_components == 3 && color_transform == 0) info.jpeg_color_space = JCS_RGB;
    if (info.num_components == 3 && color_transform == 1) info.jpeg_color_space = JCS_YCbCr;
    if (info.num_components == 4 && color_transform == 0) info.jpeg_color_space = JCS_CMYK;
    if (info.num_components == 4 && color_transform == 1) info.jpeg_color_space = JCS_YCCK;
    switch (info.jpeg_color_space) {
    case JCS_GRAYSCALE: info.out_color_space = JCS_GRAYSCALE; break;
    case JCS_CMYK:
    case JCS_YCCK: info.out_color_space = JCS_CMYK; break;
    default: info.out_color_space = JCS_RGB; break;
    }
    if (gray && (info.jpeg_color_space == JCS_YCbCr || info.jpeg_color_space == JCS_RGB))
        info.out_color_space = JCS_GRAYSCALE;
    unsigned int denominator = 1;
    while (denominator < 8 && info.image_width / (denominator * 2) >= (unsigned int)min_width &&
           info.image_height / (denominator * 2) >= (unsigned int)min_height)
        denominator *= 2;
    info.scale_num = 1;
    info.scale_denom = denominator;
    jpeg_start_decompress(&info);
    size_t row = (size_t)info.output_width * (size_t)info.output_components;
    if (info.output_height == 0 || row == 0 || row > max_bytes / info.output_height) {
        snprintf(image->message, sizeof(image->message), "the image is too large (%u x %u)", info.output_width,
                 info.output_height);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    pixels = malloc(row * info.output_height);
    if (pixels == NULL) {
        snprintf(image->message, sizeof(image->message), "out of memory");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW line = pixels + row * info.output_scanline;
        jpeg_read_scanlines(&info, &line, 1);
    }
    image->width = (int)info.output_width;
    image->height = (int)info.output_height;
    image->components = info.output_components;
    image->adobe_inverted = info.saw_Adobe_marker && info.out_color_space == JCS_CMYK;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    image->truncated = error.truncated;
    if (error.truncated && !allow_truncated) {
        snprintf(image->message, sizeof(image->message), "the JPEG data is truncated");
        free(pixels);
        return -1;
    }
    image->pixels = pixels;
    return 0;
}

int cshim_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                      unsigned char **output, unsigned long *output_size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    struct cshim_jpeg_error error;
    *output = NULL;
    *output_size = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cshim_jpeg_fail;
    error.manager.emit_message = cshim_jpeg_silence;
    error.message = message;
    error.message_size = message_size;
    error.truncated = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(*output);
        *output = NULL;
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, output, output_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = components;
    info.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    size_t row = (size_t)width * (size_t)components;
    while (info.next_scanline < info.image_height) {
        JSAMPROW line = (JSAMPROW)(pixels + row * info.next_scanline);
        jpeg_write_scanlines(&info, &line, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}

#if defined(__GLIBC__)
#include <malloc.h>
int autograph_set_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int autograph_set_malloc_mmap_threshold(int bytes) { (void)bytes; return 0; }
#endif

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
int autograph_set_thread_niceness(int niceness) { return setpriority(PRIO_PROCESS, (id_t)gettid(), niceness); }
#else
int autograph_set_thread_niceness(int niceness) { (void)niceness; return 0; }
#endif

#include <stdarg.h>
#include <sys/socket.h>
static _Thread_local int autograph_thread_socket = -1;
void autograph_http_set_thread_socket(int socket) { autograph_thread_socket = socket; }
static void autograph_http_log(void *cls, const char *format, va_list arguments) {
    (void)cls;
    (void)arguments;
    /* The socket is still libmicrohttpd's, open, and read on this very thread: no other closes it now. */
    if (format && strncmp(format, "Error processing request", 24) == 0 && autograph_thread_socket >= 0)
        shutdown(autograph_thread_socket, SHUT_RDWR);
}
void *autograph_http_log_callback(void) { return (void *)&autograph_http_log; }
