#include "imglab_heif.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<libheif/heif.h>)
#define IMGLAB_HAS_HEIF_HEADERS 1
#include <libheif/heif.h>
#endif

static const char *const imglab_heif_package = "libheif1 (Debian: apt-get install libheif-dev)";

void imglab_heif_free(void *pointer) { free(pointer); }

#ifdef IMGLAB_HAS_HEIF_HEADERS

/* The functions imglab calls, resolved once. */
static struct {
    int loaded;
    char why[256];
    struct heif_error (*init)(struct heif_init_params *);
    int (*have_decoder)(enum heif_compression_format);
    int (*have_encoder)(enum heif_compression_format);
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    void (*set_maximum_size)(struct heif_context *, int);
    struct heif_error (*read_memory)(struct heif_context *, const void *, size_t, const struct heif_reading_options *);
    struct heif_error (*primary_handle)(struct heif_context *, struct heif_image_handle **);
    void (*handle_release)(const struct heif_image_handle *);
    struct heif_decoding_options *(*decoding_options_alloc)(void);
    void (*decoding_options_free)(struct heif_decoding_options *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                enum heif_chroma, const struct heif_decoding_options *);
    int (*image_width)(const struct heif_image *, enum heif_channel);
    int (*image_height)(const struct heif_image *, enum heif_channel);
    const uint8_t *(*plane_readonly)(const struct heif_image *, enum heif_channel, int *);
    uint8_t *(*plane)(struct heif_image *, enum heif_channel, int *);
    int (*image_premultiplied)(struct heif_image *);
    void (*image_release)(const struct heif_image *);
    int (*aux_count)(const struct heif_image_handle *, int);
    int (*aux_ids)(const struct heif_image_handle *, int, heif_item_id *, int);
    struct heif_error (*aux_handle)(const struct heif_image_handle *, heif_item_id, struct heif_image_handle **);
    struct heif_error (*image_create)(int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **);
    struct heif_error (*add_plane)(struct heif_image *, enum heif_channel, int, int, int);
    void (*set_premultiplied)(struct heif_image *, int);
    struct heif_error (*set_icc)(struct heif_image *, const char *, const void *, size_t);
    struct heif_error (*set_nclx)(struct heif_image *, const struct heif_color_profile_nclx *);
    struct heif_color_profile_nclx *(*nclx_alloc)(void);
    void (*nclx_free)(struct heif_color_profile_nclx *);
    struct heif_error (*encoder_for_format)(struct heif_context *, enum heif_compression_format, struct heif_encoder **);
    void (*encoder_release)(struct heif_encoder *);
    struct heif_error (*set_lossless)(struct heif_encoder *, int);
    struct heif_error (*set_quality)(struct heif_encoder *, int);
    struct heif_error (*set_parameter)(struct heif_encoder *, const char *, const char *);
    struct heif_encoding_options *(*encoding_options_alloc)(void);
    void (*encoding_options_free)(struct heif_encoding_options *);
    struct heif_error (*encode)(struct heif_context *, const struct heif_image *, struct heif_encoder *,
                                const struct heif_encoding_options *, struct heif_image_handle **);
    struct heif_error (*add_exif)(struct heif_context *, const struct heif_image_handle *, const void *, int);
    struct heif_error (*write)(struct heif_context *, struct heif_writer *, void *);
} imglab_heif;

static pthread_once_t imglab_heif_once = PTHREAD_ONCE_INIT;

static void imglab_heif_load(void) {
    /* IMGLAB_LIBHEIF names the library's file where it is not on the loader's path (and lets a
     * test play a machine without it). */
    const char *name = getenv("IMGLAB_LIBHEIF") ? getenv("IMGLAB_LIBHEIF") : "libheif.so.1";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(imglab_heif.why, sizeof imglab_heif.why, "%s is not installed: install %s", name, imglab_heif_package);
        return;
    }
    int missing = 0;
#define LOAD(field, symbol)                                                                                      \
    do {                                                                                                         \
        *(void **)&imglab_heif.field = dlsym(library, symbol);                                                   \
        if (!imglab_heif.field && !missing) {                                                                    \
            missing = 1;                                                                                         \
            snprintf(imglab_heif.why, sizeof imglab_heif.why, "the installed libheif has no %s: install %s",     \
                     symbol, imglab_heif_package);                                                               \
        }                                                                                                        \
    } while (0)
    LOAD(init, "heif_init");
    LOAD(have_decoder, "heif_have_decoder_for_format");
    LOAD(have_encoder, "heif_have_encoder_for_format");
    LOAD(context_alloc, "heif_context_alloc");
    LOAD(context_free, "heif_context_free");
    LOAD(set_maximum_size, "heif_context_set_maximum_image_size_limit");
    LOAD(read_memory, "heif_context_read_from_memory_without_copy");
    LOAD(primary_handle, "heif_context_get_primary_image_handle");
    LOAD(handle_release, "heif_image_handle_release");
    LOAD(decoding_options_alloc, "heif_decoding_options_alloc");
    LOAD(decoding_options_free, "heif_decoding_options_free");
    LOAD(decode, "heif_decode_image");
    LOAD(image_width, "heif_image_get_width");
    LOAD(image_height, "heif_image_get_height");
    LOAD(plane_readonly, "heif_image_get_plane_readonly");
    LOAD(plane, "heif_image_get_plane");
    LOAD(image_premultiplied, "heif_image_is_premultiplied_alpha");
    LOAD(image_release, "heif_image_release");
    LOAD(aux_count, "heif_image_handle_get_number_of_auxiliary_images");
    LOAD(aux_ids, "heif_image_handle_get_list_of_auxiliary_image_IDs");
    LOAD(aux_handle, "heif_image_handle_get_auxiliary_image_handle");
    LOAD(image_create, "heif_image_create");
    LOAD(add_plane, "heif_image_add_plane");
    LOAD(set_premultiplied, "heif_image_set_premultiplied_alpha");
    LOAD(set_icc, "heif_image_set_raw_color_profile");
    LOAD(set_nclx, "heif_image_set_nclx_color_profile");
    LOAD(nclx_alloc, "heif_nclx_color_profile_alloc");
    LOAD(nclx_free, "heif_nclx_color_profile_free");
    LOAD(encoder_for_format, "heif_context_get_encoder_for_format");
    LOAD(encoder_release, "heif_encoder_release");
    LOAD(set_lossless, "heif_encoder_set_lossless");
    LOAD(set_quality, "heif_encoder_set_lossy_quality");
    LOAD(set_parameter, "heif_encoder_set_parameter_string");
    LOAD(encoding_options_alloc, "heif_encoding_options_alloc");
    LOAD(encoding_options_free, "heif_encoding_options_free");
    LOAD(encode, "heif_context_encode_image");
    LOAD(add_exif, "heif_context_add_exif_metadata");
    LOAD(write, "heif_context_write");
#undef LOAD
    if (missing) return;
    struct heif_error error = imglab_heif.init(NULL);
    if (error.code != heif_error_Ok) {
        snprintf(imglab_heif.why, sizeof imglab_heif.why, "libheif did not start: %s", error.message);
        return;
    }
    imglab_heif.loaded = 1;
}

int imglab_heif_available(char *why, size_t why_size) {
    pthread_once(&imglab_heif_once, imglab_heif_load);
    if (!imglab_heif.loaded && why && why_size > 0) snprintf(why, why_size, "%s", imglab_heif.why);
    return imglab_heif.loaded;
}

int imglab_heif_has_codec(int av1, int encoder) {
    if (!imglab_heif_available(NULL, 0)) return 0;
    enum heif_compression_format format = av1 ? heif_compression_AV1 : heif_compression_HEVC;
    return encoder ? imglab_heif.have_encoder(format) : imglab_heif.have_decoder(format);
}

static int imglab_heif_failed(struct heif_error error, const char *what, char *why, size_t why_size) {
    if (error.code == heif_error_Ok) return 0;
    if (why && why_size > 0) snprintf(why, why_size, "%s: %s", what, error.message ? error.message : "unknown error");
    return 1;
}

struct imglab_heif_picture {
    struct heif_image *image;
    enum heif_channel channel; /* the interleaved RGB(A) plane, or a monochrome picture's Y plane */
    struct heif_image *alpha;  /* the alpha image's Y plane, decoded on its own (NULL when within `image`) */
};

imglab_heif_picture *imglab_heif_decode(const uint8_t *data, size_t size, int max_dimension, int alpha,
                                        int high_bit_depth, int monochrome, int transformed, char *why, size_t why_size) {
    if (!imglab_heif_available(why, why_size)) return NULL;
    struct heif_context *context = imglab_heif.context_alloc();
    if (!context) {
        snprintf(why, why_size, "libheif could not allocate a context");
        return NULL;
    }
    imglab_heif.set_maximum_size(context, max_dimension);
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = NULL;
    if (imglab_heif_failed(imglab_heif.read_memory(context, data, size, NULL), "reading the file", why, why_size)) goto done;
    if (imglab_heif_failed(imglab_heif.primary_handle(context, &handle), "the primary image", why, why_size)) goto done;
    options = imglab_heif.decoding_options_alloc();
    if (!options) goto done;
    options->ignore_transformations = transformed ? 0 : 1;
    if (options->version >= 2) options->convert_hdr_to_8bit = 0;
    enum heif_chroma chroma = high_bit_depth ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                             : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    enum heif_colorspace colorspace = heif_colorspace_RGB;
    if (monochrome) {
        colorspace = heif_colorspace_monochrome;
        chroma = heif_chroma_monochrome;
    }
    if (imglab_heif_failed(imglab_heif.decode(handle, &image, colorspace, chroma, options), "decoding", why,
                           why_size)) {
        image = NULL;
    }
done:
    if (options) imglab_heif.decoding_options_free(options);
    if (handle) imglab_heif.handle_release(handle);
    imglab_heif.context_free(context);
    if (!image) return NULL;
    imglab_heif_picture *picture = calloc(1, sizeof *picture);
    if (!picture) {
        imglab_heif.image_release(image);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    picture->image = image;
    picture->channel = monochrome ? heif_channel_Y : heif_channel_interleaved;
    return picture;
}

imglab_heif_picture *imglab_heif_decode_separate_alpha(const uint8_t *data, size_t size, int max_dimension,
                                                       int high_bit_depth, uint32_t alpha_item, char *why,
                                                       size_t why_size) {
    imglab_heif_picture *picture = imglab_heif_decode(data, size, max_dimension, 0, high_bit_depth, 0, 0, why, why_size);
    if (!picture) return NULL;
    struct heif_context *context = imglab_heif.context_alloc();
    struct heif_image_handle *handle = NULL, *alpha = NULL;
    struct heif_decoding_options *options = NULL;
    int found = 0;
    if (!context) {
        snprintf(why, why_size, "libheif could not allocate a context");
        goto done;
    }
    imglab_heif.set_maximum_size(context, max_dimension);
    if (imglab_heif_failed(imglab_heif.read_memory(context, data, size, NULL), "reading the file", why, why_size)) goto done;
    if (imglab_heif_failed(imglab_heif.primary_handle(context, &handle), "the primary image", why, why_size)) goto done;
    heif_item_id ids[64];
    int count = imglab_heif.aux_ids(handle, 0, ids, 64);
    for (int i = 0; i < count && !found; i++) {
        if (ids[i] != alpha_item) continue;
        found = 1;
        if (imglab_heif_failed(imglab_heif.aux_handle(handle, ids[i], &alpha), "the alpha image", why, why_size)) goto done;
    }
    if (!found) {
        snprintf(why, why_size, "libheif lists no auxiliary image %u", alpha_item);
        goto done;
    }
    options = imglab_heif.decoding_options_alloc();
    if (!options) goto done;
    options->ignore_transformations = 1;
    if (options->version >= 2) options->convert_hdr_to_8bit = 0;
    /* Its luma plane: asked as monochrome, or (a grid of HEVC alpha tiles, which libheif 1.15 cannot convert
     * to monochrome) as YCbCr 4:2:0, whose Y plane is the same samples. */
    if (imglab_heif.decode(alpha, &picture->alpha, heif_colorspace_monochrome, heif_chroma_monochrome, options).code
        != heif_error_Ok) {
        picture->alpha = NULL;
        if (imglab_heif_failed(imglab_heif.decode(alpha, &picture->alpha, heif_colorspace_YCbCr, heif_chroma_420, options),
                               "decoding the alpha image", why, why_size)) {
            picture->alpha = NULL;
        }
    }
done:
    if (options) imglab_heif.decoding_options_free(options);
    if (alpha) imglab_heif.handle_release(alpha);
    if (handle) imglab_heif.handle_release(handle);
    if (context) imglab_heif.context_free(context);
    if (!picture->alpha) {
        imglab_heif_picture_free(picture);
        return NULL;
    }
    return picture;
}

int imglab_heif_picture_alpha_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                     const uint8_t **samples) {
    if (!picture->alpha) return 0;
    *width = imglab_heif.image_width(picture->alpha, heif_channel_Y);
    *height = imglab_heif.image_height(picture->alpha, heif_channel_Y);
    *samples = imglab_heif.plane_readonly(picture->alpha, heif_channel_Y, stride);
    return 1;
}

void imglab_heif_picture_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                const uint8_t **samples) {
    *width = imglab_heif.image_width(picture->image, picture->channel);
    *height = imglab_heif.image_height(picture->image, picture->channel);
    *samples = imglab_heif.plane_readonly(picture->image, picture->channel, stride);
}

int imglab_heif_picture_premultiplied(const imglab_heif_picture *picture) {
    return imglab_heif.image_premultiplied(picture->image);
}

void imglab_heif_picture_free(imglab_heif_picture *picture) {
    if (!picture) return;
    imglab_heif.image_release(picture->image);
    if (picture->alpha) imglab_heif.image_release(picture->alpha);
    free(picture);
}

/* heif_context_write's sink: the file's bytes appended to a growing buffer. */
struct imglab_heif_output {
    uint8_t *bytes;
    size_t size;
    int failed;
};

static struct heif_error imglab_heif_append(struct heif_context *context, const void *data, size_t size, void *user) {
    (void)context;
    struct imglab_heif_output *output = user;
    uint8_t *grown = realloc(output->bytes, output->size + size);
    if (!grown) {
        output->failed = 1;
        struct heif_error error = { heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory" };
        return error;
    }
    memcpy(grown + output->size, data, size);
    output->bytes = grown;
    output->size += size;
    struct heif_error ok = { heif_error_Ok, heif_suberror_Unspecified, "" };
    return ok;
}

size_t imglab_heif_encode(const uint8_t *pixels, int width, int height, int stride, int channels,
                          imglab_heif_encoding encoding, const uint8_t *exif, size_t exif_size,
                          const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size) {
    *output = NULL;
    if (!imglab_heif_available(why, why_size)) return 0;
    int high = encoding.bits > 8;
    enum heif_chroma chroma = high ? (channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                   : (channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    struct heif_context *context = imglab_heif.context_alloc();
    struct heif_image *image = NULL;
    struct heif_encoder *encoder = NULL;
    struct heif_encoding_options *options = NULL;
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_image_handle *handle = NULL;
    struct imglab_heif_output written = { NULL, 0, 0 };
    if (!context) {
        snprintf(why, why_size, "libheif could not allocate a context");
        return 0;
    }
    if (imglab_heif_failed(imglab_heif.image_create(width, height, heif_colorspace_RGB, chroma, &image), "the image",
                           why, why_size)) goto done;
    if (imglab_heif_failed(imglab_heif.add_plane(image, heif_channel_interleaved, width, height, encoding.bits),
                           "the image's plane", why, why_size)) goto done;
    int plane_stride = 0;
    uint8_t *plane = imglab_heif.plane(image, heif_channel_interleaved, &plane_stride);
    size_t row_bytes = (size_t)width * (size_t)channels * (high ? 2 : 1);
    for (int y = 0; y < height; y++) memcpy(plane + (size_t)y * plane_stride, pixels + (size_t)y * stride, row_bytes);
    if (channels == 4 && encoding.premultiplied) imglab_heif.set_premultiplied(image, 1);
    if (icc && icc_size > 0 &&
        imglab_heif_failed(imglab_heif.set_icc(image, "prof", icc, icc_size), "the ICC profile", why, why_size)) goto done;
    enum heif_compression_format format = encoding.av1 ? heif_compression_AV1 : heif_compression_HEVC;
    if (imglab_heif_failed(imglab_heif.encoder_for_format(context, format, &encoder), "the encoder", why, why_size)) {
        encoder = NULL;
        goto done;
    }
    options = imglab_heif.encoding_options_alloc();
    nclx = imglab_heif.nclx_alloc();
    if (!options || !nclx) goto done;
    /* sRGB primaries and transfer, full range; lossless needs the identity matrix (the samples
     * coded as G, B, R) and no chroma subsampling, else the RGB→YCbCr rounding loses codes. */
    nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
    nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
    nclx->matrix_coefficients = encoding.lossless ? heif_matrix_coefficients_RGB_GBR : heif_matrix_coefficients_ITU_R_BT_601_6;
    nclx->full_range_flag = 1;
    if (imglab_heif_failed(imglab_heif.set_nclx(image, nclx), "the colour description", why, why_size)) goto done;
    if (encoding.lossless) {
        if (imglab_heif_failed(imglab_heif.set_lossless(encoder, 1), "lossless coding", why, why_size)) goto done;
        if (imglab_heif_failed(imglab_heif.set_parameter(encoder, "chroma", "444"), "4:4:4 chroma", why, why_size)) goto done;
    } else {
        const char *chroma = encoding.lossy_chroma == 444 ? "444" : encoding.lossy_chroma == 422 ? "422" : "420";
        if (imglab_heif_failed(imglab_heif.set_quality(encoder, encoding.quality), "the quality", why, why_size)) goto done;
        if (imglab_heif_failed(imglab_heif.set_parameter(encoder, "chroma", chroma), "the chroma", why, why_size)) goto done;
    }
    if (options->version >= 4) options->output_nclx_profile = nclx;
    if (imglab_heif_failed(imglab_heif.encode(context, image, encoder, options, &handle), "encoding", why, why_size)) {
        handle = NULL;
        goto done;
    }
    if (exif && exif_size > 0 &&
        imglab_heif_failed(imglab_heif.add_exif(context, handle, exif, (int)exif_size), "the EXIF block", why, why_size)) goto done;
    struct heif_writer writer = { 1, imglab_heif_append };
    if (imglab_heif_failed(imglab_heif.write(context, &writer, &written), "writing", why, why_size) || written.failed) {
        free(written.bytes);
        written.bytes = NULL;
        written.size = 0;
    }
done:
    if (handle) imglab_heif.handle_release(handle);
    if (nclx) imglab_heif.nclx_free(nclx);
    if (options) imglab_heif.encoding_options_free(options);
    if (encoder) imglab_heif.encoder_release(encoder);
    if (image) imglab_heif.image_release(image);
    imglab_heif.context_free(context);
    *output = written.bytes;
    return written.size;
}

#else

int imglab_heif_available(char *why, size_t why_size) {
    if (why && why_size > 0) snprintf(why, why_size, "imglab was built without the libheif header: install %s and build again",
                                      imglab_heif_package);
    return 0;
}
int imglab_heif_has_codec(int av1, int encoder) {
    (void)av1; (void)encoder;
    return 0;
}
imglab_heif_picture *imglab_heif_decode(const uint8_t *data, size_t size, int max_dimension, int alpha,
                                        int high_bit_depth, int monochrome, int transformed, char *why, size_t why_size) {
    (void)data; (void)size; (void)max_dimension; (void)alpha; (void)high_bit_depth; (void)monochrome; (void)transformed;
    imglab_heif_available(why, why_size);
    return NULL;
}
imglab_heif_picture *imglab_heif_decode_separate_alpha(const uint8_t *data, size_t size, int max_dimension,
                                                       int high_bit_depth, uint32_t alpha_item, char *why,
                                                       size_t why_size) {
    (void)data; (void)size; (void)max_dimension; (void)high_bit_depth; (void)alpha_item;
    imglab_heif_available(why, why_size);
    return NULL;
}
int imglab_heif_picture_alpha_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                     const uint8_t **samples) {
    (void)picture; (void)width; (void)height; (void)stride; (void)samples;
    return 0;
}
void imglab_heif_picture_layout(const imglab_heif_picture *picture, int *width, int *height, int *stride,
                                const uint8_t **samples) {
    (void)picture;
    *width = 0; *height = 0; *stride = 0; *samples = NULL;
}
int imglab_heif_picture_premultiplied(const imglab_heif_picture *picture) { (void)picture; return 0; }
void imglab_heif_picture_free(imglab_heif_picture *picture) { (void)picture; }
size_t imglab_heif_encode(const uint8_t *pixels, int width, int height, int stride, int channels,
                          imglab_heif_encoding encoding, const uint8_t *exif, size_t exif_size,
                          const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size) {
    (void)pixels; (void)width; (void)height; (void)stride; (void)channels; (void)encoding;
    (void)exif; (void)exif_size; (void)icc; (void)icc_size;
    *output = NULL;
    imglab_heif_available(why, why_size);
    return 0;
}

#endif
