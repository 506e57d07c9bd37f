#ifndef IMGLAB_AVIF_H
#define IMGLAB_AVIF_H
/* AVIF image sequences (animated AVIF, the `moov` track) through the system's libavif, loaded at run
 * time (dlopen) as libheif is: libheif 1.15 reads only the still items. The header (Debian's
 * libavif-dev) is read at build time when present. libavif reports errors as result codes; the shim
 * turns them into text. */
#include <stddef.h>
#include <stdint.h>

/* 1 when libavif.so.15 (or the file IMGLAB_LIBAVIF names) is loaded, else 0 with the reason in `why`. */
int imglab_avif_available(char *why, size_t why_size);

/* A parsed sequence, decoding frame by frame; `data` must outlive it. */
typedef struct imglab_avif_sequence imglab_avif_sequence;

/* Parses the file's picture track (libavif prefers the track to the still item when both exist).
 * Pictures over `max_pixels` or wider or taller than `max_dimension` are refused by libavif. NULL on
 * failure, with the reason in `why`. */
imglab_avif_sequence *imglab_avif_open(const uint8_t *data, size_t size, uint32_t max_pixels, uint32_t max_dimension,
                                       char *why, size_t why_size);

/* The track's picture size in pixels, bit depth, frame count, whether it has alpha and whether that
 * alpha is premultiplied. */
void imglab_avif_layout(const imglab_avif_sequence *sequence, int *width, int *height, int *depth, int *frames,
                        int *alpha, int *premultiplied);

/* Decodes the next frame into `pixels` (`height` rows of `row_bytes`): RGB, or RGBA when `alpha`, the
 * alpha as stored (straight or premultiplied); 8-bit, or 16-bit little-endian holding the stored depth's
 * values when the depth is over 8. Returns 1, or 0 with the reason in `why`. */
int imglab_avif_next_frame(imglab_avif_sequence *sequence, int alpha, uint8_t *pixels, size_t row_bytes, char *why,
                           size_t why_size);

void imglab_avif_close(imglab_avif_sequence *sequence);

#endif
