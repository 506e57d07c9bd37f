#include "imglab_webp.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<webp/decode.h>) && __has_include(<webp/demux.h>) && __has_include(<webp/encode.h>)
#define IMGLAB_HAS_WEBP_HEADERS 1
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#endif

static const char *const imglab_webp_package = "libwebp7 and libwebpdemux2 (Debian: apt-get install libwebp-dev)";

#ifdef IMGLAB_HAS_WEBP_HEADERS

/* The functions imglab calls, resolved once. */
static struct {
    int loaded;
    char why[256];
    int (*decoder_config_init)(WebPDecoderConfig *, int);
    VP8StatusCode (*get_features)(const uint8_t *, size_t, WebPBitstreamFeatures *, int);
    VP8StatusCode (*decode)(const uint8_t *, size_t, WebPDecoderConfig *);
    int (*anim_options_init)(WebPAnimDecoderOptions *, int);
    WebPAnimDecoder *(*anim_new)(const WebPData *, const WebPAnimDecoderOptions *, int);
    int (*anim_info)(const WebPAnimDecoder *, WebPAnimInfo *);
    int (*anim_next)(WebPAnimDecoder *, uint8_t **, int *);
    void (*anim_delete)(WebPAnimDecoder *);
    size_t (*encode_rgba)(const uint8_t *, int, int, int, float, uint8_t **);
    size_t (*encode_rgb)(const uint8_t *, int, int, int, float, uint8_t **);
    int (*config_init)(WebPConfig *, WebPPreset, float, int);
    int (*picture_init)(WebPPicture *, int);
    int (*picture_import_rgba)(WebPPicture *, const uint8_t *, int);
    int (*picture_import_rgb)(WebPPicture *, const uint8_t *, int);
    int (*encode)(const WebPConfig *, WebPPicture *);
    void (*picture_free)(WebPPicture *);
    void (*memory_writer_init)(WebPMemoryWriter *);
    int (*memory_write)(const uint8_t *, size_t, const WebPPicture *);
    void (*free)(void *);
} imglab_webp;

static pthread_once_t imglab_webp_once = PTHREAD_ONCE_INIT;

static void *imglab_webp_symbol(void *library, const char *name, int *missing) {
    void *symbol = library ? dlsym(library, name) : NULL;
    if (!symbol && !*missing) {
        *missing = 1;
        snprintf(imglab_webp.why, sizeof imglab_webp.why, "the installed libwebp has no %s: install %s", name,
                 imglab_webp_package);
    }
    return symbol;
}

static void imglab_webp_load(void) {
    /* IMGLAB_LIBWEBP and IMGLAB_LIBWEBPDEMUX name the libraries' files where they are not on the
     * loader's path (and let a test play a machine without them). */
    const char *webp_name = getenv("IMGLAB_LIBWEBP") ? getenv("IMGLAB_LIBWEBP") : "libwebp.so.7";
    const char *demux_name = getenv("IMGLAB_LIBWEBPDEMUX") ? getenv("IMGLAB_LIBWEBPDEMUX") : "libwebpdemux.so.2";
    void *webp = dlopen(webp_name, RTLD_NOW | RTLD_LOCAL);
    void *demux = dlopen(demux_name, RTLD_NOW | RTLD_LOCAL);
    if (!webp || !demux) {
        snprintf(imglab_webp.why, sizeof imglab_webp.why, "%s is not installed: install %s",
                 webp ? demux_name : webp_name, imglab_webp_package);
        return;
    }
    int missing = 0;
#define LOAD(field, library, name) *(void **)&imglab_webp.field = imglab_webp_symbol(library, name, &missing)
    LOAD(decoder_config_init, webp, "WebPInitDecoderConfigInternal");
    LOAD(get_features, webp, "WebPGetFeaturesInternal");
    LOAD(decode, webp, "WebPDecode");
    LOAD(anim_options_init, demux, "WebPAnimDecoderOptionsInitInternal");
    LOAD(anim_new, demux, "WebPAnimDecoderNewInternal");
    LOAD(anim_info, demux, "WebPAnimDecoderGetInfo");
    LOAD(anim_next, demux, "WebPAnimDecoderGetNext");
    LOAD(anim_delete, demux, "WebPAnimDecoderDelete");
    LOAD(encode_rgba, webp, "WebPEncodeRGBA");
    LOAD(encode_rgb, webp, "WebPEncodeRGB");
    LOAD(config_init, webp, "WebPConfigInitInternal");
    LOAD(picture_init, webp, "WebPPictureInitInternal");
    LOAD(picture_import_rgba, webp, "WebPPictureImportRGBA");
    LOAD(picture_import_rgb, webp, "WebPPictureImportRGB");
    LOAD(encode, webp, "WebPEncode");
    LOAD(picture_free, webp, "WebPPictureFree");
    LOAD(memory_writer_init, webp, "WebPMemoryWriterInit");
    LOAD(memory_write, webp, "WebPMemoryWrite");
    LOAD(free, webp, "WebPFree");
#undef LOAD
    imglab_webp.loaded = !missing;
}

int imglab_webp_available(char *why, size_t why_size) {
    pthread_once(&imglab_webp_once, imglab_webp_load);
    if (!imglab_webp.loaded && why && why_size > 0) snprintf(why, why_size, "%s", imglab_webp.why);
    return imglab_webp.loaded;
}

int imglab_webp_decode_still(const uint8_t *data, size_t size, int rgba, int width, int height, uint8_t *out,
                             size_t out_size, int stride) {
    if (!imglab_webp_available(NULL, 0)) return -1;
    WebPDecoderConfig config;
    if (!imglab_webp.decoder_config_init(&config, WEBP_DECODER_ABI_VERSION)) return VP8_STATUS_INVALID_PARAM;
    VP8StatusCode status = imglab_webp.get_features(data, size, &config.input, WEBP_DECODER_ABI_VERSION);
    if (status != VP8_STATUS_OK) return status;
    if (width < 1 || height < 1) return VP8_STATUS_INVALID_PARAM;
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
    }
    config.output.colorspace = rgba ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = stride;
    config.output.u.RGBA.size = out_size;
    return imglab_webp.decode(data, size, &config);
}

struct imglab_webp_animation {
    WebPAnimDecoder *decoder;
};

imglab_webp_animation *imglab_webp_animation_open(const uint8_t *data, size_t size, int *width, int *height,
                                                  int *loop_count, int *frame_count) {
    if (!imglab_webp_available(NULL, 0)) return NULL;
    WebPAnimDecoderOptions options;
    if (!imglab_webp.anim_options_init(&options, WEBP_DEMUX_ABI_VERSION)) return NULL;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData bytes = { data, size };
    WebPAnimDecoder *decoder = imglab_webp.anim_new(&bytes, &options, WEBP_DEMUX_ABI_VERSION);
    if (!decoder) return NULL;
    WebPAnimInfo info;
    if (!imglab_webp.anim_info(decoder, &info)) {
        imglab_webp.anim_delete(decoder);
        return NULL;
    }
    imglab_webp_animation *animation = calloc(1, sizeof *animation);
    if (!animation) {
        imglab_webp.anim_delete(decoder);
        return NULL;
    }
    animation->decoder = decoder;
    *width = (int)info.canvas_width;
    *height = (int)info.canvas_height;
    *loop_count = (int)info.loop_count;
    *frame_count = (int)info.frame_count;
    return animation;
}

int imglab_webp_animation_next(imglab_webp_animation *animation, const uint8_t **canvas, int *timestamp_ms) {
    uint8_t *buffer = NULL;
    if (!animation || !imglab_webp.anim_next(animation->decoder, &buffer, timestamp_ms)) return 0;
    *canvas = buffer;
    return 1;
}

void imglab_webp_animation_close(imglab_webp_animation *animation) {
    if (!animation) return;
    imglab_webp.anim_delete(animation->decoder);
    free(animation);
}

size_t imglab_webp_encode(const uint8_t *pixels, int width, int height, int stride, int rgba, int lossless,
                          float quality, uint8_t **output) {
    *output = NULL;
    if (!imglab_webp_available(NULL, 0)) return 0;
    WebPConfig config;
    WebPPicture picture;
    if (!imglab_webp.config_init(&config, WEBP_PRESET_DEFAULT, quality, WEBP_ENCODER_ABI_VERSION)) return 0;
    if (!imglab_webp.picture_init(&picture, WEBP_ENCODER_ABI_VERSION)) return 0;
    config.lossless = lossless ? 1 : 0;
    /* Keep the colour under alpha 0 exactly (the encoder would otherwise flatten it), so a
     * lossless file decodes to the very samples it was given. */
    config.exact = 1;
    config.thread_level = 0;
    picture.use_argb = lossless ? 1 : 0;
    picture.width = width;
    picture.height = height;
    int imported = rgba ? imglab_webp.picture_import_rgba(&picture, pixels, stride)
                        : imglab_webp.picture_import_rgb(&picture, pixels, stride);
    if (!imported) {
        imglab_webp.picture_free(&picture);
        return 0;
    }
    WebPMemoryWriter writer;
    imglab_webp.memory_writer_init(&writer);
    picture.writer = imglab_webp.memory_write;
    picture.custom_ptr = &writer;
    int ok = imglab_webp.encode(&config, &picture);
    imglab_webp.picture_free(&picture);
    if (!ok) {
        imglab_webp.free(writer.mem);
        return 0;
    }
    *output = writer.mem;
    return writer.size;
}

void imglab_webp_free(void *pointer) {
    if (pointer && imglab_webp_available(NULL, 0)) imglab_webp.free(pointer);
}

#else

int imglab_webp_available(char *why, size_t why_size) {
    if (why && why_size > 0) snprintf(why, why_size, "imglab was built without WebP headers: install %s and build again",
                                      imglab_webp_package);
    return 0;
}
int imglab_webp_decode_still(const uint8_t *data, size_t size, int rgba, int width, int height, uint8_t *out,
                             size_t out_size, int stride) {
    (void)data; (void)size; (void)rgba; (void)width; (void)height; (void)out; (void)out_size; (void)stride;
    return -1;
}
imglab_webp_animation *imglab_webp_animation_open(const uint8_t *data, size_t size, int *width, int *height,
                                                  int *loop_count, int *frame_count) {
    (void)data; (void)size; (void)width; (void)height; (void)loop_count; (void)frame_count;
    return NULL;
}
int imglab_webp_animation_next(imglab_webp_animation *animation, const uint8_t **canvas, int *timestamp_ms) {
    (void)animation; (void)canvas; (void)timestamp_ms;
    return 0;
}
void imglab_webp_animation_close(imglab_webp_animation *animation) { (void)animation; }
size_t imglab_webp_encode(const uint8_t *pixels, int width, int height, int stride, int rgba, int lossless,
                          float quality, uint8_t **output) {
    (void)pixels; (void)width; (void)height; (void)stride; (void)rgba; (void)lossless; (void)quality;
    *output = NULL;
    return 0;
}
void imglab_webp_free(void *pointer) { (void)pointer; }

#endif
