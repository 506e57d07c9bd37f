#ifndef IMGLAB_JPEG_H
#define IMGLAB_JPEG_H
/* libjpeg-turbo behind a status-returning interface. Every function that calls into libjpeg
 * installs its own setjmp point, so a libjpeg error ends as a non-zero status and a message,
 * never as an unwind through Swift. Nothing is printed; warnings are counted and the first
 * few are kept as text. Pixel logic (colour models, inversion, conversions) lives in Swift. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Size of the message buffers. */
#define IMGLAB_JPEG_MESSAGE_SIZE 256
/* Bytes kept for warning texts (the first few warnings, one per line). */
#define IMGLAB_JPEG_WARNINGS_SIZE 1024

/* Status of every entry point. */
typedef enum {
    IMGLAB_JPEG_OK = 0,
    /* libjpeg reported an error; `message` has its text, `libjpeg_code` its J_MESSAGE_CODE. */
    IMGLAB_JPEG_LIBRARY_ERROR = 1,
    /* The scan limit was reached (a corrupt progressive file can hold thousands of scans). */
    IMGLAB_JPEG_SCAN_LIMIT = 2,
    /* malloc failed or an argument was out of range. */
    IMGLAB_JPEG_RESOURCE_ERROR = 3
} imglab_jpeg_status;

/* libjpeg's J_COLOR_SPACE values used by imglab (checked against jpeglib.h in jpeg_shim.c). */
enum {
    IMGLAB_JCS_UNKNOWN = 0,
    IMGLAB_JCS_GRAYSCALE = 1,
    IMGLAB_JCS_RGB = 2,
    IMGLAB_JCS_YCBCR = 3,
    IMGLAB_JCS_CMYK = 4,
    IMGLAB_JCS_YCCK = 5
};

/* What kind of failure the last libjpeg error was. */
typedef enum {
    IMGLAB_JPEG_FAILURE_NONE = 0,
    /* The data breaks the JPEG syntax (bad marker, bad table, bad sampling factors…). */
    IMGLAB_JPEG_FAILURE_MALFORMED = 1,
    /* The data ended before the image did (libjpeg reached the end before the header). */
    IMGLAB_JPEG_FAILURE_TRUNCATED = 2,
    /* A valid feature libjpeg-turbo does not decode (lossless, hierarchical, 12-bit, DNL). */
    IMGLAB_JPEG_FAILURE_UNSUPPORTED = 3,
    /* libjpeg's memory cap (max_memory) or malloc refused an allocation. */
    IMGLAB_JPEG_FAILURE_MEMORY = 4
} imglab_jpeg_failure;

/* What jpeg_read_header learnt. Colour spaces are libjpeg's J_COLOR_SPACE values. */
typedef struct {
    uint32_t width, height;
    int32_t num_components;
    int32_t jpeg_color_space;
    int32_t data_precision;
    int32_t progressive;          /* SOF2/SOF10 */
    int32_t arithmetic;           /* SOF9..SOF11 */
    int32_t has_multiple_scans;   /* libjpeg will buffer the whole coefficient array */
    int32_t saw_jfif;
    int32_t saw_adobe;
    int32_t adobe_transform;
    int32_t h_samp[4], v_samp[4]; /* first four components */
    int32_t has_luma_quant;       /* the first component's quantisation table was read */
    uint16_t luma_quant[64];      /* its values, in natural (row-major) order */
} imglab_jpeg_info;

/* An open decoder over a caller-owned byte buffer (which must outlive the decoder). */
typedef struct imglab_jpeg_decoder imglab_jpeg_decoder;

/* Creates a decoder; NULL when out of memory. `max_scans` bounds the number of scans read. */
imglab_jpeg_decoder *imglab_jpeg_decoder_create(const uint8_t *data, size_t size, int max_scans);
/* Creates a decoder that reads an open file through libjpeg's stdio source, a buffer at a time,
 * so the file is never held in memory. The caller keeps the file open until destroy, and closes it. */
imglab_jpeg_decoder *imglab_jpeg_decoder_create_file(FILE *file, int max_scans);
/* Reads the next output rows, at most `max_rows`, row i at pixels + i * stride; `rows_read`
 * gets how many (fewer only at the end of the image). */
imglab_jpeg_status imglab_jpeg_read_some_rows(imglab_jpeg_decoder *decoder, uint8_t *pixels, size_t stride,
                                              uint32_t max_rows, uint32_t *rows_read);
/* Frees the decoder and everything libjpeg allocated; accepts NULL. */
void imglab_jpeg_decoder_destroy(imglab_jpeg_decoder *decoder);

/* Runs jpeg_read_header and fills `info`. */
imglab_jpeg_status imglab_jpeg_read_header(imglab_jpeg_decoder *decoder, imglab_jpeg_info *info);

/* Chooses the output (colour space, 1/scale_denom DCT scaling), caps libjpeg's own memory
 * at `max_memory` bytes (0 = no cap), runs jpeg_start_decompress and reports the output size
 * and components. Progressive files are read whole here. */
imglab_jpeg_status imglab_jpeg_start(imglab_jpeg_decoder *decoder, int32_t out_color_space, int32_t scale_denom,
                                     long max_memory, uint32_t *out_width, uint32_t *out_height,
                                     int32_t *out_components);

/* Reads every output row into `pixels`, row y at pixels + y * stride. `capacity` is the buffer
 * size in bytes and must hold height × stride. */
imglab_jpeg_status imglab_jpeg_read_rows(imglab_jpeg_decoder *decoder, uint8_t *pixels, size_t stride,
                                         size_t capacity);

/* The last error, classified. */
imglab_jpeg_failure imglab_jpeg_error_kind(const imglab_jpeg_decoder *decoder);
/* The text of the last error or scan-limit stop (empty when none). */
const char *imglab_jpeg_error_message(const imglab_jpeg_decoder *decoder);
/* Byte offset libjpeg had consumed when the last error happened. */
size_t imglab_jpeg_error_offset(const imglab_jpeg_decoder *decoder);
/* Number of warnings libjpeg emitted so far (corrupt data it repaired, premature end…). */
long imglab_jpeg_warning_count(const imglab_jpeg_decoder *decoder);
/* The first warnings, one per line. */
const char *imglab_jpeg_warnings(const imglab_jpeg_decoder *decoder);
/* Whether libjpeg hit the end of the data and inserted a fake EOI (JWRN_JPEG_EOF). */
int32_t imglab_jpeg_hit_end_of_data(const imglab_jpeg_decoder *decoder);

/* What to encode. */
typedef struct {
    uint32_t width, height;
    int32_t components;        /* 1 gray, 3 RGB, 4 CMYK (Adobe inverted convention) */
    int32_t quality;           /* 1...100 */
    int32_t luma_h, luma_v;    /* luma sampling factors for 3-component images (chroma 1x1) */
    int32_t progressive;
    const uint8_t *exif;       /* APP1 payload including "Exif\0\0", or NULL */
    size_t exif_size;
    const uint8_t *icc;        /* ICC profile, split over APP2 markers by libjpeg, or NULL */
    size_t icc_size;
} imglab_jpeg_encode_params;

/* Encodes `pixels` (row y at pixels + y * stride). On success *output is a malloc'd buffer of
 * *output_size bytes that the caller releases with imglab_jpeg_free. `message` receives
 * IMGLAB_JPEG_MESSAGE_SIZE bytes of error text. */
imglab_jpeg_status imglab_jpeg_encode(const imglab_jpeg_encode_params *params, const uint8_t *pixels,
                                      size_t stride, uint8_t **output, unsigned long *output_size,
                                      char *message);
/* Frees a buffer returned by imglab_jpeg_encode; accepts NULL. */
void imglab_jpeg_free(uint8_t *buffer);

/* A JPEG compressed a few rows at a time: the same setup as imglab_jpeg_encode (quality,
 * sampling, progression, markers). libjpeg's output gathers in the writer's buffer: after each
 * call, take it with imglab_jpeg_row_writer_output and empty it with
 * imglab_jpeg_row_writer_clear_output. With standard Huffman tables (`optimize_coding` 0) and
 * a sequential file, libjpeg holds one band of MCU rows, so memory follows the width; with
 * optimised tables or a progressive file (scans made after the last row) it keeps every
 * coefficient of the image (2 bytes each, 1.5 per pixel at 4:2:0) and writes the whole file
 * at finish. */
typedef struct imglab_jpeg_row_writer imglab_jpeg_row_writer;

/* Starts a file of `params` (the EXIF and ICC markers are written here). NULL on failure, with
 * the reason in `message` (IMGLAB_JPEG_MESSAGE_SIZE bytes). imglab_jpeg_encode is
 * `optimize_coding` 1. */
imglab_jpeg_row_writer *imglab_jpeg_row_writer_open(const imglab_jpeg_encode_params *params, int32_t optimize_coding,
                                                    char *message);
/* Compresses the next `count` rows, row i at pixels + i * stride (refused past the image's height). */
imglab_jpeg_status imglab_jpeg_row_writer_write_rows(imglab_jpeg_row_writer *writer, const uint8_t *pixels, size_t stride,
                                                     uint32_t count, char *message);
/* Ends the file (jpeg_finish_compress) once every row is written. */
imglab_jpeg_status imglab_jpeg_row_writer_finish(imglab_jpeg_row_writer *writer, char *message);
/* The output made since the last clear: `*size` bytes at the returned address (valid until the
 * next call on the writer). */
const uint8_t *imglab_jpeg_row_writer_output(const imglab_jpeg_row_writer *writer, size_t *size);
/* Empties the output buffer (its memory is kept). */
void imglab_jpeg_row_writer_clear_output(imglab_jpeg_row_writer *writer);
/* Frees the writer and everything libjpeg allocated; accepts NULL. */
void imglab_jpeg_row_writer_close(imglab_jpeg_row_writer *writer);

#endif
