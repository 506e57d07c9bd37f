#include "imglab_png.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shared by the error handler and the I/O callbacks of one libpng session. */
typedef struct {
    jmp_buf jump;
    char message[IMGLAB_PNG_MESSAGE_SIZE];
    int truncated;
    /* Reading: the input, in memory (data, size) or from a file (file, when not NULL). */
    const uint8_t *data;
    size_t size, position;
    FILE *file;
    /* Writing: the growing output. */
    uint8_t *out;
    size_t out_size, out_capacity;
} imglab_png_io;

static void imglab_png_on_error(png_structp png, png_const_charp message) {
    imglab_png_io *io = (imglab_png_io *)png_get_error_ptr(png);
    snprintf(io->message, sizeof io->message, "%s", message ? message : "libpng error");
    longjmp(io->jump, 1);
}

static void imglab_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void imglab_png_read_data(png_structp png, png_bytep destination, size_t count) {
    imglab_png_io *io = (imglab_png_io *)png_get_io_ptr(png);
    if (io->file) {
        size_t n = fread(destination, 1, count, io->file);
        io->position += n;
        if (n != count) {
            io->truncated = feof(io->file) ? 1 : 0;
            png_error(png, io->truncated ? "unexpected end of data" : "read error");
        }
        return;
    }
    if (count > io->size - io->position) {
        io->truncated = 1;
        png_error(png, "unexpected end of data");
    }
    memcpy(destination, io->data + io->position, count);
    io->position += count;
}

static void imglab_png_fill_status(const imglab_png_io *io, imglab_png_status *status) {
    status->code = io->truncated ? IMGLAB_PNG_TRUNCATED : IMGLAB_PNG_ERROR;
    status->offset = io->position;
    snprintf(status->message, sizeof status->message, "%s", io->message);
}

struct imglab_png_reader {
    imglab_png_io io;
    png_structp png;
    png_infop info;
    png_bytep *rows;
};

void imglab_png_reader_close(imglab_png_reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    if (reader->io.file) fclose(reader->io.file);
    free(reader->rows);
    free(reader);
}

static imglab_png_reader *imglab_png_reader_start(imglab_png_reader *reader, int check_critical_crc,
                                                  imglab_png_info *info, imglab_png_status *status);

imglab_png_reader *imglab_png_reader_open(const uint8_t *data, size_t size,
                                          imglab_png_info *info, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    memset(info, 0, sizeof *info);
    imglab_png_reader *reader = calloc(1, sizeof *reader);
    if (!reader) {
        status->code = IMGLAB_PNG_ERROR;
        snprintf(status->message, sizeof status->message, "out of memory");
        return NULL;
    }
    reader->io.data = data;
    reader->io.size = size;
    return imglab_png_reader_start(reader, 0, info, status);
}

imglab_png_reader *imglab_png_reader_open_file(const char *path, imglab_png_info *info, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    memset(info, 0, sizeof *info);
    imglab_png_reader *reader = calloc(1, sizeof *reader);
    if (!reader) {
        status->code = IMGLAB_PNG_ERROR;
        snprintf(status->message, sizeof status->message, "out of memory");
        return NULL;
    }
    reader->io.file = fopen(path, "rb");
    if (!reader->io.file) {
        free(reader);
        status->code = IMGLAB_PNG_ERROR;
        snprintf(status->message, sizeof status->message, "cannot open the file");
        return NULL;
    }
    return imglab_png_reader_start(reader, 1, info, status);
}

/* libpng setup and png_read_info for a reader whose input is set; frees it on failure. */
static imglab_png_reader *imglab_png_reader_start(imglab_png_reader *reader, int check_critical_crc,
                                                  imglab_png_info *info, imglab_png_status *status) {
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->io,
                                         imglab_png_on_error, imglab_png_on_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) {
        imglab_png_reader_close(reader);
        status->code = IMGLAB_PNG_ERROR;
        snprintf(status->message, sizeof status->message, "out of memory");
        return NULL;
    }
    if (setjmp(reader->io.jump)) {
        imglab_png_fill_status(&reader->io, status);
        imglab_png_reader_close(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, &reader->io, imglab_png_read_data);
    /* The Swift side checks sizes against DecodeLimits before calling in. */
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    /* In memory, the Swift chunk walk has already verified every chunk's CRC (critical ones
     * must match), so libpng need not hash the file a second time. From a file the walk skips
     * IDAT data, so libpng checks critical chunks (an error on mismatch). */
    png_set_crc_action(reader->png, check_critical_crc ? PNG_CRC_DEFAULT : PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    png_read_info(reader->png, reader->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    info->width = width;
    info->height = height;
    info->bit_depth = bit_depth;
    info->color_type = color_type;
    info->interlace_type = interlace;
    info->has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) ? 1 : 0;

    png_colorp palette = NULL;
    int palette_count = 0;
    if (png_get_PLTE(reader->png, reader->info, &palette, &palette_count) && palette && palette_count > 0) {
        png_bytep alphas = NULL;
        int alpha_count = 0;
        png_color_16p color = NULL;
        if (info->has_trns) png_get_tRNS(reader->png, reader->info, &alphas, &alpha_count, &color);
        if (palette_count > 256) palette_count = 256;
        for (int i = 0; i < palette_count; i++) {
            info->palette[i * 4 + 0] = palette[i].red;
            info->palette[i * 4 + 1] = palette[i].green;
            info->palette[i * 4 + 2] = palette[i].blue;
            info->palette[i * 4 + 3] = (alphas && i < alpha_count) ? alphas[i] : 255;
        }
        info->palette_count = palette_count;
    }
    return reader;
}

int imglab_png_reader_read(imglab_png_reader *reader, int expand_trns, uint8_t *pixels,
                           size_t row_bytes, size_t size, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    if (setjmp(reader->io.jump)) {
        imglab_png_fill_status(&reader->io, status);
        return status->code;
    }
    if (expand_trns) png_set_tRNS_to_alpha(reader->png);
    (void)png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    png_uint_32 height = png_get_image_height(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != row_bytes || height == 0 || row_bytes == 0 ||
        size / row_bytes < height) {
        png_error(reader->png, "decoded row size differs from the size the header implies");
    }
    free(reader->rows);
    reader->rows = malloc((size_t)height * sizeof(png_bytep));
    if (!reader->rows) png_error(reader->png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) reader->rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(reader->png, reader->rows);
    png_read_end(reader->png, NULL);
    return IMGLAB_PNG_OK;
}

static void imglab_png_write_data(png_structp png, png_bytep data, size_t count) {
    imglab_png_io *io = (imglab_png_io *)png_get_io_ptr(png);
    if (count > io->out_capacity - io->out_size) {
        size_t capacity = io->out_capacity ? io->out_capacity : 4096;
        while (count > capacity - io->out_size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(io->out, capacity);
        if (!grown) png_error(png, "out of memory");
        io->out = grown;
        io->out_capacity = capacity;
    }
    memcpy(io->out + io->out_size, data, count);
    io->out_size += count;
}

static void imglab_png_flush(png_structp png) { (void)png; }

/* State of one write that must survive a longjmp: a whole-image write, or a row writer
 * (imglab_png_row_writer, which hands its output out as it goes). */
typedef struct imglab_png_row_writer {
    imglab_png_io io;
    png_structp png;
    png_infop info;
    png_bytep *rows;
    /* Row writer: rows expected and written so far, bytes of each. */
    uint32_t height, written;
    size_t row_bytes;
} imglab_png_writer;

static void imglab_png_writer_free(imglab_png_writer *writer, int keep_output) {
    if (writer->png) png_destroy_write_struct(&writer->png, writer->info ? &writer->info : NULL);
    free(writer->rows);
    if (!keep_output) free(writer->io.out);
    free(writer);
}

/* A write session with libpng's structs created; NULL with `status` filled when out of memory. */
static imglab_png_writer *imglab_png_writer_new(imglab_png_status *status) {
    imglab_png_writer *writer = calloc(1, sizeof *writer);
    if (writer) {
        writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->io,
                                              imglab_png_on_error, imglab_png_on_warning);
        if (writer->png) writer->info = png_create_info_struct(writer->png);
        if (writer->png && writer->info) return writer;
        imglab_png_writer_free(writer, 0);
    }
    status->code = IMGLAB_PNG_ERROR;
    snprintf(status->message, sizeof status->message, "out of memory");
    return NULL;
}

/* Sets the output, IHDR, PLTE, tRNS and the compression settings of `image` and writes the
 * chunks before the first IDAT: the one setup of the whole-image and the row-by-row writer, so
 * both write the same bytes for the same rows. Call inside the session's setjmp. */
static void imglab_png_write_start(png_structp png, png_infop info, imglab_png_io *io, const imglab_png_image *image) {
    png_set_write_fn(png, io, imglab_png_write_data, imglab_png_flush);
    png_set_IHDR(png, info, image->width, image->height, image->bit_depth,
                 image->color_type, image->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (image->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color entries[256];
        int count = image->palette_count;
        if (count < 1 || count > 256 || !image->palette_rgb) png_error(png, "palette needs 1...256 entries");
        for (int i = 0; i < count; i++) {
            entries[i].red = image->palette_rgb[i * 3];
            entries[i].green = image->palette_rgb[i * 3 + 1];
            entries[i].blue = image->palette_rgb[i * 3 + 2];
        }
        png_set_PLTE(png, info, entries, count);
        if (image->trns_count > 0 && image->trns_alpha)
            png_set_tRNS(png, info, image->trns_alpha, image->trns_count, NULL);
    }
    if (image->compression == 1) {
        png_set_compression_level(png, 9);
        png_set_filter(png, 0, PNG_ALL_FILTERS);
    } else if (image->color_type != PNG_COLOR_TYPE_PALETTE && image->bit_depth >= 8) {
        png_set_compression_strategy(png, Z_RLE);
        png_set_filter(png, 0, PNG_FILTER_PAETH);
    }
    png_write_info(png, info);
}

int imglab_png_write(const imglab_png_image *image, const uint8_t *pixels, size_t row_bytes,
                     uint8_t **out, size_t *out_size, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    *out = NULL;
    *out_size = 0;
    imglab_png_writer *writer = imglab_png_writer_new(status);
    if (!writer) return status->code;
    if (setjmp(writer->io.jump)) {
        status->code = IMGLAB_PNG_ERROR;
        snprintf(status->message, sizeof status->message, "%s", writer->io.message);
        imglab_png_writer_free(writer, 0);
        return status->code;
    }
    imglab_png_write_start(writer->png, writer->info, &writer->io, image);
    if (image->height == 0 || row_bytes < png_get_rowbytes(writer->png, writer->info))
        png_error(writer->png, "row buffer is smaller than the image rows");
    writer->rows = malloc((size_t)image->height * sizeof(png_bytep));
    if (!writer->rows) png_error(writer->png, "out of memory");
    for (png_uint_32 y = 0; y < image->height; y++) writer->rows[y] = (png_bytep)(pixels + (size_t)y * row_bytes);
    png_write_image(writer->png, writer->rows);
    png_write_end(writer->png, NULL);
    *out = writer->io.out;
    *out_size = writer->io.out_size;
    imglab_png_writer_free(writer, 1);
    return IMGLAB_PNG_OK;
}

void imglab_png_free(uint8_t *buffer) { free(buffer); }

/* Fills `status` from a failed session's message (after its longjmp). */
static int imglab_png_writer_failed(imglab_png_writer *writer, imglab_png_status *status) {
    status->code = IMGLAB_PNG_ERROR;
    snprintf(status->message, sizeof status->message, "%s", writer->io.message);
    return status->code;
}

imglab_png_row_writer *imglab_png_row_writer_open(const imglab_png_image *image, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    imglab_png_writer *writer = imglab_png_writer_new(status);
    if (!writer) return NULL;
    if (setjmp(writer->io.jump)) {
        imglab_png_writer_failed(writer, status);
        imglab_png_writer_free(writer, 0);
        return NULL;
    }
    if (image->interlace) png_error(writer->png, "row-by-row writing needs a non-interlaced image");
    imglab_png_write_start(writer->png, writer->info, &writer->io, image);
    writer->height = image->height;
    writer->row_bytes = png_get_rowbytes(writer->png, writer->info);
    if (writer->height == 0 || writer->row_bytes == 0) png_error(writer->png, "an image of no rows");
    return writer;
}

int imglab_png_row_writer_write_rows(imglab_png_row_writer *writer, const uint8_t *rows, size_t stride,
                                     uint32_t count, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    if (setjmp(writer->io.jump)) return imglab_png_writer_failed(writer, status);
    if (count > writer->height - writer->written) png_error(writer->png, "more rows than the image has");
    if (count > 0 && stride < writer->row_bytes) png_error(writer->png, "row buffer is smaller than the image rows");
    for (uint32_t i = 0; i < count; i++) png_write_row(writer->png, (png_const_bytep)(rows + (size_t)i * stride));
    writer->written += count;
    return IMGLAB_PNG_OK;
}

int imglab_png_row_writer_finish(imglab_png_row_writer *writer, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    if (setjmp(writer->io.jump)) return imglab_png_writer_failed(writer, status);
    if (writer->written != writer->height) png_error(writer->png, "fewer rows than the image has");
    png_write_end(writer->png, NULL);
    return IMGLAB_PNG_OK;
}

const uint8_t *imglab_png_row_writer_output(const imglab_png_row_writer *writer, size_t *size) {
    *size = writer->io.out_size;
    return writer->io.out;
}

void imglab_png_row_writer_clear_output(imglab_png_row_writer *writer) { writer->io.out_size = 0; }

void imglab_png_row_writer_close(imglab_png_row_writer *writer) {
    if (writer) imglab_png_writer_free(writer, 0);
}

int imglab_png_reader_begin_rows(imglab_png_reader *reader, int expand_trns, size_t row_bytes,
                                 imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    if (setjmp(reader->io.jump)) {
        imglab_png_fill_status(&reader->io, status);
        return status->code;
    }
    if (png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE) {
        png_error(reader->png, "row-by-row reading needs a non-interlaced image");
    }
    if (expand_trns) png_set_tRNS_to_alpha(reader->png);
    png_read_update_info(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != row_bytes || row_bytes == 0) {
        png_error(reader->png, "decoded row size differs from the size the header implies");
    }
    return IMGLAB_PNG_OK;
}

int imglab_png_reader_read_rows(imglab_png_reader *reader, const uint8_t *data, size_t size,
                                uint8_t *pixels, size_t stride, uint32_t count, imglab_png_status *status) {
    memset(status, 0, sizeof *status);
    /* The caller's buffer may live elsewhere than at open time; the read position is kept. */
    if (!reader->io.file) {
        reader->io.data = data;
        reader->io.size = size;
    }
    if (setjmp(reader->io.jump)) {
        imglab_png_fill_status(&reader->io, status);
        return status->code;
    }
    for (uint32_t i = 0; i < count; i++) png_read_row(reader->png, pixels + (size_t)i * stride, NULL);
    return IMGLAB_PNG_OK;
}
