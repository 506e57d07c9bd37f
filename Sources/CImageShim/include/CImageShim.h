/* The umbrella header of the C shim: one line per codec. Listing the headers here (rather than
 * letting the build treat the folder as an umbrella) makes adding a header change this file,
 * so clang's module cache is rebuilt. */
#include "imglab_shim.h"
#include "imglab_png.h"
#include "imglab_deflate.h"
#include "imglab_jpeg.h"
#include "imglab_gif.h"
#include "imglab_tiff.h"
#include "imglab_files.h"
#include "imglab_cms.h"
#include "imglab_webp.h"
#include "imglab_heif.h"
#include "imglab_avif.h"
