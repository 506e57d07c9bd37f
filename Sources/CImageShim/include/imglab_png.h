#ifndef IMGLAB_PNG_H
#define IMGLAB_PNG_H
/* libpng plumbing for imglab's PNG codec. Every entry point catches libpng's errors with
 * setjmp/longjmp and reports them as a status; warnings are silenced; nothing is printed
 * and nothing leaks on error paths. Chunk parsing, APNG and pixel logic live in Swift. */
#include <stddef.h>
#include <stdint.h>
#include <png.h>
#include <zlib.h>

/* Size of the message buffer of an imglab_png_status. */
#define IMGLAB_PNG_MESSAGE_SIZE 256

/* Outcome codes. */
#define IMGLAB_PNG_OK 0
/* libpng reported an error; the message says which. */
#define IMGLAB_PNG_ERROR 1
/* libpng asked for bytes past the end of the input. */
#define IMGLAB_PNG_TRUNCATED 2

/* What went wrong, and how far into the input libpng had read when it did. */
typedef struct {
    int code;
    size_t offset;
    char message[IMGLAB_PNG_MESSAGE_SIZE];
} imglab_png_status;

/* The header as libpng accepted it (after png_read_info). */
typedef struct {
    uint32_t width, height;
    int bit_depth, color_type, interlace_type;
    /* Whether libpng holds a valid tRNS chunk. */
    int has_trns;
    /* PLTE entries libpng accepted (0 when none), as R, G, B, A with tRNS alphas applied. */
    int palette_count;
    uint8_t palette[256 * 4];
} imglab_png_info;

/* An open libpng read session over an in-memory file. */
typedef struct imglab_png_reader imglab_png_reader;

/* Reads the signature and chunks up to the first IDAT. Ancillary chunks other than tRNS are
 * skipped (the Swift side parses them). Returns NULL on failure, with `status` filled. */
imglab_png_reader *imglab_png_reader_open(const uint8_t *data, size_t size,
                                          imglab_png_info *info, imglab_png_status *status);

/* As imglab_png_reader_open, reading the file at `path` as libpng asks for bytes (a few
 * kilobytes at a time), so neither the file nor the image is held in memory. libpng checks the
 * CRC of critical chunks (the Swift walk of a file skips IDAT data). Read its rows with
 * imglab_png_reader_begin_rows and imglab_png_reader_read_rows (`data` NULL). */
imglab_png_reader *imglab_png_reader_open_file(const char *path, imglab_png_info *info, imglab_png_status *status);

/* Decodes every row into `pixels` (height x row_bytes bytes), then reads to IEND. With
 * `expand_trns`, gray/RGB tRNS becomes an alpha channel (low-bit gray goes to 8 bits).
 * Fails when libpng's row size differs from `row_bytes`. Returns IMGLAB_PNG_OK or a code. */
int imglab_png_reader_read(imglab_png_reader *reader, int expand_trns, uint8_t *pixels,
                           size_t row_bytes, size_t size, imglab_png_status *status);

/* Prepares row-by-row reading of a non-interlaced image (the streaming path): applies the
 * tRNS expansion like imglab_png_reader_read and checks libpng's row size against `row_bytes`. */
int imglab_png_reader_begin_rows(imglab_png_reader *reader, int expand_trns, size_t row_bytes,
                                 imglab_png_status *status);

/* Reads the next `count` rows, row i at pixels + i * stride, from `data` (the same file bytes
 * the reader was opened on, passed again because their address may have changed; ignored for
 * a reader opened on a file). The caller
 * never asks for more rows than the image has. */
int imglab_png_reader_read_rows(imglab_png_reader *reader, const uint8_t *data, size_t size,
                                uint8_t *pixels, size_t stride, uint32_t count, imglab_png_status *status);

/* Frees the session; NULL is allowed. */
void imglab_png_reader_close(imglab_png_reader *reader);

/* The image an encoder hands to libpng. Rows are packed as PNG stores them (16-bit big-endian). */
typedef struct {
    uint32_t width, height;
    int bit_depth, color_type, interlace;
    /* Palette images: `palette_count` RGB triples and `trns_count` alphas. */
    const uint8_t *palette_rgb;
    int palette_count;
    const uint8_t *trns_alpha;
    int trns_count;
    /* 0: fast — zlib's run-length strategy with the Paeth filter for 8/16-bit gray and colour
     * (about 2.5× faster than libpng's defaults at the same size on photographs); palette and
     * low-bit images keep zlib's default matching. 1: small — level 9 with adaptive filters. */
    int compression;
} imglab_png_image;

/* Writes signature, IHDR, PLTE, tRNS, IDAT and IEND. On success `*out` holds `*out_size`
 * bytes allocated with malloc: release them with imglab_png_free. */
int imglab_png_write(const imglab_png_image *image, const uint8_t *pixels, size_t row_bytes,
                     uint8_t **out, size_t *out_size, imglab_png_status *status);

/* Releases a buffer returned by imglab_png_write. */
void imglab_png_free(uint8_t *buffer);

/* A PNG written a few rows at a time (non-interlaced), so an image larger than memory can be
 * encoded: the same setup as imglab_png_write (IHDR, PLTE, tRNS, compression and filter
 * settings), the rows handed to png_write_row. libpng's output (signature and chunks) gathers
 * in the writer's buffer: after each call, take it with imglab_png_row_writer_output and
 * empty it with imglab_png_row_writer_clear_output, so it holds at most what one call made. */
typedef struct imglab_png_row_writer imglab_png_row_writer;

/* Starts a file of `image` (its `interlace` must be 0) and writes the chunks before the first
 * IDAT. Returns NULL on failure, with `status` filled. */
imglab_png_row_writer *imglab_png_row_writer_open(const imglab_png_image *image, imglab_png_status *status);

/* Writes the next `count` rows, row i at rows + i * stride, packed as PNG stores them. Fails
 * when the rows would pass the image's height. */
int imglab_png_row_writer_write_rows(imglab_png_row_writer *writer, const uint8_t *rows, size_t stride,
                                     uint32_t count, imglab_png_status *status);

/* Ends the file (IEND) once every row is written; fails when rows are missing. */
int imglab_png_row_writer_finish(imglab_png_row_writer *writer, imglab_png_status *status);

/* The output made since the last clear: `*size` bytes at the returned address (valid until
 * the next call on the writer). */
const uint8_t *imglab_png_row_writer_output(const imglab_png_row_writer *writer, size_t *size);

/* Empties the output buffer (its memory is kept for the next rows). */
void imglab_png_row_writer_clear_output(imglab_png_row_writer *writer);

/* Frees the writer; NULL is allowed. */
void imglab_png_row_writer_close(imglab_png_row_writer *writer);

#endif
