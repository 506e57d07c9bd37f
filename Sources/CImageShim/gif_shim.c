#include "imglab_gif.h"
#include <stdlib.h>
#include <string.h>

/* giflib InputFunc: copies up to `length` bytes; a short count makes giflib report
 * D_GIF_ERR_READ_FAILED, which is how a truncated file surfaces. */
static int imglab_gif_read(GifFileType *gif, GifByteType *buffer, int length) {
    imglab_gif_source *source = (imglab_gif_source *)gif->UserData;
    if (source == NULL || length <= 0 || source->position >= source->count) return 0;
    size_t available = source->count - source->position;
    size_t n = (size_t)length < available ? (size_t)length : available;
    memcpy(buffer, source->bytes + source->position, n);
    source->position += n;
    return (int)n;
}

/* giflib OutputFunc: appends, doubling the buffer; returns a short count on failure. */
static int imglab_gif_write(GifFileType *gif, const GifByteType *buffer, int length) {
    imglab_gif_sink *sink = (imglab_gif_sink *)gif->UserData;
    if (sink == NULL || length < 0 || sink->failed) return 0;
    size_t needed = sink->count + (size_t)length;
    if (needed > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < needed) capacity *= 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (grown == NULL) { sink->failed = 1; return 0; }
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->count, buffer, (size_t)length);
    sink->count = needed;
    return length;
}

GifFileType *imglab_gif_open_source(imglab_gif_source *source, int *error) {
    return DGifOpen(source, imglab_gif_read, error);
}

GifFileType *imglab_gif_open_sink(imglab_gif_sink *sink, int *error) {
    return EGifOpen(sink, imglab_gif_write, error);
}

void imglab_gif_sink_release(imglab_gif_sink *sink) {
    if (sink == NULL) return;
    free(sink->bytes);
    sink->bytes = NULL;
    sink->count = 0;
    sink->capacity = 0;
}
