#ifndef IMGLAB_TIFF_H
#define IMGLAB_TIFF_H
/* libtiff plumbing for imglab's TIFF codec. libtiff never longjmps: it reports errors through
 * handlers. Every handle here has its own error and warning handlers (TIFFOpenOptions), which
 * record the first error (and the first warning) in the handle instead of printing them. Functions return a
 * status; on failure the reason is in imglab_tiff_message() (or in the caller's buffer when
 * no handle exists). No libtiff type crosses this header. */
#include <stddef.h>
#include <stdint.h>
#include "imglab_shim.h"

/* An open TIFF read from memory. The bytes must stay alive and unchanged until close. */
typedef struct imglab_tiff_reader imglab_tiff_reader;

/* What the current IFD says, as libtiff parsed it (defaults applied where TIFF defines one).
 * Pointers point into the reader and are valid until imglab_tiff_close. */
typedef struct imglab_tiff_directory {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, sample_format;
    uint16_t photometric, compression, planar_config, fill_order, ink_set;
    int has_photometric;
    uint16_t orientation;          /* tag 274, valid when has_orientation */
    int has_orientation;
    uint16_t predictor;            /* tag 317, valid when has_predictor */
    int has_predictor;
    uint16_t extra_sample_count;   /* ExtraSamples (tag 338) values */
    const uint16_t *extra_samples;
    int is_tiled, is_big_endian, is_bigtiff;
    uint32_t rows_per_strip;       /* 2^32 - 1 when absent */
    uint32_t tile_width, tile_length;
    uint32_t strip_count, tile_count;
    uint64_t scanline_size, tile_row_size, tile_size;
    const uint16_t *colormap_red, *colormap_green, *colormap_blue; /* 2^bits entries, or NULL */
    const uint8_t *icc_profile;    /* tag 34675, or NULL */
    uint32_t icc_profile_size;
    uint64_t exif_ifd_offset;      /* tag 34665 (ExifIFD), valid when has_exif_ifd; not followed */
    int has_exif_ifd;
} imglab_tiff_directory;

/* Opens `size` bytes at `data`. `max_single_alloc` caps every allocation libtiff makes (0: no cap).
 * Returns 1 and sets *out, or 0 with the reason in `message`. */
int imglab_tiff_open(const uint8_t *data, size_t size, int64_t max_single_alloc,
                     imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]);
/* As imglab_tiff_open, reading the file at `path` with pread as libtiff asks for bytes (no
 * memory mapping), so only the strips or tiles being decoded are in memory. */
int imglab_tiff_open_file(const char *path, int64_t max_single_alloc,
                          imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]);
void imglab_tiff_close(imglab_tiff_reader *reader);
/* The first error libtiff reported since the last call into this reader, or "". */
const char *imglab_tiff_message(const imglab_tiff_reader *reader);
/* The first warning libtiff gave since the file was opened ("" if none); *count gets how many. */
const char *imglab_tiff_first_warning(const imglab_tiff_reader *reader, int *count);

/* Fills `out` from the current (first) IFD. Returns 1, or 0 on failure. */
int imglab_tiff_read_directory(imglab_tiff_reader *reader, imglab_tiff_directory *out);
/* Counts the IFDs of the main chain (pages). Returns 1, or 0 on failure. */
int imglab_tiff_count_directories(imglab_tiff_reader *reader, uint32_t *count);
/* Decodes strip or tile `index` into `buffer`; returns the bytes decoded, or -1. Samples wider
 * than 8 bits come out in host byte order. */
int64_t imglab_tiff_read_strip(imglab_tiff_reader *reader, uint32_t index, uint8_t *buffer, size_t size);
/* StripByteCounts / TileByteCounts of strip or tile `index`: the stored (compressed) size, or -1. */
int64_t imglab_tiff_stored_byte_count(imglab_tiff_reader *reader, uint32_t index);
int64_t imglab_tiff_read_tile(imglab_tiff_reader *reader, uint32_t index, uint8_t *buffer, size_t size);
/* libtiff's RGBA interface (YCbCr, JPEG, Lab, LogLuv…) into `raster` (width × height 32-bit
 * words, R G B A in memory, alpha premultiplied), rows in stored order: the Orientation tag
 * is not applied. Returns 1, or 0 on failure. */
int imglab_tiff_read_rgba(imglab_tiff_reader *reader, uint32_t *raster, uint32_t width, uint32_t height);

/* What the encoder writes. Pixels are passed in file order: all of plane 0, then plane 1…
 * when planar, each row `row_bytes` long; samples wider than 8 bits in host byte order. */
typedef struct imglab_tiff_encode_params {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, sample_format, photometric;
    uint16_t compression, predictor, planar_config;
    uint16_t extra_sample_count;
    uint16_t extra_samples[4];
    uint16_t orientation;          /* 0: do not write tag 274 */
    uint32_t rows_per_strip;
    size_t row_bytes;              /* bytes of one row of one plane */
    const uint16_t *colormap_red, *colormap_green, *colormap_blue; /* 2^bits entries, or NULL */
    const uint8_t *icc_profile;    /* or NULL */
    uint32_t icc_profile_size;
} imglab_tiff_encode_params;

/* Encodes into a buffer allocated with malloc: returns 1 and sets *out / *out_size (free it
 * with imglab_tiff_free), or 0 with the reason in `message`. */
int imglab_tiff_encode(const imglab_tiff_encode_params *params, const uint8_t *pixels, size_t pixels_size,
                       uint8_t **out, size_t *out_size, char message[IMGLAB_MESSAGE_SIZE]);
void imglab_tiff_free(uint8_t *bytes);

/* Whether this libtiff was built with the codec for Compression (tag 259) value `scheme`
 * (TIFFIsCODECConfigured): 1 or 0. */
int imglab_tiff_codec_configured(uint16_t scheme);

/* A TIFF written strip by strip into the open file `fd` (read-write, seekable, empty: libtiff
 * writes with pwrite at its own offsets, from 0, and goes back to the header at the end), so
 * an image larger than memory can be encoded. The same setup as imglab_tiff_encode (every
 * field of the params; PlanarConfiguration 1 only), strips written in order: the file's
 * bytes equal imglab_tiff_encode's for the same pixels. The caller owns and closes `fd`. */
typedef struct imglab_tiff_row_writer imglab_tiff_row_writer;

/* Writes the header and sets the fields (`params`' colour map and ICC profile are read here
 * only). Returns 1 and sets *out, or 0 with the reason in `message`. */
int imglab_tiff_row_writer_open(int fd, const imglab_tiff_encode_params *params,
                                imglab_tiff_row_writer **out, char message[IMGLAB_MESSAGE_SIZE]);
/* Compresses and writes the next strip: `size` bytes, rows_per_strip rows of row_bytes (fewer
 * for the last strip). Returns 1, or 0 with the reason in imglab_tiff_row_writer_message. */
int imglab_tiff_row_writer_write_strip(imglab_tiff_row_writer *writer, const uint8_t *pixels, size_t size);
/* Writes the directory once every strip is written and closes libtiff's handle; *file_size gets
 * the file's length. Returns 1, or 0 with the reason in imglab_tiff_row_writer_message. */
int imglab_tiff_row_writer_finish(imglab_tiff_row_writer *writer, uint64_t *file_size);
/* Why the last call failed. */
const char *imglab_tiff_row_writer_message(const imglab_tiff_row_writer *writer);
/* Frees the writer (not the file); NULL is allowed. */
void imglab_tiff_row_writer_close(imglab_tiff_row_writer *writer);

#endif
