#ifndef IMGLAB_GIF_H
#define IMGLAB_GIF_H
/* Memory input and output for giflib. giflib reports every error through return codes
 * (GIF_ERROR plus GifFileType.Error), so nothing here needs setjmp: the shim only gives
 * DGifOpen/EGifOpen a byte buffer to read from or write to. Swift owns the source and sink
 * structs; the sink's buffer is released with imglab_gif_sink_release. */
#include <gif_lib.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes giflib reads from; `position` is the next byte (the offset reported in errors). */
typedef struct imglab_gif_source {
    const uint8_t *bytes;
    size_t count;
    size_t position;
} imglab_gif_source;

/* Bytes giflib wrote; `failed` is set when the buffer could not grow. */
typedef struct imglab_gif_sink {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed;
} imglab_gif_sink;

/* DGifOpen reading from `source` (which must outlive the returned file). NULL on failure,
 * with the giflib error code in *error. */
GifFileType *imglab_gif_open_source(imglab_gif_source *source, int *error);

/* EGifOpen writing into `sink` (zero-initialised by the caller). NULL on failure. */
GifFileType *imglab_gif_open_sink(imglab_gif_sink *sink, int *error);

/* Frees the sink's buffer and zeroes it. */
void imglab_gif_sink_release(imglab_gif_sink *sink);

#endif
