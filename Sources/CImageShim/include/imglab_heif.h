#ifndef IMGLAB_HEIF_H
#define IMGLAB_HEIF_H
/* HEIF (HEVC-coded, .heic) and AVIF (AV1-coded) through the system's libheif, loaded at run time
 * (dlopen) as libwebp is, so imglab builds and runs where it is missing and says so. The header
 * (Debian's libheif-dev) is read at build time when present. libheif reports errors as values
 * (struct heif_error) and never longjmps; the shim loads symbols and turns errors into text. */
#include <stddef.h>
#include <stdint.h>

/* 1 when libheif.so.1 (or the file IMGLAB_LIBHEIF names) is loaded, else 0 with the reason in
 * `why` (at most `why_size` bytes, NUL-terminated). */
int imglab_heif_available(char *why, size_t why_size);

/* 1 when the loaded libheif has a decoder (`encoder` 0) or an encoder (`encoder` 1) for HEVC
 * (`av1` 0) or AV1 (`av1` 1), else 0. */
int imglab_heif_has_codec(int av1, int encoder);

/* A decoded picture: interleaved samples held by libheif until imglab_heif_picture_free. */
typedef struct imglab_heif_picture imglab_heif_picture;

/* Decodes the primary image: its coded picture, the transformations (clean aperture, rotation,
 * mirror) ignored, when `transformed` is 0; as libheif displays it, cropped, turned and mirrored,
 * when 1 (libheif 1.15 cannot ignore them when an alpha image has a clean aperture or turn, and
 * turns some quarter-turned grids and AV1 pictures wrong when it applies them). 8-bit RGB or RGBA
 * when `high_bit_depth` is 0, else 16-bit little-endian RRGGBB(AA) holding the stored bit depth's values
 * (10 or 12 bits: 0...1023, 0...4095). With `monochrome` 1 (a coded gray picture without alpha), the
 * coded luma plane itself, one sample a pixel, limited range as stored (libheif 1.15's gray → RGB
 * conversion does not expand limited range). Images wider or taller than `max_dimension` are refused
 * by libheif before it decodes. NULL on failure, with libheif's message in `why`. */
imglab_heif_picture *imglab_heif_decode(const uint8_t *data, size_t size, int max_dimension, int alpha,
                                        int high_bit_depth, int monochrome, int transformed, char *why,
                                        size_t why_size);

/* The coded picture (transformations ignored) as RGB, with the alpha image (item `alpha_item`) decoded on
 * its own as its luma plane: libheif 1.15 cannot decode an alpha image with its transformations ignored
 * when the primary item has a clean aperture or a turn, and, applying them, drops the alpha of a
 * quarter-turned picture (every pixel opaque). NULL on failure, with the reason in `why`. */
imglab_heif_picture *imglab_heif_decode_separate_alpha(const uint8_t *data, size_t size, int max_dimension,
                                                       int high_bit_depth, uint32_t alpha_item, char *why,
                                                       size_t why_size);

/* A picture's separately decoded alpha plane (one sample a pixel; 16-bit little-endian when deep): 1 with
 * its size, stride and first row, or 0 when the alpha is within the interleaved picture. */
int imglab_heif_picture_alpha_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                     const uint8_t **samples);

/* The picture's size in pixels, its rows' stride in bytes and its first row. */
void imglab_heif_picture_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                const uint8_t **samples);

/* 1 when libheif says the picture's colour is premultiplied by its alpha (the `prem` reference). */
int imglab_heif_picture_premultiplied(const imglab_heif_picture *picture);

void imglab_heif_picture_free(imglab_heif_picture *picture);

/* What imglab_heif_encode writes. */
typedef struct {
    int av1;              /* 1: AVIF (AV1), 0: HEIC (HEVC) */
    int lossless;         /* 1: lossless, 4:4:4, RGB matrix (identity); 0: lossy at `quality` */
    int quality;          /* 0...100 */
    int bits;             /* 8, 10 or 12: the stored bit depth */
    int premultiplied;    /* 1: the colour is premultiplied (a `prem` reference is written) */
    int lossy_chroma;     /* lossy coding's chroma: 420, 422 or 444 (lossless is always 444) */
} imglab_heif_encoding;

/* Encodes interleaved rows (`channels` 3 or 4; 8-bit when `encoding.bits` is 8, else 16-bit
 * little-endian holding `bits`-deep values) into a new file, upright (imglab adds irot/imir
 * itself: libheif 1.15's own are non-essential and miscode quarter turns), with the EXIF block
 * (TIFF header first, may be NULL) and ICC profile (may be NULL). Returns the size and the bytes in *output
 * (free with imglab_heif_free), or 0 with the reason in `why`. */
size_t imglab_heif_encode(const uint8_t *pixels, int width, int height, int stride, int channels,
                          imglab_heif_encoding encoding, const uint8_t *exif, size_t exif_size,
                          const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size);

void imglab_heif_free(void *pointer);

#endif
