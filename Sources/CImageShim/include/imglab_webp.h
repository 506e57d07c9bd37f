#ifndef IMGLAB_WEBP_H
#define IMGLAB_WEBP_H
/* WebP through the system's libwebp and libwebpdemux, loaded at run time (dlopen), so imglab
 * builds and runs where they are missing and says so: imglab_webp_available() is 0 and names the
 * package to install. The headers (Debian's libwebp-dev) are read at build time when present;
 * without them every call reports the library as missing. libwebp reports errors by return
 * values and never longjmps, so the shim only loads symbols and adapts buffers. */
#include <stddef.h>
#include <stdint.h>

/* 1 when libwebp.so.7 and libwebpdemux.so.2 (or the files IMGLAB_LIBWEBP and IMGLAB_LIBWEBPDEMUX name) are loaded, else 0 with the reason in `why`
 * (at most `why_size` bytes, NUL-terminated). */
int imglab_webp_available(char *why, size_t why_size);

/* Decodes a still WebP into `out` (`stride` bytes a row, `height` rows): 4 bytes a pixel,
 * straight RGBA, when `rgba` is 1, else 3 bytes RGB. A `width` × `height` other than the file's
 * asks libwebp's rescaler for that size while decoding (scale-on-load: an area average of the
 * premultiplied, gamma-encoded samples, the whole picture onto the whole output); only the
 * output's rows are ever held.
 * Returns 0, or a VP8StatusCode (1 out of memory, 2 invalid parameter, 3 bitstream error,
 * 4 unsupported feature, 5 suspended, 7 not enough data), or -1 when the library is missing. */
int imglab_webp_decode_still(const uint8_t *data, size_t size, int rgba, int width, int height, uint8_t *out,
                             size_t out_size, int stride);

/* An animation being decoded frame by frame (libwebpdemux's WebPAnimDecoder: frames blended
 * and disposed onto a straight RGBA canvas). */
typedef struct imglab_webp_animation imglab_webp_animation;

/* Opens an animated (or still) WebP whose bytes stay alive until close. NULL when the library is
 * missing or the file is not a valid WebP. Canvas size, loop count and frame count come back. */
imglab_webp_animation *imglab_webp_animation_open(const uint8_t *data, size_t size, int *width, int *height,
                                                  int *loop_count, int *frame_count);

/* The next canvas (width * height * 4 bytes of straight RGBA, valid until the next call) and its
 * end time in milliseconds from the start. Returns 1, or 0 when there is none or it fails. */
int imglab_webp_animation_next(imglab_webp_animation *animation, const uint8_t **canvas, int *timestamp_ms);

void imglab_webp_animation_close(imglab_webp_animation *animation);

/* Encodes 8-bit RGBA (`rgba` 1) or RGB rows into a new WebP: lossless when `lossless` is 1 (the
 * colours under fully transparent pixels kept exactly), else lossy at `quality` (0...100).
 * Returns the size and the bytes in *output (free with imglab_webp_free), or 0 on failure. */
size_t imglab_webp_encode(const uint8_t *pixels, int width, int height, int stride, int rgba, int lossless,
                          float quality, uint8_t **output);

void imglab_webp_free(void *pointer);

#endif
