#ifndef IMGLAB_FILES_H
#define IMGLAB_FILES_H
/* The two libc calls Swift's Glibc module does not export: renameat2 with RENAME_EXCHANGE
 * (Linux 3.15+), which swaps two paths atomically, so a report folder is replaced by its new
 * generation without a moment in which the path is missing; and malloc_trim, with which the
 * fuzzer gives freed memory back between inputs so each input's peak is measured on its own;
 * and whether the build is under AddressSanitizer. */

/* Swaps the directory entries `a` and `b` atomically. Returns 0, or -1 with errno set
 * (EINVAL or ENOSYS where the file system or the kernel cannot exchange). */
int imglab_exchange_paths(const char *a, const char *b);

/* Returns freed heap memory to the system (glibc's malloc_trim(0); nothing elsewhere). */
void imglab_release_free_memory(void);

/* 1 when this code was compiled with AddressSanitizer (-fsanitize=address), else 0: ASan keeps
 * freed memory resident in its quarantine, which the fuzzer's per-input memory figure includes. */
int imglab_address_sanitizer(void);

#endif
