/* Independent instances used concurrently from several threads produce exactly the values
 * they produce alone: the library has no global mutable state. (One instance shared by
 * threads needs the caller's lock; that is documented, not tested.) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "check.h"
#include "datoteca.h"

enum { THREADS = 8, VALUES = 2000 };
static char alone[THREADS][64];
static char together[THREADS][64];

/* A digest of VALUES persona and empresa records (FNV-1a over their text). */
static void run(int k, char *out) {
    dt_gen *g;
    dt_new(1000u + (unsigned)k, &g);
    char buf[DT_MAX_TEXT];
    size_t persona, empresa, len;
    dt_call_find("persona.persona", 15, &persona);
    dt_call_find("empresa.empresa", 15, &empresa);
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < VALUES; i++) {
        dt_call(g, i % 2 ? persona : empresa, NULL, 0, buf, sizeof buf, &len);
        for (size_t j = 0; j < len; j++) h = (h ^ (unsigned char)buf[j]) * 1099511628211ULL;
    }
    dt_free(g);
    snprintf(out, 64, "%016llx", h);
}

static void *worker(void *arg) {
    int k = (int)(long)arg;
    run(k, together[k]);
    return NULL;
}

int main(void) {
    for (int k = 0; k < THREADS; k++) run(k, alone[k]);
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++) CHECK(pthread_create(&t[k], NULL, worker, (void *)(long)k) == 0, "pthread_create %d", k);
    for (int k = 0; k < THREADS; k++) pthread_join(t[k], NULL);
    for (int k = 0; k < THREADS; k++)
        CHECK(strcmp(alone[k], together[k]) == 0, "seed %d: alone %s, in a thread %s", 1000 + k, alone[k], together[k]);
    return dt_test_done("test_hilos");
}
