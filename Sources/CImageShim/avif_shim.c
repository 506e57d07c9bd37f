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

int imglab_avif_next_frame(imglab_avif_sequence *sequence, int alpha, uint8_t *pixels, size_t row_bytes, char *why,
                           size_t why_size) {
    avifDecoder *decoder = sequence->decoder;
    avifResult result = imglab_avif.next_image(decoder);
    if (result != AVIF_RESULT_OK) {
        imglab_avif_failed(result, "decoding a frame", why, why_size);
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

int imglab_avif_next_frame(imglab_avif_sequence *sequence, int alpha, uint8_t *pixels, size_t row_bytes, char *why,
                           size_t why_size) {
    (void)sequence, (void)alpha, (void)pixels, (void)row_bytes;
    imglab_avif_available(why, why_size);
    return 0;
}

void imglab_avif_close(imglab_avif_sequence *sequence) { (void)sequence; }

#endif
