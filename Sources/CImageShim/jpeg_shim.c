/* libjpeg-turbo error plumbing for imglab's JPEG codec. See include/imglab_jpeg.h. */
#include "imglab_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

_Static_assert(IMGLAB_JCS_UNKNOWN == JCS_UNKNOWN && IMGLAB_JCS_GRAYSCALE == JCS_GRAYSCALE &&
               IMGLAB_JCS_RGB == JCS_RGB && IMGLAB_JCS_YCBCR == JCS_YCbCr &&
               IMGLAB_JCS_CMYK == JCS_CMYK && IMGLAB_JCS_YCCK == JCS_YCCK,
               "imglab's colour-space constants must match jpeglib.h");

/* How many warning texts are kept; later ones are only counted. */
#define KEPT_WARNINGS 4

/* The error manager: libjpeg's fields first, so a j_common_ptr's err can be cast back. */
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int error_code;
    char message[IMGLAB_JPEG_MESSAGE_SIZE];
    long warnings;
    char warning_text[IMGLAB_JPEG_WARNINGS_SIZE];
    int hit_end_of_data;
} shim_error_mgr;

struct imglab_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    shim_error_mgr err;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int scan_limit_hit;
    int created;
    const uint8_t *data;
    size_t size;
    FILE *file;                   /* set instead of data/size for a streamed file */
    size_t error_offset;
};

static void shim_error_exit(j_common_ptr cinfo) {
    shim_error_mgr *err = (shim_error_mgr *)cinfo->err;
    err->error_code = err->pub.msg_code;
    (*err->pub.format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/* Warnings (msg_level −1) are counted and the first few kept; trace messages are dropped. */
static void shim_emit_message(j_common_ptr cinfo, int msg_level) {
    shim_error_mgr *err = (shim_error_mgr *)cinfo->err;
    if (msg_level >= 0) return;
    if (err->pub.msg_code == JWRN_JPEG_EOF) err->hit_end_of_data = 1;
    if (err->warnings < KEPT_WARNINGS) {
        char text[JMSG_LENGTH_MAX];
        (*err->pub.format_message)(cinfo, text);
        size_t used = strlen(err->warning_text);
        if (used + 1 < sizeof err->warning_text) {
            snprintf(err->warning_text + used, sizeof err->warning_text - used, "%s%s", used ? "\n" : "", text);
        }
    }
    err->warnings++;
    err->pub.num_warnings++;
}

static void shim_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void shim_install_errors(shim_error_mgr *err) {
    memset(err, 0, sizeof *err);
    jpeg_std_error(&err->pub);
    err->pub.error_exit = shim_error_exit;
    err->pub.emit_message = shim_emit_message;
    err->pub.output_message = shim_output_message;
}

/* Stops a decode whose scan count passes the limit (the djpeg -maxscans idea): libjpeg calls
 * this once per iMCU row while it buffers a multi-scan file. */
static void shim_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    imglab_jpeg_decoder *decoder = (imglab_jpeg_decoder *)d->client_data;
    if (decoder->max_scans > 0 && d->input_scan_number > decoder->max_scans) {
        decoder->scan_limit_hit = 1;
        snprintf(decoder->err.message, sizeof decoder->err.message,
                 "scan %d exceeds the limit of %d scans", d->input_scan_number, decoder->max_scans);
        longjmp(decoder->err.jump, 1);
    }
}

/* Records how far libjpeg had read into the caller's buffer when it stopped. Past the end,
 * next_input_byte points into libjpeg's own fake-EOI buffer, which counts as the end. */
static void record_offset(imglab_jpeg_decoder *decoder) {
    const struct jpeg_source_mgr *src = decoder->cinfo.src;
    const uint8_t *at = src ? (const uint8_t *)src->next_input_byte : NULL;
    if (decoder->file != NULL) {
        long position = ftell(decoder->file);
        size_t buffered = src ? src->bytes_in_buffer : 0;
        decoder->error_offset = position > 0 && (size_t)position >= buffered ? (size_t)position - buffered : 0;
        return;
    }
    if (at == NULL) decoder->error_offset = 0;
    else if (at < decoder->data || at > decoder->data + decoder->size) decoder->error_offset = decoder->size;
    else decoder->error_offset = (size_t)(at - decoder->data);
}

/* Creates a decoder reading either the buffer `data` (jpeg_mem_src) or the open `file`
 * (jpeg_stdio_src). */
static imglab_jpeg_decoder *decoder_new(const uint8_t *data, size_t size, FILE *file, int max_scans) {
    imglab_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    shim_install_errors(&decoder->err);
    decoder->cinfo.err = &decoder->err.pub;
    decoder->max_scans = max_scans;
    decoder->data = data;
    decoder->size = size;
    decoder->file = file;
    if (setjmp(decoder->err.jump)) {
        /* Out of memory in jpeg_create_decompress, or an empty buffer in jpeg_mem_src. */
        if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->cinfo.client_data = decoder;
    decoder->progress.progress_monitor = shim_progress;
    decoder->cinfo.progress = &decoder->progress;
    if (file != NULL) jpeg_stdio_src(&decoder->cinfo, file);
    else jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    return decoder;
}

imglab_jpeg_decoder *imglab_jpeg_decoder_create(const uint8_t *data, size_t size, int max_scans) {
    return decoder_new(data, size, NULL, max_scans);
}

imglab_jpeg_decoder *imglab_jpeg_decoder_create_file(FILE *file, int max_scans) {
    if (file == NULL) return NULL;
    return decoder_new(NULL, 0, file, max_scans);
}

imglab_jpeg_status imglab_jpeg_read_some_rows(imglab_jpeg_decoder *decoder, uint8_t *pixels, size_t stride,
                                              uint32_t max_rows, uint32_t *rows_read) {
    if (decoder == NULL || pixels == NULL || rows_read == NULL) return IMGLAB_JPEG_RESOURCE_ERROR;
    *rows_read = 0;
    j_decompress_ptr cinfo = &decoder->cinfo;
    size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    if (stride < row_bytes) return IMGLAB_JPEG_RESOURCE_ERROR;
    if (setjmp(decoder->err.jump)) {
        record_offset(decoder);
        return decoder->scan_limit_hit ? IMGLAB_JPEG_SCAN_LIMIT : IMGLAB_JPEG_LIBRARY_ERROR;
    }
    while (*rows_read < max_rows && cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + (size_t)(*rows_read) * stride;
        /* Neither source suspends, so 0 rows means libjpeg cannot go on. */
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            snprintf(decoder->err.message, sizeof decoder->err.message,
                     "libjpeg returned no row at scanline %u", cinfo->output_scanline);
            return IMGLAB_JPEG_LIBRARY_ERROR;
        }
        *rows_read += 1;
    }
    return IMGLAB_JPEG_OK;
}

void imglab_jpeg_decoder_destroy(imglab_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

imglab_jpeg_status imglab_jpeg_read_header(imglab_jpeg_decoder *decoder, imglab_jpeg_info *info) {
    if (decoder == NULL || info == NULL) return IMGLAB_JPEG_RESOURCE_ERROR;
    memset(info, 0, sizeof *info);
    if (setjmp(decoder->err.jump)) {
        record_offset(decoder);
        return decoder->scan_limit_hit ? IMGLAB_JPEG_SCAN_LIMIT : IMGLAB_JPEG_LIBRARY_ERROR;
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_read_header(cinfo, TRUE);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->num_components = cinfo->num_components;
    info->jpeg_color_space = cinfo->jpeg_color_space;
    info->data_precision = cinfo->data_precision;
    info->progressive = cinfo->progressive_mode;
    info->arithmetic = cinfo->arith_code;
    info->has_multiple_scans = jpeg_has_multiple_scans(cinfo);
    info->saw_jfif = cinfo->saw_JFIF_marker;
    info->saw_adobe = cinfo->saw_Adobe_marker;
    info->adobe_transform = cinfo->Adobe_transform;
    for (int i = 0; i < 4 && i < cinfo->num_components; i++) {
        info->h_samp[i] = cinfo->comp_info[i].h_samp_factor;
        info->v_samp[i] = cinfo->comp_info[i].v_samp_factor;
    }
    /* jdmarker.c stores DQT values in natural order. */
    int table = cinfo->num_components > 0 ? cinfo->comp_info[0].quant_tbl_no : -1;
    if (table >= 0 && table < NUM_QUANT_TBLS && cinfo->quant_tbl_ptrs[table] != NULL) {
        info->has_luma_quant = 1;
        for (int i = 0; i < 64; i++) info->luma_quant[i] = cinfo->quant_tbl_ptrs[table]->quantval[i];
    }
    return IMGLAB_JPEG_OK;
}

imglab_jpeg_status imglab_jpeg_start(imglab_jpeg_decoder *decoder, int32_t out_color_space, int32_t scale_denom,
                                     long max_memory, uint32_t *out_width, uint32_t *out_height,
                                     int32_t *out_components) {
    if (decoder == NULL || out_width == NULL || out_height == NULL || out_components == NULL) {
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    if (setjmp(decoder->err.jump)) {
        record_offset(decoder);
        return decoder->scan_limit_hit ? IMGLAB_JPEG_SCAN_LIMIT : IMGLAB_JPEG_LIBRARY_ERROR;
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    cinfo->out_color_space = (J_COLOR_SPACE)out_color_space;
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scale_denom;
    if (max_memory > 0) cinfo->mem->max_memory_to_use = max_memory;
    jpeg_start_decompress(cinfo);
    *out_width = cinfo->output_width;
    *out_height = cinfo->output_height;
    *out_components = cinfo->output_components;
    return IMGLAB_JPEG_OK;
}

imglab_jpeg_status imglab_jpeg_read_rows(imglab_jpeg_decoder *decoder, uint8_t *pixels, size_t stride,
                                         size_t capacity) {
    if (decoder == NULL || pixels == NULL) return IMGLAB_JPEG_RESOURCE_ERROR;
    j_decompress_ptr cinfo = &decoder->cinfo;
    size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    if (stride < row_bytes || cinfo->output_height == 0 || capacity / stride < cinfo->output_height) {
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    if (setjmp(decoder->err.jump)) {
        record_offset(decoder);
        return decoder->scan_limit_hit ? IMGLAB_JPEG_SCAN_LIMIT : IMGLAB_JPEG_LIBRARY_ERROR;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + (size_t)cinfo->output_scanline * stride;
        /* A memory source never suspends, so 0 rows means libjpeg cannot go on. */
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            snprintf(decoder->err.message, sizeof decoder->err.message,
                     "libjpeg returned no row at scanline %u", cinfo->output_scanline);
            return IMGLAB_JPEG_LIBRARY_ERROR;
        }
    }
    return IMGLAB_JPEG_OK;
}

imglab_jpeg_failure imglab_jpeg_error_kind(const imglab_jpeg_decoder *decoder) {
    if (decoder == NULL || decoder->err.message[0] == 0) return IMGLAB_JPEG_FAILURE_NONE;
    switch (decoder->err.error_code) {
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
        return IMGLAB_JPEG_FAILURE_MEMORY;
    case JERR_SOF_UNSUPPORTED:
    case JERR_BAD_PRECISION:
    case JERR_EMPTY_IMAGE:
    case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED:
        return IMGLAB_JPEG_FAILURE_UNSUPPORTED;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
        return IMGLAB_JPEG_FAILURE_TRUNCATED;
    default:
        return decoder->err.hit_end_of_data ? IMGLAB_JPEG_FAILURE_TRUNCATED : IMGLAB_JPEG_FAILURE_MALFORMED;
    }
}

const char *imglab_jpeg_error_message(const imglab_jpeg_decoder *decoder) {
    return decoder ? decoder->err.message : "";
}

size_t imglab_jpeg_error_offset(const imglab_jpeg_decoder *decoder) {
    return decoder ? decoder->error_offset : 0;
}

long imglab_jpeg_warning_count(const imglab_jpeg_decoder *decoder) {
    return decoder ? decoder->err.warnings : 0;
}

const char *imglab_jpeg_warnings(const imglab_jpeg_decoder *decoder) {
    return decoder ? decoder->err.warning_text : "";
}

int32_t imglab_jpeg_hit_end_of_data(const imglab_jpeg_decoder *decoder) {
    return decoder ? decoder->err.hit_end_of_data : 0;
}

/* Where the compressor writes: jpeg_mem_dest grows a malloc'd buffer that we own. */
typedef struct {
    struct jpeg_compress_struct cinfo;
    shim_error_mgr err;
    unsigned char *buffer;
    unsigned long size;
    int created;
} shim_encoder;

/* Frees everything an encode allocated; the output buffer too unless it was handed out. */
static void encoder_cleanup(shim_encoder *encoder, int keep_buffer) {
    if (encoder->created) jpeg_destroy_compress(&encoder->cinfo);
    if (!keep_buffer) free(encoder->buffer);
    free(encoder);
}

/* Whether `params` can be encoded with rows `stride` bytes apart; when not, the reason is in
 * `message` (IMGLAB_JPEG_MESSAGE_SIZE bytes). */
static int encode_params_valid(const imglab_jpeg_encode_params *params, size_t stride, char *message) {
    int n = params->components;
    if ((n != 1 && n != 3 && n != 4) || params->width == 0 || params->height == 0 ||
        stride < (size_t)params->width * (size_t)n || params->quality < 1 || params->quality > 100 ||
        params->luma_h < 1 || params->luma_h > 2 || params->luma_v < 1 || params->luma_v > 2) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "invalid encoder parameters");
        return 0;
    }
    /* One APP1 holds 65533 payload bytes; jpeg_write_icc_profile numbers at most 255 APP2
     * markers of 65519 bytes and does not check that itself. */
    if (params->exif_size > 65533 || params->icc_size > (size_t)255 * 65519) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "EXIF (%zu bytes, at most 65533) or ICC (%zu bytes, at most %d) too large",
                 params->exif_size, params->icc_size, 255 * 65519);
        return 0;
    }
    return 1;
}

/* Sets the parameters of `params` on a compressor whose destination is set, starts it and
 * writes the EXIF and ICC markers: the one setup of the whole-image and the row writer, so both
 * write the same bytes for the same rows. `optimize_coding`: Huffman tables fitted to the image
 * (which makes libjpeg keep every coefficient until jpeg_finish_compress) or the standard
 * tables (rows are compressed as they come; a progressive file still keeps every coefficient,
 * since its scans are made after the last row). Call inside the setjmp of the compressor's
 * error manager. */
static void compress_start(j_compress_ptr cinfo, const imglab_jpeg_encode_params *params, int optimize_coding) {
    int n = params->components;
    cinfo->image_width = params->width;
    cinfo->image_height = params->height;
    cinfo->input_components = n;
    cinfo->in_color_space = n == 1 ? JCS_GRAYSCALE : n == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(cinfo);
    /* CMYK is stored as CMYK (no YCCK transform); jpeg_set_colorspace then writes the Adobe
     * APP14 marker with transform 0, which tells readers the values are Adobe-inverted. */
    if (n == 4) jpeg_set_colorspace(cinfo, JCS_CMYK);
    jpeg_set_quality(cinfo, params->quality, TRUE);
    if (n == 3) {
        cinfo->comp_info[0].h_samp_factor = params->luma_h;
        cinfo->comp_info[0].v_samp_factor = params->luma_v;
        for (int c = 1; c < 3; c++) {
            cinfo->comp_info[c].h_samp_factor = 1;
            cinfo->comp_info[c].v_samp_factor = 1;
        }
    }
    cinfo->optimize_coding = optimize_coding ? TRUE : FALSE;
    if (params->progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    if (params->exif != NULL && params->exif_size > 0) {
        jpeg_write_marker(cinfo, JPEG_APP0 + 1, params->exif, (unsigned int)params->exif_size);
    }
    if (params->icc != NULL && params->icc_size > 0) {
        jpeg_write_icc_profile(cinfo, params->icc, (unsigned int)params->icc_size);
    }
}

imglab_jpeg_status imglab_jpeg_encode(const imglab_jpeg_encode_params *params, const uint8_t *pixels,
                                      size_t stride, uint8_t **output, unsigned long *output_size,
                                      char *message) {
    if (message) message[0] = 0;
    if (params == NULL || pixels == NULL || output == NULL || output_size == NULL || message == NULL) {
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    *output = NULL;
    *output_size = 0;
    if (!encode_params_valid(params, stride, message)) return IMGLAB_JPEG_RESOURCE_ERROR;
    shim_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "out of memory");
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    shim_install_errors(&encoder->err);
    encoder->cinfo.err = &encoder->err.pub;
    if (setjmp(encoder->err.jump)) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "%s", encoder->err.message);
        encoder_cleanup(encoder, 0);
        return IMGLAB_JPEG_LIBRARY_ERROR;
    }
    j_compress_ptr cinfo = &encoder->cinfo;
    jpeg_create_compress(cinfo);
    encoder->created = 1;
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->size);
    compress_start(cinfo, params, 1);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    *output = encoder->buffer;
    *output_size = encoder->size;
    encoder_cleanup(encoder, 1);
    return IMGLAB_JPEG_OK;
}

/* Bytes libjpeg fills before the row writer's destination moves them to its output. */
#define ROW_WRITER_BLOCK 65536

/* A compressor whose destination gathers libjpeg's output in a buffer the caller empties. */
struct imglab_jpeg_row_writer {
    struct jpeg_compress_struct cinfo;
    shim_error_mgr err;
    struct jpeg_destination_mgr destination;
    int created;
    uint8_t *out;
    size_t out_size, out_capacity;
    JOCTET block[ROW_WRITER_BLOCK];
};

/* Appends `count` bytes of the block to the output; a libjpeg error when memory runs out. */
static void row_writer_keep(imglab_jpeg_row_writer *writer, size_t count) {
    if (count > writer->out_capacity - writer->out_size) {
        size_t capacity = writer->out_capacity ? writer->out_capacity : ROW_WRITER_BLOCK;
        while (count > capacity - writer->out_size) {
            if (capacity > SIZE_MAX / 2) ERREXIT1(&writer->cinfo, JERR_OUT_OF_MEMORY, 0);
            capacity *= 2;
        }
        uint8_t *grown = realloc(writer->out, capacity);
        if (grown == NULL) ERREXIT1(&writer->cinfo, JERR_OUT_OF_MEMORY, 1);
        writer->out = grown;
        writer->out_capacity = capacity;
    }
    memcpy(writer->out + writer->out_size, writer->block, count);
    writer->out_size += count;
}

static void row_writer_init_destination(j_compress_ptr cinfo) {
    imglab_jpeg_row_writer *writer = (imglab_jpeg_row_writer *)cinfo->client_data;
    writer->destination.next_output_byte = writer->block;
    writer->destination.free_in_buffer = ROW_WRITER_BLOCK;
}

static boolean row_writer_empty_output_buffer(j_compress_ptr cinfo) {
    imglab_jpeg_row_writer *writer = (imglab_jpeg_row_writer *)cinfo->client_data;
    row_writer_keep(writer, ROW_WRITER_BLOCK);
    row_writer_init_destination(cinfo);
    return TRUE;
}

static void row_writer_term_destination(j_compress_ptr cinfo) {
    imglab_jpeg_row_writer *writer = (imglab_jpeg_row_writer *)cinfo->client_data;
    row_writer_keep(writer, ROW_WRITER_BLOCK - writer->destination.free_in_buffer);
    row_writer_init_destination(cinfo);
}

imglab_jpeg_row_writer *imglab_jpeg_row_writer_open(const imglab_jpeg_encode_params *params, int32_t optimize_coding,
                                                    char *message) {
    message[0] = 0;
    if (params == NULL || !encode_params_valid(params, (size_t)params->width * (size_t)params->components, message)) {
        if (params == NULL) snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "invalid encoder parameters");
        return NULL;
    }
    imglab_jpeg_row_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    shim_install_errors(&writer->err);
    writer->cinfo.err = &writer->err.pub;
    if (setjmp(writer->err.jump)) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "%s", writer->err.message);
        imglab_jpeg_row_writer_close(writer);
        return NULL;
    }
    jpeg_create_compress(&writer->cinfo);
    writer->created = 1;
    writer->cinfo.client_data = writer;
    writer->destination.init_destination = row_writer_init_destination;
    writer->destination.empty_output_buffer = row_writer_empty_output_buffer;
    writer->destination.term_destination = row_writer_term_destination;
    writer->cinfo.dest = &writer->destination;
    compress_start(&writer->cinfo, params, optimize_coding);
    return writer;
}

imglab_jpeg_status imglab_jpeg_row_writer_write_rows(imglab_jpeg_row_writer *writer, const uint8_t *pixels, size_t stride,
                                                     uint32_t count, char *message) {
    message[0] = 0;
    j_compress_ptr cinfo = &writer->cinfo;
    if (count > cinfo->image_height - cinfo->next_scanline ||
        (count > 0 && stride < (size_t)cinfo->image_width * (size_t)cinfo->input_components)) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "more rows than the image has, or rows shorter than its width");
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    if (setjmp(writer->err.jump)) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "%s", writer->err.message);
        return IMGLAB_JPEG_LIBRARY_ERROR;
    }
    for (uint32_t i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)i * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    return IMGLAB_JPEG_OK;
}

imglab_jpeg_status imglab_jpeg_row_writer_finish(imglab_jpeg_row_writer *writer, char *message) {
    message[0] = 0;
    if (writer->cinfo.next_scanline != writer->cinfo.image_height) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "%u of %u rows written", writer->cinfo.next_scanline,
                 writer->cinfo.image_height);
        return IMGLAB_JPEG_RESOURCE_ERROR;
    }
    if (setjmp(writer->err.jump)) {
        snprintf(message, IMGLAB_JPEG_MESSAGE_SIZE, "%s", writer->err.message);
        return IMGLAB_JPEG_LIBRARY_ERROR;
    }
    jpeg_finish_compress(&writer->cinfo);
    return IMGLAB_JPEG_OK;
}

const uint8_t *imglab_jpeg_row_writer_output(const imglab_jpeg_row_writer *writer, size_t *size) {
    *size = writer->out_size;
    return writer->out;
}

void imglab_jpeg_row_writer_clear_output(imglab_jpeg_row_writer *writer) { writer->out_size = 0; }

void imglab_jpeg_row_writer_close(imglab_jpeg_row_writer *writer) {
    if (writer == NULL) return;
    if (writer->created) jpeg_destroy_compress(&writer->cinfo);
    free(writer->out);
    free(writer);
}

void imglab_jpeg_free(uint8_t *buffer) { free(buffer); }
