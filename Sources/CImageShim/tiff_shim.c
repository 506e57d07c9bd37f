/* libtiff plumbing for imglab: memory I/O procs, per-handle error capture, and wrappers around
 * libtiff's variadic getters/setters (which Swift cannot call). Pixel logic lives in Swift. */
#include "imglab_tiff.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>

/* Where a handle's libtiff messages go: the first error since the last clear is kept, and
 * the first warning of the handle's life with a count of all warnings (never cleared). */
typedef struct message_sink {
    int has_message;
    char message[IMGLAB_MESSAGE_SIZE];
    int warning_count;
    char warning[IMGLAB_MESSAGE_SIZE];
} message_sink;

/* Clears the error (warnings are kept for the handle's life). */
static void sink_clear(message_sink *sink) {
    sink->has_message = 0;
    sink->message[0] = '\0';
}

static void sink_set(message_sink *sink, const char *text) {
    if (sink->has_message) return;
    snprintf(sink->message, IMGLAB_MESSAGE_SIZE, "%s", text);
    sink->has_message = 1;
}

static void format_message(char out[IMGLAB_MESSAGE_SIZE], const char *module, const char *fmt, va_list ap) {
    char text[IMGLAB_MESSAGE_SIZE];
    vsnprintf(text, sizeof text, fmt, ap);
    if (module != NULL && module[0] != '\0') {
        snprintf(out, IMGLAB_MESSAGE_SIZE, "%s: %s", module, text);
    } else {
        snprintf(out, IMGLAB_MESSAGE_SIZE, "%s", text);
    }
}

static int record_error(TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    message_sink *sink = user_data;
    if (sink == NULL || sink->has_message) return 1;
    format_message(sink->message, module, fmt, ap);
    sink->has_message = 1;
    return 1; /* handled: libtiff must not call the process-wide handlers */
}

static int record_warning(TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    message_sink *sink = user_data;
    if (sink == NULL) return 1;
    if (sink->warning_count == 0) format_message(sink->warning, module, fmt, ap);
    if (sink->warning_count < INT32_MAX) sink->warning_count++;
    return 1;
}

/* Every handle has its own handlers, which stop libtiff from calling the process-wide ones.
 * A few libtiff paths report before a handle exists; clearing the process-wide handlers (once,
 * under pthread_once, never changed afterwards) keeps those from printing to stderr too. */
static pthread_once_t silence_once = PTHREAD_ONCE_INIT;
static void silence_process_handlers(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

static TIFFOpenOptions *open_options(message_sink *sink, int64_t max_single_alloc) {
    pthread_once(&silence_once, silence_process_handlers);
    TIFFOpenOptions *opts = TIFFOpenOptionsAlloc();
    if (opts == NULL) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(opts, record_error, sink);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, record_warning, sink);
    if (max_single_alloc > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(opts, (tmsize_t)max_single_alloc);
    return opts;
}

static int dummy_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle; (void)base; (void)size;
    return 0;
}

static void dummy_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle; (void)base; (void)size;
}

static int no_close(thandle_t handle) {
    (void)handle;
    return 0;
}

/* New position for a seek, or 0 when it would overflow or `whence` is unknown. */
static int seek_target(uint64_t position, uint64_t size, toff_t offset, int whence, uint64_t *target) {
    uint64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = position; break;
    case SEEK_END: base = size; break;
    default: return 0;
    }
    if (offset > UINT64_MAX - base) return 0;
    *target = base + offset;
    return 1;
}

/* ---- Reading ---- */

struct imglab_tiff_reader {
    const uint8_t *data;
    uint64_t size;
    uint64_t position;
    int fd;            /* reading a file with pread when >= 0, else `data` */
    TIFF *tif;
    message_sink sink;
};

/* Copies up to `count` bytes of `data` (`size` long) from `*position` on into `buffer` and
 * advances the position: libtiff's read callback over an in-memory file, for reader and writer. */
static tmsize_t read_span(const uint8_t *data, uint64_t size, uint64_t *position, void *buffer, tmsize_t count) {
    if (count <= 0 || *position >= size) return 0;
    uint64_t available = size - *position;
    uint64_t n = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, data + *position, (size_t)n);
    *position += n;
    return (tmsize_t)n;
}

static tmsize_t reader_read(thandle_t handle, void *buffer, tmsize_t count) {
    imglab_tiff_reader *reader = handle;
    if (reader->fd >= 0) {
        if (count <= 0 || reader->position >= reader->size) return 0;
        tmsize_t done = 0;
        while (done < count) {
            ssize_t n = pread(reader->fd, (uint8_t *)buffer + done, (size_t)(count - done), (off_t)(reader->position + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += n;
        }
        reader->position += (uint64_t)done;
        return done;
    }
    return read_span(reader->data, reader->size, &reader->position, buffer, count);
}

static tmsize_t reader_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return -1;
}

static toff_t reader_seek(thandle_t handle, toff_t offset, int whence) {
    imglab_tiff_reader *reader = handle;
    uint64_t target;
    if (!seek_target(reader->position, reader->size, offset, whence, &target)) return (toff_t)-1;
    reader->position = target;
    return target;
}

static toff_t reader_size(thandle_t handle) {
    return ((imglab_tiff_reader *)handle)->size;
}

static int open_reader(imglab_tiff_reader *reader, int64_t max_single_alloc,
                       imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]);

int imglab_tiff_open(const uint8_t *data, size_t size, int64_t max_single_alloc,
                     imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]) {
    *out = NULL;
    message[0] = '\0';
    imglab_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    reader->data = data;
    reader->size = size;
    reader->fd = -1;
    return open_reader(reader, max_single_alloc, out, message);
}

int imglab_tiff_open_file(const char *path, int64_t max_single_alloc,
                          imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]) {
    *out = NULL;
    message[0] = '\0';
    imglab_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    reader->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat status;
    if (reader->fd < 0 || fstat(reader->fd, &status) != 0) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "cannot open the file (errno %d)", errno);
        if (reader->fd >= 0) close(reader->fd);
        free(reader);
        return 0;
    }
    reader->size = (uint64_t)status.st_size;
    return open_reader(reader, max_single_alloc, out, message);
}

/* TIFFClientOpenExt over a reader whose input is set; frees the reader on failure. */
static int open_reader(imglab_tiff_reader *reader, int64_t max_single_alloc,
                       imglab_tiff_reader **out, char message[IMGLAB_MESSAGE_SIZE]) {
    sink_clear(&reader->sink);
    TIFFOpenOptions *opts = open_options(&reader->sink, max_single_alloc);
    if (opts == NULL) {
        if (reader->fd >= 0) close(reader->fd);
        free(reader);
        snprintf(message, IMGLAB_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    /* "m": no memory mapping, libtiff only reads through reader_read. */
    reader->tif = TIFFClientOpenExt("TIFF", "rm", reader, reader_read, reader_write, reader_seek,
                                    no_close, reader_size, dummy_map, dummy_unmap, opts);
    TIFFOpenOptionsFree(opts);
    if (reader->tif == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "%s",
                 reader->sink.has_message ? reader->sink.message : "libtiff could not open the file");
        if (reader->fd >= 0) close(reader->fd);
        free(reader);
        return 0;
    }
    *out = reader;
    return 1;
}

void imglab_tiff_close(imglab_tiff_reader *reader) {
    if (reader == NULL) return;
    if (reader->tif != NULL) TIFFClose(reader->tif);
    if (reader->fd >= 0) close(reader->fd);
    free(reader);
}

const char *imglab_tiff_message(const imglab_tiff_reader *reader) {
    return reader->sink.message;
}

const char *imglab_tiff_first_warning(const imglab_tiff_reader *reader, int *count) {
    *count = reader->sink.warning_count;
    return reader->sink.warning;
}

int imglab_tiff_read_directory(imglab_tiff_reader *reader, imglab_tiff_directory *d) {
    sink_clear(&reader->sink);
    TIFF *tif = reader->tif;
    memset(d, 0, sizeof *d);
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &d->width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &d->height)) {
        sink_set(&reader->sink, "the IFD has no ImageWidth or ImageLength");
        return 0;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &d->bits_per_sample);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &d->samples_per_pixel);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &d->sample_format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &d->planar_config);
    TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &d->fill_order);
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &d->ink_set);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &d->compression);
    d->has_photometric = TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &d->photometric);
    d->has_orientation = TIFFGetField(tif, TIFFTAG_ORIENTATION, &d->orientation);
    d->has_predictor = TIFFGetField(tif, TIFFTAG_PREDICTOR, &d->predictor);
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    if (TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) && extra != NULL) {
        d->extra_sample_count = extra_count;
        d->extra_samples = extra;
    }
    d->is_tiled = TIFFIsTiled(tif) ? 1 : 0;
    d->is_big_endian = TIFFIsBigEndian(tif) ? 1 : 0;
    d->is_bigtiff = TIFFIsBigTIFF(tif) ? 1 : 0;
    if (d->is_tiled) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &d->tile_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &d->tile_length);
        d->tile_count = TIFFNumberOfTiles(tif);
        d->tile_row_size = TIFFTileRowSize64(tif);
        d->tile_size = TIFFTileSize64(tif);
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &d->rows_per_strip);
        d->strip_count = TIFFNumberOfStrips(tif);
    }
    d->scanline_size = TIFFScanlineSize64(tif);
    uint16_t *red = NULL, *green = NULL, *blue = NULL;
    if (TIFFGetField(tif, TIFFTAG_COLORMAP, &red, &green, &blue) && red && green && blue) {
        d->colormap_red = red;
        d->colormap_green = green;
        d->colormap_blue = blue;
    }
    uint64_t exif_ifd = 0;
    if (TIFFGetField(tif, TIFFTAG_EXIFIFD, &exif_ifd)) {
        d->exif_ifd_offset = exif_ifd;
        d->has_exif_ifd = 1;
    }
    uint32_t icc_size = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc != NULL) {
        d->icc_profile = icc;
        d->icc_profile_size = icc_size;
    }
    return 1;
}

int imglab_tiff_count_directories(imglab_tiff_reader *reader, uint32_t *count) {
    sink_clear(&reader->sink);
    *count = TIFFNumberOfDirectories(reader->tif);
    return *count > 0;
}

int64_t imglab_tiff_read_strip(imglab_tiff_reader *reader, uint32_t index, uint8_t *buffer, size_t size) {
    sink_clear(&reader->sink);
    if (size > (size_t)INT64_MAX) return -1;
    return TIFFReadEncodedStrip(reader->tif, index, buffer, (tmsize_t)size);
}

int64_t imglab_tiff_stored_byte_count(imglab_tiff_reader *reader, uint32_t index) {
    sink_clear(&reader->sink);
    int error = 0;
    uint64_t count = TIFFGetStrileByteCountWithErr(reader->tif, index, &error);
    return error || count > (uint64_t)INT64_MAX ? -1 : (int64_t)count;
}

int64_t imglab_tiff_read_tile(imglab_tiff_reader *reader, uint32_t index, uint8_t *buffer, size_t size) {
    sink_clear(&reader->sink);
    if (size > (size_t)INT64_MAX) return -1;
    return TIFFReadEncodedTile(reader->tif, index, buffer, (tmsize_t)size);
}

int imglab_tiff_read_rgba(imglab_tiff_reader *reader, uint32_t *raster, uint32_t width, uint32_t height) {
    sink_clear(&reader->sink);
    char emsg[1024] = {0};
    TIFFRGBAImage image;
    if (!TIFFRGBAImageOK(reader->tif, emsg) || !TIFFRGBAImageBegin(&image, reader->tif, 1, emsg)) {
        sink_set(&reader->sink, emsg[0] ? emsg : "libtiff's RGBA interface cannot read this image");
        return 0;
    }
    /* Asking for the file's own orientation makes libtiff flip nothing: rows stay as stored. */
    image.req_orientation = image.orientation;
    int ok = TIFFRGBAImageGet(&image, raster, width, height);
    TIFFRGBAImageEnd(&image);
    if (!ok) sink_set(&reader->sink, "libtiff's RGBA interface failed");
    return ok ? 1 : 0;
}

/* ---- Writing ---- */

/* Where libtiff writes: a growing buffer (`data`), or the file `fd` with pwrite when fd >= 0
 * (a row writer's file; `size` is then its end). */
typedef struct memory_writer {
    uint8_t *data;
    uint64_t size, capacity, position;
    int fd;
    message_sink sink;
} memory_writer;

static tmsize_t writer_write(thandle_t handle, void *buffer, tmsize_t count) {
    memory_writer *w = handle;
    if (count < 0) return -1;
    if (count == 0) return 0;
    uint64_t n = (uint64_t)count;
    if (w->position > UINT64_MAX - n || w->position + n > (uint64_t)INT64_MAX) return -1;
    uint64_t end = w->position + n;
    if (w->fd >= 0) {
        uint64_t done = 0;
        while (done < n) {
            ssize_t k = pwrite(w->fd, (const uint8_t *)buffer + done, (size_t)(n - done), (off_t)(w->position + done));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return -1;
            done += (uint64_t)k;
        }
        w->position = end;
        if (end > w->size) w->size = end;
        return count;
    }
    if (end > w->capacity) {
        uint64_t capacity = w->capacity ? w->capacity : 65536;
        while (capacity < end) capacity = capacity > UINT64_MAX / 2 ? end : capacity * 2;
        if (capacity > (uint64_t)SIZE_MAX) return -1;
        uint8_t *grown = realloc(w->data, (size_t)capacity);
        if (grown == NULL) return -1;
        w->data = grown;
        w->capacity = capacity;
    }
    if (w->position > w->size) memset(w->data + w->size, 0, (size_t)(w->position - w->size));
    memcpy(w->data + w->position, buffer, (size_t)n);
    w->position = end;
    if (end > w->size) w->size = end;
    return count;
}

static tmsize_t writer_read(thandle_t handle, void *buffer, tmsize_t count) {
    memory_writer *w = handle;
    if (w->fd >= 0) {
        if (count <= 0 || w->position >= w->size) return 0;
        tmsize_t done = 0;
        while (done < count) {
            ssize_t n = pread(w->fd, (uint8_t *)buffer + done, (size_t)(count - done), (off_t)(w->position + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += n;
        }
        w->position += (uint64_t)done;
        return done;
    }
    return read_span(w->data, w->size, &w->position, buffer, count);
}

static toff_t writer_seek(thandle_t handle, toff_t offset, int whence) {
    memory_writer *w = handle;
    uint64_t target;
    if (!seek_target(w->position, w->size, offset, whence, &target)) return (toff_t)-1;
    w->position = target;
    return target;
}

static toff_t writer_size(thandle_t handle) {
    return ((memory_writer *)handle)->size;
}

/* Sets the IFD fields; 1 on success. */
static int set_fields(TIFF *tif, const imglab_tiff_encode_params *p) {
    if (!TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, p->width)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_IMAGELENGTH, p->height)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, p->bits_per_sample)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, p->samples_per_pixel)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, p->sample_format)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, p->photometric)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_PLANARCONFIG, p->planar_config)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_COMPRESSION, p->compression)) return 0;
    if (p->predictor > 1 && !TIFFSetField(tif, TIFFTAG_PREDICTOR, p->predictor)) return 0;
    if (!TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, p->rows_per_strip)) return 0;
    if (p->extra_sample_count > 0) {
        uint16_t extra[4];
        memcpy(extra, p->extra_samples, sizeof extra);
        if (p->extra_sample_count > 4 || !TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, p->extra_sample_count, extra)) return 0;
    }
    if (p->orientation >= 1 && p->orientation <= 8 && !TIFFSetField(tif, TIFFTAG_ORIENTATION, p->orientation)) return 0;
    if (p->colormap_red && p->colormap_green && p->colormap_blue &&
        !TIFFSetField(tif, TIFFTAG_COLORMAP, p->colormap_red, p->colormap_green, p->colormap_blue)) return 0;
    if (p->icc_profile && p->icc_profile_size > 0 &&
        !TIFFSetField(tif, TIFFTAG_ICCPROFILE, p->icc_profile_size, p->icc_profile)) return 0;
    return 1;
}

/* Writes every strip of every plane; 1 on success. */
static int write_strips(TIFF *tif, const imglab_tiff_encode_params *p, const uint8_t *pixels, size_t pixels_size) {
    uint32_t planes = p->planar_config == PLANARCONFIG_SEPARATE ? p->samples_per_pixel : 1;
    uint32_t rows_per_strip = p->rows_per_strip ? p->rows_per_strip : 1;
    uint32_t strips_per_plane = p->height / rows_per_strip + (p->height % rows_per_strip ? 1 : 0);
    size_t plane_size = p->row_bytes * p->height;
    if (p->height != 0 && plane_size / p->height != p->row_bytes) return 0;
    if (planes != 0 && plane_size > pixels_size / planes) return 0;
    for (uint32_t plane = 0; plane < planes; plane++) {
        for (uint32_t s = 0; s < strips_per_plane; s++) {
            uint32_t first_row = s * rows_per_strip;
            uint32_t rows = p->height - first_row < rows_per_strip ? p->height - first_row : rows_per_strip;
            const uint8_t *start = pixels + plane * plane_size + (size_t)first_row * p->row_bytes;
            tmsize_t bytes = (tmsize_t)((size_t)rows * p->row_bytes);
            if (TIFFWriteEncodedStrip(tif, plane * strips_per_plane + s, (void *)start, bytes) < 0) return 0;
        }
    }
    return 1;
}

/* Opens libtiff for writing through `w` (its output set) and sets the IFD fields of `params`:
 * the one setup of the whole-image and the row writer. NULL on failure (the reason in w->sink,
 * or none when out of memory); the TIFF handle is closed then. */
static TIFF *open_writer(memory_writer *w, const imglab_tiff_encode_params *params) {
    sink_clear(&w->sink);
    TIFFOpenOptions *opts = open_options(&w->sink, 0);
    if (opts == NULL) return NULL;
    TIFF *tif = TIFFClientOpenExt("TIFF", "w", w, writer_read, writer_write, writer_seek,
                                  no_close, writer_size, dummy_map, dummy_unmap, opts);
    TIFFOpenOptionsFree(opts);
    if (tif != NULL && !set_fields(tif, params)) {
        TIFFClose(tif);
        return NULL;
    }
    return tif;
}

int imglab_tiff_encode(const imglab_tiff_encode_params *params, const uint8_t *pixels, size_t pixels_size,
                       uint8_t **out, size_t *out_size, char message[IMGLAB_MESSAGE_SIZE]) {
    *out = NULL;
    *out_size = 0;
    message[0] = '\0';
    memory_writer *w = calloc(1, sizeof *w);
    if (w == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    w->fd = -1;
    TIFF *tif = open_writer(w, params);
    int ok = tif != NULL
        && write_strips(tif, params, pixels, pixels_size)
        && TIFFWriteDirectory(tif);
    if (tif != NULL) TIFFClose(tif);
    if (!ok) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "%s", w->sink.has_message ? w->sink.message : "libtiff could not write the image");
        free(w->data);
        free(w);
        return 0;
    }
    *out = w->data;
    *out_size = (size_t)w->size;
    free(w);
    return 1;
}

void imglab_tiff_free(uint8_t *bytes) {
    free(bytes);
}

struct imglab_tiff_row_writer {
    memory_writer output;
    TIFF *tif;
    imglab_tiff_encode_params params;
    uint32_t rows_per_strip, strip_count, strips_written;
};

int imglab_tiff_row_writer_open(int fd, const imglab_tiff_encode_params *params,
                                imglab_tiff_row_writer **out, char message[IMGLAB_MESSAGE_SIZE]) {
    *out = NULL;
    message[0] = '\0';
    if (params->planar_config == PLANARCONFIG_SEPARATE && params->samples_per_pixel > 1) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "a row writer writes chunky files only (PlanarConfiguration 1)");
        return 0;
    }
    if (params->width == 0 || params->height == 0 || params->row_bytes == 0) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "an image of no pixels");
        return 0;
    }
    imglab_tiff_row_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    writer->output.fd = fd;
    writer->params = *params;
    writer->params.colormap_red = writer->params.colormap_green = writer->params.colormap_blue = NULL;
    writer->params.icc_profile = NULL;
    writer->rows_per_strip = params->rows_per_strip ? params->rows_per_strip : 1;
    writer->strip_count = params->height / writer->rows_per_strip + (params->height % writer->rows_per_strip ? 1 : 0);
    writer->tif = open_writer(&writer->output, params);
    if (writer->tif == NULL) {
        snprintf(message, IMGLAB_MESSAGE_SIZE, "%s", writer->output.sink.has_message ? writer->output.sink.message : "libtiff could not start the file");
        free(writer);
        return 0;
    }
    *out = writer;
    return 1;
}

int imglab_tiff_row_writer_write_strip(imglab_tiff_row_writer *writer, const uint8_t *pixels, size_t size) {
    sink_clear(&writer->output.sink);
    uint32_t s = writer->strips_written;
    if (s >= writer->strip_count) {
        sink_set(&writer->output.sink, "more strips than the image has");
        return 0;
    }
    uint32_t first_row = s * writer->rows_per_strip, height = writer->params.height;
    uint32_t rows = height - first_row < writer->rows_per_strip ? height - first_row : writer->rows_per_strip;
    if (size != (size_t)rows * writer->params.row_bytes) {
        sink_set(&writer->output.sink, "a strip of another size than its rows");
        return 0;
    }
    if (TIFFWriteEncodedStrip(writer->tif, s, (void *)pixels, (tmsize_t)size) < 0) {
        sink_set(&writer->output.sink, "libtiff could not write a strip");
        return 0;
    }
    writer->strips_written++;
    return 1;
}

int imglab_tiff_row_writer_finish(imglab_tiff_row_writer *writer, uint64_t *file_size) {
    sink_clear(&writer->output.sink);
    if (writer->strips_written != writer->strip_count) {
        sink_set(&writer->output.sink, "strips are missing");
        return 0;
    }
    if (!TIFFWriteDirectory(writer->tif)) {
        sink_set(&writer->output.sink, "libtiff could not write the directory");
        return 0;
    }
    TIFFClose(writer->tif);
    writer->tif = NULL;
    *file_size = writer->output.size;
    return 1;
}

const char *imglab_tiff_row_writer_message(const imglab_tiff_row_writer *writer) {
    return writer->output.sink.message;
}

void imglab_tiff_row_writer_close(imglab_tiff_row_writer *writer) {
    if (writer == NULL) return;
    if (writer->tif != NULL) TIFFClose(writer->tif);
    free(writer);
}

int imglab_tiff_codec_configured(uint16_t scheme) {
    return TIFFIsCODECConfigured(scheme) ? 1 : 0;
}
