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
 * values when the depth is over 8. A frame whose size or depth is not `width` × `height` at `depth` bits (each
 * frame's sequence header may state its own) is refused before anything is written. Returns 1, or 0 with the
 * reason in `why`. */
int imglab_avif_next_frame(imglab_avif_sequence *sequence, int width, int height, int depth, int alpha, uint8_t *pixels,
                           size_t row_bytes, char *why, size_t why_size);

void imglab_avif_close(imglab_avif_sequence *sequence);

/* Encodes `frames` pictures of `width` × `height` (each `height` rows of `stride` bytes, one after another in
 * `pixels`): RGB or RGBA (`channels` 3 or 4, the alpha premultiplied when `premultiplied`), 8-bit, or 16-bit
 * little-endian holding `bits`-deep values (10 or 12), as an AVIF image sequence: a still item of the first
 * frame and a picture track of all, frame k shown for `durations_ms[k]` milliseconds. Lossless (`quantizer` 0:
 * 4:4:4, identity matrix) or lossy at an AV1 quantizer of 1...63 (4:4:4, BT.601). Returns the size and the bytes
 * in *output (free with imglab_avif_free), or 0 with the reason in `why`. */
size_t imglab_avif_encode_sequence(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                   int premultiplied, int frames, const uint32_t *durations_ms, int quantizer,
                                   uint8_t **output, char *why, size_t why_size);

/* Encodes one picture laid out as for imglab_avif_encode_sequence as an AVIF still image: lossless (`quantizer`
 * 0: 4:4:4, identity matrix) or lossy at an AV1 quantizer of 1...63 (BT.601, `chroma` 420, 422 or 444), with
 * the EXIF block (TIFF header first) and the ICC profile when their sizes are not 0. The picture is stored as
 * given (no irot/imir). Returns the size and the bytes in *output (free with imglab_avif_free), or 0 with the
 * reason in `why`. */
size_t imglab_avif_encode_still(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                int premultiplied, int quantizer, int chroma, const uint8_t *exif, size_t exif_size,
                                const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size);

void imglab_avif_free(void *pointer);

#endif
