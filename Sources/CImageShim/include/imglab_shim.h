#ifndef IMGLAB_SHIM_H
#define IMGLAB_SHIM_H
/* The C side of imglab: every entry point catches the library's errors (setjmp/longjmp for
 * libpng and libjpeg, error handlers for libtiff, return codes for giflib) and returns a
 * status with a message, so no C error ever unwinds through a Swift frame. */
#include <stddef.h>
#include <stdint.h>

/* Size of the message buffer every entry point fills on failure. */
#define IMGLAB_MESSAGE_SIZE 256

#endif
