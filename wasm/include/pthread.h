/* The WASM build's pthread.h: wasm32-wasi (Debian's wasi-libc) has no threads. pthread_create always
 * fails, so the library's two-thread Arrow fill runs both halves on the caller's thread, as it does
 * whenever a thread cannot start (c/src/datos/arrow.c). The command line, which would exit on that
 * failure, is not exported by the WASM build (tools/gen/wasm.py). Only what the C sources use. */
#ifndef DATOTECA_WASM_PTHREAD_H
#define DATOTECA_WASM_PTHREAD_H
#include <errno.h>
typedef int pthread_t;
typedef int pthread_attr_t;
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
    (void)t, (void)a, (void)f, (void)arg;
    return EAGAIN;
}
static inline int pthread_join(pthread_t t, void **r) {
    (void)t, (void)r;
    return EINVAL;
}
#endif
