#include "imglab_avif.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<avif/avif.h>)
#define IMGLAB_HAS_AVIF_HEADERS 1
#include <avif/avif.h>
#endif

static const char *const imglab_avif_package = "libavif15 (Debian: apt-get install libavif-dev)";

void imglab_avif_free(void *pointer) { free(pointer); }

#ifdef IMGLAB_HAS_AVIF_HEADERS

/* The functions imglab calls, resolved once. */
static struct {
    int loaded;
    char why[256];
    avifDecoder *(*decoder_create)(void);
    void (*decoder_destroy)(avifDecoder *);
    avifResult (*set_io_memory)(avifDecoder *, const uint8_t *, size_t);
    avifResult (*parse)(avifDecoder *);
    avifResult (*next_image)(avifDecoder *);
    void (*rgb_defaults)(avifRGBImage *, const avifImage *);
    avifResult (*yuv_to_rgb)(const avifImage *, avifRGBImage *);
    const char *(*result_text)(avifResult);
    avifEncoder *(*encoder_create)(void);
    void (*encoder_destroy)(avifEncoder *);
    avifResult (*add_image)(avifEncoder *, const avifImage *, uint64_t, avifAddImageFlags);
    avifResult (*finish)(avifEncoder *, avifRWData *);
    avifImage *(*image_create)(uint32_t, uint32_t, uint32_t, avifPixelFormat);
    void (*image_destroy)(avifImage *);
    avifResult (*rgb_to_yuv)(avifImage *, const avifRGBImage *);
    void (*rw_free)(avifRWData *);
    void (*set_icc)(avifImage *, const uint8_t *, size_t);
    void (*set_exif)(avifImage *, const uint8_t *, size_t);
} imglab_avif;

static pthread_once_t imglab_avif_once = PTHREAD_ONCE_INIT;

static void imglab_avif_load(void) {
    const char *name = getenv("IMGLAB_LIBAVIF") ? getenv("IMGLAB_LIBAVIF") : "libavif.so.15";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(imglab_avif.why, sizeof imglab_avif.why, "%s is not installed: install %s", name, imglab_avif_package);
        return;
    }
    int missing = 0;
#define LOAD(field, symbol)                                                                                      \
    do {                                                                                                         \
        *(void **)&imglab_avif.field = dlsym(library, symbol);                                                   \
        if (!imglab_avif.field && !missing) {                                                                    \
            missing = 1;                                                                                         \
            snprintf(imglab_avif.why, sizeof imglab_avif.why, "the installed libavif has no %s: install %s",     \
                     symbol, imglab_avif_package);                                                               \
        }                                                                                                        \
    } while (0)
    LOAD(decoder_create, "avifDecoderCreate");
    LOAD(decoder_destroy, "avifDecoderDestroy");
    LOAD(set_io_memory, "avifDecoderSetIOMemory");
    LOAD(parse, "avifDecoderParse");
    LOAD(next_image, "avifDecoderNextImage");
    LOAD(rgb_defaults, "avifRGBImageSetDefaults");
    LOAD(yuv_to_rgb, "avifImageYUVToRGB");
    LOAD(result_text, "avifResultToString");
    LOAD(encoder_create, "avifEncoderCreate");
    LOAD(encoder_destroy, "avifEncoderDestroy");
    LOAD(add_image, "avifEncoderAddImage");
    LOAD(finish, "avifEncoderFinish");
    LOAD(image_create, "avifImageCreate");
    LOAD(image_destroy, "avifImageDestroy");
    LOAD(rgb_to_yuv, "avifImageRGBToYUV");
    LOAD(rw_free, "avifRWDataFree");
    LOAD(set_icc, "avifImageSetProfileICC");
    LOAD(set_exif, "avifImageSetMetadataExif");
#undef LOAD
    if (!missing) imglab_avif.loaded = 1;
}

int imglab_avif_available(char *why, size_t why_size) {
    pthread_once(&imglab_avif_once, imglab_avif_load);
    if (!imglab_avif.loaded && why && why_size > 0) snprintf(why, why_size, "%s", imglab_avif.why);
    return imglab_avif.loaded;
}

struct imglab_avif_sequence {
    avifDecoder *decoder;
};

static void imglab_avif_failed(avifResult result, const char *what, char *why, size_t why_size) {
    if (why && why_size > 0) snprintf(why, why_size, "%s: %s", what, imglab_avif.result_text(result));
}

imglab_avif_sequence *imglab_avif_open(const uint8_t *data, size_t size, uint32_t max_pixels, uint32_t max_dimension,
                                       char *why, size_t why_size) {
    if (!imglab_avif_available(why, why_size)) return NULL;
    avifDecoder *decoder = imglab_avif.decoder_create();
    if (!decoder) {
        snprintf(why, why_size, "libavif could not allocate a decoder");
        return NULL;
    }
    decoder->maxThreads = 1;
    decoder->imageSizeLimit = max_pixels;
    decoder->imageDimensionLimit = max_dimension;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    avifResult result = imglab_avif.set_io_memory(decoder, data, size);
    if (result == AVIF_RESULT_OK) result = imglab_avif.parse(decoder);
    if (result != AVIF_RESULT_OK) {
        imglab_avif_failed(result, "parsing the sequence", why, why_size);
        imglab_avif.decoder_destroy(decoder);
        return NULL;
    }
    imglab_avif_sequence *sequence = calloc(1, sizeof *sequence);
    if (!sequence) {
        imglab_avif.decoder_destroy(decoder);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    sequence->decoder = decoder;
    return sequence;
}

void imglab_avif_layout(const imglab_avif_sequence *sequence, int *width, int *height, int *depth, int *frames,
                        int *alpha, int *premultiplied) {
    const avifDecoder *decoder = sequence->decoder;
    *width = (int)decoder->image->width;
    *height = (int)decoder->image->height;
    *depth = (int)decoder->image->depth;
    *frames = decoder->imageCount;
    *alpha = decoder->alphaPresent ? 1 : 0;
    *premultiplied = decoder->image->alphaPremultiplied ? 1 : 0;
}

int imglab_avif_next_frame(imglab_avif_sequence *sequence, int width, int height, int depth, int alpha, uint8_t *pixels,
                           size_t row_bytes, char *why, size_t why_size) {
    avifDecoder *decoder = sequence->decoder;
    avifResult result = imglab_avif.next_image(decoder);
    if (result != AVIF_RESULT_OK) {
        imglab_avif_failed(result, "decoding a frame", why, why_size);
        return 0;
    }
    /* Each frame may state its own size and depth: it must be the layout imglab sized `pixels` for. */
    const avifImage *image = decoder->image;
    size_t needed = (size_t)image->width * (alpha ? 4 : 3) * (image->depth > 8 ? 2 : 1);
    if ((int)image->width != width || (int)image->height != height || (int)image->depth != depth || row_bytes < needed) {
        snprintf(why, why_size, "a frame is %ux%u at %u bits, the sequence %dx%d at %d", image->width, image->height,
                 image->depth, width, height, depth);
        return 0;
    }
    avifRGBImage rgb;
    imglab_avif.rgb_defaults(&rgb, decoder->image);
    rgb.format = alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    rgb.depth = decoder->image->depth > 8 ? decoder->image->depth : 8;
    rgb.alphaPremultiplied = decoder->image->alphaPremultiplied;
    rgb.pixels = pixels;
    rgb.rowBytes = (uint32_t)row_bytes;
    result = imglab_avif.yuv_to_rgb(decoder->image, &rgb);
    if (result != AVIF_RESULT_OK) {
        imglab_avif_failed(result, "converting a frame to RGB", why, why_size);
        return 0;
    }
    return 1;
}

void imglab_avif_close(imglab_avif_sequence *sequence) {
    if (!sequence) return;
    imglab_avif.decoder_destroy(sequence->decoder);
    free(sequence);
}


/* The pictures of a sequence (`durations_ms` given) or a still (`durations_ms` NULL, one picture, with its
 * chroma, EXIF and ICC), encoded by one encoder. */
static size_t imglab_avif_encode(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                 int premultiplied, int frames, const uint32_t *durations_ms, int quantizer, int chroma,
                                 const uint8_t *exif, size_t exif_size, const uint8_t *icc, size_t icc_size,
                                 uint8_t **output, char *why, size_t why_size) {
    *output = NULL;
    if (!imglab_avif_available(why, why_size)) return 0;
    avifEncoder *encoder = imglab_avif.encoder_create();
    if (!encoder) {
        snprintf(why, why_size, "libavif could not allocate an encoder");
        return 0;
    }
    encoder->maxThreads = 1;
    encoder->speed = 6;
    encoder->timescale = 1000;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    /* Lossless is 4:4:4 with the identity matrix whatever `chroma` says. */
    avifPixelFormat yuv = quantizer == 0 || chroma == 444 ? AVIF_PIXEL_FORMAT_YUV444
                        : chroma == 422 ? AVIF_PIXEL_FORMAT_YUV422 : AVIF_PIXEL_FORMAT_YUV420;
    size_t size = 0;
    avifResult result = AVIF_RESULT_OK;
    for (int k = 0; k < frames && result == AVIF_RESULT_OK; k++) {
        avifImage *image = imglab_avif.image_create((uint32_t)width, (uint32_t)height, (uint32_t)bits, yuv);
        if (!image) {
            snprintf(why, why_size, "libavif could not allocate a frame");
            imglab_avif.encoder_destroy(encoder);
            return 0;
        }
        image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
        image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
        image->matrixCoefficients = quantizer == 0 ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601;
        image->yuvRange = AVIF_RANGE_FULL;
        image->alphaPremultiplied = premultiplied ? AVIF_TRUE : AVIF_FALSE;
        if (exif_size > 0) {
            imglab_avif.set_exif(image, exif, exif_size);
            /* libavif turns the EXIF orientation into irot/imir; imglab states the transform itself. */
            image->transformFlags = AVIF_TRANSFORM_NONE;
        }
        if (icc_size > 0) imglab_avif.set_icc(image, icc, icc_size);
        avifRGBImage rgb;
        imglab_avif.rgb_defaults(&rgb, image);
        rgb.format = channels == 4 ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
        rgb.depth = (uint32_t)bits;
        rgb.alphaPremultiplied = image->alphaPremultiplied;
        rgb.pixels = (uint8_t *)pixels + (size_t)k * (size_t)height * (size_t)stride;
        rgb.rowBytes = (uint32_t)stride;
        result = imglab_avif.rgb_to_yuv(image, &rgb);
        if (result == AVIF_RESULT_OK) {
            result = durations_ms ? imglab_avif.add_image(encoder, image, durations_ms[k] ? durations_ms[k] : 1, AVIF_ADD_IMAGE_FLAG_NONE)
                                  : imglab_avif.add_image(encoder, image, 1, AVIF_ADD_IMAGE_FLAG_SINGLE);
        }
        imglab_avif.image_destroy(image);
    }
    avifRWData written = {NULL, 0};
    if (result == AVIF_RESULT_OK) result = imglab_avif.finish(encoder, &written);
    if (result != AVIF_RESULT_OK) {
        imglab_avif_failed(result, durations_ms ? "encoding the sequence" : "encoding the image", why, why_size);
    } else if ((*output = malloc(written.size))) {
        memcpy(*output, written.data, written.size);
        size = written.size;
    } else {
        snprintf(why, why_size, "out of memory");
    }
    imglab_avif.rw_free(&written);
    imglab_avif.encoder_destroy(encoder);
    return size;
}

size_t imglab_avif_encode_sequence(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                   int premultiplied, int frames, const uint32_t *durations_ms, int quantizer,
                                   uint8_t **output, char *why, size_t why_size) {
    if (!durations_ms) {
        snprintf(why, why_size, "no durations");
        *output = NULL;
        return 0;
    }
    return imglab_avif_encode(pixels, width, height, stride, channels, bits, premultiplied, frames, durations_ms,
                              quantizer, 444, NULL, 0, NULL, 0, output, why, why_size);
}

size_t imglab_avif_encode_still(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                int premultiplied, int quantizer, int chroma, const uint8_t *exif, size_t exif_size,
                                const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size) {
    return imglab_avif_encode(pixels, width, height, stride, channels, bits, premultiplied, 1, NULL, quantizer, chroma,
                              exif, exif_size, icc, icc_size, output, why, why_size);
}

#else

int imglab_avif_available(char *why, size_t why_size) {
    if (why && why_size > 0)
        snprintf(why, why_size, "imglab was built without libavif's header: install %s and build again", imglab_avif_package);
    return 0;
}

imglab_avif_sequence *imglab_avif_open(const uint8_t *data, size_t size, uint32_t max_pixels, uint32_t max_dimension,
                                       char *why, size_t why_size) {
    (void)data, (void)size, (void)max_pixels, (void)max_dimension;
    imglab_avif_available(why, why_size);
    return NULL;
}

void imglab_avif_layout(const imglab_avif_sequence *sequence, int *width, int *height, int *depth, int *frames,
                        int *alpha, int *premultiplied) {
    (void)sequence;
    *width = *height = *depth = *frames = *alpha = *premultiplied = 0;
}

int imglab_avif_next_frame(imglab_avif_sequence *sequence, int width, int height, int depth, int alpha, uint8_t *pixels,
                           size_t row_bytes, char *why, size_t why_size) {
    (void)sequence, (void)width, (void)height, (void)depth, (void)alpha, (void)pixels, (void)row_bytes;
    imglab_avif_available(why, why_size);
    return 0;
}

void imglab_avif_close(imglab_avif_sequence *sequence) { (void)sequence; }

size_t imglab_avif_encode_sequence(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                   int premultiplied, int frames, const uint32_t *durations_ms, int quantizer,
                                   uint8_t **output, char *why, size_t why_size) {
    (void)pixels, (void)width, (void)height, (void)stride, (void)channels, (void)bits, (void)premultiplied, (void)frames;
    (void)durations_ms, (void)quantizer;
    *output = NULL;
    imglab_avif_available(why, why_size);
    return 0;
}

size_t imglab_avif_encode_still(const uint8_t *pixels, int width, int height, int stride, int channels, int bits,
                                int premultiplied, int quantizer, int chroma, const uint8_t *exif, size_t exif_size,
                                const uint8_t *icc, size_t icc_size, uint8_t **output, char *why, size_t why_size) {
    (void)pixels, (void)width, (void)height, (void)stride, (void)channels, (void)bits, (void)premultiplied;
    (void)quantizer, (void)chroma, (void)exif, (void)exif_size, (void)icc, (void)icc_size;
    *output = NULL;
    imglab_avif_available(why, why_size);
    return 0;
}

#endif
