#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "imglab_files.h"

int imglab_exchange_paths(const char *a, const char *b) {
#ifdef RENAME_EXCHANGE
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

void imglab_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

int imglab_address_sanitizer(void) {
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#else
    return 0;
#endif
#else
    return 0;
#endif
}
