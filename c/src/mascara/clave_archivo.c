/* The masking key from a key file (docs/enmascarar.md, "The key"): the one place where a runtime's
 * key file is opened, judged and read, so the CLI, Python, Node and the PostgreSQL extension refuse the
 * same files with the same sentences. Two rules hold every sentence here: it says "the key file
 * given", never the path (a key pasted where a path goes was printed back this way, issue 39), and it
 * never carries a byte of the file (only its length, its mode, or the system's reason). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fstat */
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "internal.h"
#include "mascara/prf.h"

#ifndef _WIN32
/* wasm32-wasi's libc may lack these (it has no terminals, and no exec to leak a descriptor to) */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#endif

static void dt__ca_por_que(char *why, size_t whycap, const char *frase) {
    if (why != NULL) dt__sentence_out(frase, why, whycap, NULL);
}

/* The system's reason in words of our own: strerror is not thread-safe, strerror_r has two
 * incompatible forms, and the few reasons an open or read of a file gives are known. */
static const char *dt__ca_razon(int e) {
    switch (e) {
    case ENOENT: return "no such file or directory";
    case EACCES: return "permission denied";
#ifdef ELOOP
    case ELOOP: return "too many levels of symbolic links";
#endif
    case ENOTDIR: return "a part of its path is not a directory";
    case ENAMETOOLONG: return "its path is too long";
    case EISDIR: return "it is a directory";
    case EMFILE:
    case ENFILE: return "too many open files";
    case EIO: return "an input/output error";
#ifdef EPERM
    case EPERM: return "operation not permitted";
#endif
#ifdef ENXIO
    case ENXIO: return "no such device or address";
#endif
#ifdef EAGAIN
    case EAGAIN: return "it would block (it is not a regular file)";
#endif
    case ENOMEM: return "out of memory";
    default: return NULL;
    }
}

static void dt__ca_sistema(char *why, size_t whycap, const char *que, int e) {
    char frase[DT_SENTENCE_MAX];
    const char *r = dt__ca_razon(e);
    if (r != NULL) snprintf(frase, sizeof frase, "clave: cannot %s the key file given: %s", que, r);
    else snprintf(frase, sizeof frase, "clave: cannot %s the key file given: system error %d", que, e);
    dt__ca_por_que(why, whycap, frase);
}

/* The file's text into buf, checked by building the key: into *out when out is not NULL (the caller
 * owns it), else built and freed at once. One parser, one set of sentences, one build. */
static dt_status dt__ca_texto(const char *ruta, unsigned opciones, char *buf, size_t cap, size_t *len,
                              dt_mascara_clave **out, char *why, size_t whycap) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (len != NULL) *len = 0;
    if (ruta == NULL || buf == NULL || len == NULL) {
        dt__ca_por_que(why, whycap,
                       ruta == NULL ? "clave: the path of the key file is NULL" : buf == NULL ? "clave: buf is NULL" : "clave: len is NULL");
        return DT_ERR_NULL;
    }
    if (cap < DT_MASCARA_CLAVE_ARCHIVO_MAX + 1) {
        dt__ca_por_que(why, whycap, "clave: the buffer for a key file's text is smaller than DT_MASCARA_CLAVE_ARCHIVO_MAX + 1");
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    char frase[DT_SENTENCE_MAX];
    size_t n = 0;
    dt_status st = DT_ERR_INVALID_ARG;
#ifdef _WIN32
    (void)frase;
    int fd = _open(ruta, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    if (fd < 0) {
        dt__ca_sistema(why, whycap, "open", errno);
        goto fin;
    }
    for (;;) {
        int r = _read(fd, buf + n, (unsigned)(DT_MASCARA_CLAVE_ARCHIVO_MAX + 1 - n));
        if (r < 0) {
            int e = errno;
            _close(fd);
            dt__ca_sistema(why, whycap, "read", e);
            goto fin;
        }
        if (r == 0 || (n += (size_t)r) > DT_MASCARA_CLAVE_ARCHIVO_MAX) break;
    }
    _close(fd);
    if (n > DT_MASCARA_CLAVE_ARCHIVO_MAX) {
        dt__ca_por_que(why, whycap, "clave: the key file given is longer than a key file can be (128 bytes)");
        goto fin;
    }
#else
    /* O_NONBLOCK: open(2) of a FIFO with no writer would otherwise wait for one forever; fstat then
     * refuses it (and a device) before any read. No O_NOFOLLOW: see datoteca.h. */
    int fd = open(ruta, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        dt__ca_sistema(why, whycap, "open", errno);
        goto fin;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        dt__ca_sistema(why, whycap, "examine", e);
        goto fin;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        const char *tipo = S_ISDIR(sb.st_mode)    ? "a directory"
                           : S_ISFIFO(sb.st_mode) ? "a FIFO (named pipe)"
                           : S_ISCHR(sb.st_mode)  ? "a character device"
                           : S_ISBLK(sb.st_mode)  ? "a block device"
#ifdef S_ISSOCK
                           : S_ISSOCK(sb.st_mode) ? "a socket"
#endif
                                                  : "not a regular file";
        snprintf(frase, sizeof frase,
                 "clave: the key file given is %s; a key is read only from a regular file (a pipe or a device could "
                 "block or hand over anything)",
                 tipo);
        dt__ca_por_que(why, whycap, frase);
        goto fin;
    }
    if ((sb.st_mode & 077) != 0 && !(opciones & DT_MASCARA_CLAVE_COMPARTIDA)) {
        close(fd);
        snprintf(frase, sizeof frase,
                 "clave: the key file given has mode %03o, so its group or others may read or change it; make it "
                 "private with chmod 600, or accept it with --clave-compartida (clave_compartida=True, "
                 "claveCompartida: true, DT_MASCARA_CLAVE_COMPARTIDA)",
                 (unsigned)(sb.st_mode & 0777));
        dt__ca_por_que(why, whycap, frase);
        goto fin;
    }
    if (sb.st_size > (off_t)DT_MASCARA_CLAVE_ARCHIVO_MAX) {
        close(fd);
        snprintf(frase, sizeof frase,
                 "clave: the key file given is %lld bytes long; a key file is 64 hexadecimal digits and at most one "
                 "newline",
                 (long long)sb.st_size);
        dt__ca_por_que(why, whycap, frase);
        goto fin;
    }
    /* The size was checked, but the file may grow between fstat and read: the read is bounded too. */
    while (n <= DT_MASCARA_CLAVE_ARCHIVO_MAX) {
        ssize_t r = read(fd, buf + n, DT_MASCARA_CLAVE_ARCHIVO_MAX + 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            dt__ca_sistema(why, whycap, "read", e);
            goto fin;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (n > DT_MASCARA_CLAVE_ARCHIVO_MAX) {
        dt__ca_por_que(why, whycap, "clave: the key file given grew past 128 bytes while it was read");
        goto fin;
    }
#endif
    {
        dt_mascara_clave *k = NULL;
        st = dt_mascara_clave_new_opciones(buf, n, opciones, &k, why, whycap);
        if (out != NULL) *out = k;
        else dt_mascara_clave_free(k);
        if (st == DT_OK) {
            buf[n] = '\0';
            *len = n;
            return DT_OK;
        }
        if (why != NULL && whycap > 0 && strncmp(why, "clave: the key ", 15) == 0 &&
            strncmp(why, "clave: the key given", 20) != 0) {
            /* "the key has ..." -> "the key file given has ...": the sentence says where the key came from */
            snprintf(frase, sizeof frase, "clave: the key file given%s", why + 14);
            dt__ca_por_que(why, whycap, frase);
        }
    }
fin:
    dt__borrar(buf, cap);
    *len = 0;
    return st == DT_OK ? DT_ERR_INVALID_ARG : st;
}

dt_status dt_mascara_clave_archivo_texto(const char *ruta, unsigned opciones, char *buf, size_t cap, size_t *len,
                                         char *why, size_t whycap) {
    return dt__ca_texto(ruta, opciones, buf, cap, len, NULL, why, whycap);
}

dt_status dt_mascara_clave_leer(const char *ruta, unsigned opciones, dt_mascara_clave **out, char *why, size_t whycap) {
    if (out != NULL) *out = NULL;
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (out == NULL || ruta == NULL) {
        dt__ca_por_que(why, whycap, out == NULL ? "clave: out is NULL" : "clave: the path of the key file is NULL");
        return DT_ERR_NULL;
    }
    char texto[DT_MASCARA_CLAVE_ARCHIVO_MAX + 1];
    size_t n = 0;
    dt_status st = dt__ca_texto(ruta, opciones, texto, sizeof texto, &n, out, why, whycap);
    dt__borrar(texto, sizeof texto);
    return st;
}
