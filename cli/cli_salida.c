/* Where an output file given by name may be written (issue 48): the one place that decides it for
 * `datoteca enmascarar --salida` and the copies of `datoteca copiar` (a dump, a new SQLite file).
 * Those write a temporary file beside the path and rename it into place when whole, and rename(2)
 * replaces whatever directory entry has that name: run as root, `--salida /dev/null` replaced the
 * device with a regular file. So the path is examined with lstat before the temporary file is made
 * and again just before the rename, and a rename is only ever onto a regular file or a free name:
 *  - a free name, or a regular file (when the command may replace one): temporary file and rename;
 *  - a character device or a FIFO (/dev/null, /dev/stdout, a pipe another process reads), itself or
 *    at the end of symbolic links: opened and written in place, no temporary file, nothing renamed;
 *  - anything else: a symbolic link to a regular file or to nothing (the rename would replace the
 *    link, not the file it names), a directory, a block device (a disk), a socket: refused.
 * Sentences name the option (--salida, --hacia), never the path: a path may hold a key pasted by
 * mistake, and is the caller's to show. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* lstat, O_NOFOLLOW, O_CLOEXEC */
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

#include "cli_interno.h"

#ifndef _WIN32
/* wasm32-wasi's libc may lack these (no terminals there, no exec to leak a descriptor to) */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#endif

#ifndef _WIN32
/* What a directory entry that is not a regular file is, in the sentence that refuses it. */
static const char *dt__sal_tipo(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
#ifdef S_ISSOCK
    if (S_ISSOCK(m)) return "a socket";
#endif
#ifdef S_ISLNK
    if (S_ISLNK(m)) return "a symbolic link";
#endif
    return "not a regular file";
}
#endif

int dt__cli_salida_tipo(const char *ruta, const char *solo_nueva, const char *orden, const char *opcion) {
#ifdef _WIN32
    /* no devices, FIFOs or links to meet by name here; a directory is still refused */
    struct _stat sb;
    if (_stat(ruta, &sb) != 0) return DT__SALIDA_NUEVA;
    if (sb.st_mode & _S_IFDIR) {
        fprintf(stderr, "datoteca: %s: %s names a directory; give a file's path (nothing was written)\n", orden, opcion);
        return DT__SALIDA_REHUSADA;
    }
    if (solo_nueva) {
        fprintf(stderr, "datoteca: %s: %s names a file that exists; %s writes a new %s only (nothing was written)\n", orden,
                opcion, orden, solo_nueva);
        return DT__SALIDA_REHUSADA;
    }
    return DT__SALIDA_REGULAR;
#else
    struct stat sb;
    if (lstat(ruta, &sb) != 0) {
        if (errno == ENOENT) return DT__SALIDA_NUEVA;
        fprintf(stderr, "datoteca: %s: cannot examine the path given to %s: %s (nothing was written)\n", orden, opcion,
                strerror(errno));
        return DT__SALIDA_REHUSADA;
    }
    if (S_ISREG(sb.st_mode)) {
        if (!solo_nueva) return DT__SALIDA_REGULAR;
        fprintf(stderr, "datoteca: %s: %s names a file that exists; %s writes a new %s only (nothing was written)\n", orden,
                opcion, orden, solo_nueva);
        return DT__SALIDA_REHUSADA;
    }
    /* A device or a FIFO, named or at the end of links (/dev/stdout is a link to /proc/self/fd/1): the
     * bytes go to it as a shell's `>` would send them. A database file or a dump cannot be written in
     * place (SQLite needs a file it can seek; a dump is whole or absent), so `solo_nueva` refuses it. */
    struct stat fin;
    int destino = stat(ruta, &fin) == 0; /* where the links lead, if anywhere */
    if (!solo_nueva && destino && (S_ISCHR(fin.st_mode) || S_ISFIFO(fin.st_mode))) return DT__SALIDA_EN_SITIO;
#ifdef S_ISLNK
    if (S_ISLNK(sb.st_mode)) {
        fprintf(stderr,
                "datoteca: %s: %s names a symbolic link%s; the output would replace the link, not what it names: give "
                "the path it leads to (nothing was written)\n",
                orden, opcion,
                !destino ? " that leads nowhere" : S_ISREG(fin.st_mode) ? " to a regular file" : " to what is not a regular file");
        return DT__SALIDA_REHUSADA;
    }
#endif
    fprintf(stderr, "datoteca: %s: %s names %s; %s (nothing was written)\n", orden, opcion, dt__sal_tipo(sb.st_mode),
            solo_nueva ? "the output is a new regular file only"
                       : "the output is written only to a regular file, a new path, a character device or a FIFO");
    return DT__SALIDA_REHUSADA;
#endif
}

FILE *dt__cli_salida_en_sitio(const char *ruta, const char *orden, const char *opcion) {
#ifdef _WIN32
    (void)orden;
    (void)opcion;
    return fopen(ruta, "wb");
#else
    /* No O_TRUNC (a device has nothing to cut, and O_TRUNC of a regular file swapped in since lstat
     * would destroy it); O_NONBLOCK is not set, so a FIFO waits for its reader as with `>`. */
    int fd = open(ruta, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "datoteca: %s: cannot open the output given (%s): %s\n", orden, opcion, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !(S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
        /* replaced between lstat and open: judge it again rather than write into what it now is */
        close(fd);
        fprintf(stderr, "datoteca: %s: the output given (%s) changed while it was opened; nothing was written\n", orden,
                opcion);
        return NULL;
    }
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: %s: cannot open the output given (%s): %s\n", orden, opcion, strerror(errno));
        close(fd);
    }
    return f;
#endif
}

int dt__cli_salida_renombrar(const char *tmp, const char *ruta, const char *solo_nueva, const char *orden,
                             const char *opcion) {
    /* judged again: a device, a directory or a link may have taken the name while the output was written */
    int t = dt__cli_salida_tipo(ruta, solo_nueva, orden, opcion);
    if (t == DT__SALIDA_EN_SITIO) {
        fprintf(stderr, "datoteca: %s: %s names a device or a FIFO made while the output was written; the output is not "
                        "put there (nothing was written)\n", orden, opcion);
        return 1;
    }
    if (t == DT__SALIDA_REHUSADA) return 1;
#ifdef _WIN32
    if (t == DT__SALIDA_REGULAR) remove(ruta); /* rename does not replace on Windows */
#endif
    if (rename(tmp, ruta) != 0) {
        fprintf(stderr, "datoteca: %s: %s: cannot put the output in place: %s\n", orden, opcion, strerror(errno));
        return 1;
    }
    return 0;
}
