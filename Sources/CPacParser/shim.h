// libpacparser 1.3 (Debian's libpacparser-dev): a proxy auto-config script run by the
// SpiderMonkey engine it embeds, with the standard helper functions (dnsResolve, isInNet,
// myIpAddress, shExpMatch, dnsDomainIs, weekdayRange, ...). Its state is one global JavaScript
// context and a script may loop forever or allocate without bound, so every evaluation runs in a
// child process of its own: forked, held to a processor-time and an address-space limit
// (setrlimit RLIMIT_CPU, RLIMIT_AS); the parent (PACEngine) waits for it and kills it at the
// call's deadline. The child runs only C (libpacparser and libc) between fork and _exit.
// Only the Swift module `PAC` imports this module.

#ifndef STAGEBUILD_CPACPARSER_SHIM_H
#define STAGEBUILD_CPACPARSER_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <pacparser.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The child's messages from the engine, gathered for one write at the end (a function's own
// statics: Swift's importer emits no variable of a header's).
struct cpac_message_buffer {
    char text[4096];
    size_t length;
};

static struct cpac_message_buffer *cpac_messages(void) {
    static struct cpac_message_buffer buffer;
    return &buffer;
}

static int cpac_gather_message(const char *format, va_list arguments) {
    struct cpac_message_buffer *messages = cpac_messages();
    size_t room = sizeof(messages->text) - messages->length;
    if (room > 1) {
        int written = vsnprintf(messages->text + messages->length, room, format, arguments);
        if (written > 0) messages->length += (size_t)written < room ? (size_t)written : room - 1;
    }
    return 0;
}

static void cpac_write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        length -= (size_t)written;
    }
}

// The child's whole life: one byte of status ('A' answer, 'E' script error, 'M' out of memory),
// then the text.
static void cpac_child(int fd, const char *script, const char *prelude, const char *url, const char *host,
                       const char *my_address, size_t memory_bytes, unsigned seconds) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    alarm(seconds);
    // The limit counts the address space the child inherited, so it is set above that.
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm != NULL) {
        if (fscanf(statm, "%lu", &pages) != 1) pages = 0;
        fclose(statm);
    }
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + memory_bytes;
    setrlimit(RLIMIT_AS, &limit);
    pacparser_set_error_printer(cpac_gather_message);
    char status = 'E';
    const char *text = NULL;
    if (pacparser_init()) {
        if (my_address != NULL) pacparser_setmyip(my_address);
        if ((prelude == NULL || pacparser_parse_pac_string(prelude)) && pacparser_parse_pac_string(script)) {
            text = pacparser_find_proxy(url, host);
            if (text != NULL) status = 'A';
        }
    }
    struct cpac_message_buffer *messages = cpac_messages();
    if (status == 'E' && strstr(messages->text, "out of memory") != NULL) status = 'M';
    cpac_write_all(fd, &status, 1);
    if (status == 'A') {
        cpac_write_all(fd, text, strlen(text));
    } else {
        cpac_write_all(fd, messages->text, messages->length);
    }
    _exit(0);
}

/// Forks the child that runs `FindProxyForURL(url, host)` of `script`; the caller reads its
/// pipe, stops it with SIGKILL at its deadline and reaps it (`waitpid`).
///
/// - `prelude`: a script run before `script` (helper functions replaced), or NULL.
/// - `my_address`: what `myIpAddress()` returns, or NULL for the engine's own lookup.
/// - `memory_bytes`: the address space the child may add to what it inherits (RLIMIT_AS).
/// - `cpu_seconds`: the processor time the child may use (RLIMIT_CPU: SIGXCPU, then SIGKILL a
///   second later), so a script that loops is stopped by its own work, not by how busy the
///   machine is.
/// - `wall_seconds`: a last bound should the caller die first (alarm, besides PR_SET_PDEATHSIG).
/// - `child`: the child's pid.
/// Returns the read end of the child's pipe (one status byte: 'A' answer, 'E' script error, 'M'
/// out of memory; then the text), or -1 with errno set.
static inline int cpac_start(const char *script, const char *prelude, const char *url, const char *host,
                             const char *my_address, size_t memory_bytes, unsigned cpu_seconds,
                             unsigned wall_seconds, pid_t *child) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    // Neither end goes to a program another thread spawns.
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        // Other threads fork too: close every descriptor but the write end, so no child holds
        // another's pipe (whose reader would wait for it) or a socket of the parent's.
        int keep = 3;
        if (fds[1] != keep) {
            dup2(fds[1], keep);
        }
        if (syscall(SYS_close_range, keep + 1, ~0U, 0) != 0) {
            struct rlimit files;
            int last = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? (int)files.rlim_cur : 65536;
            for (int fd = keep + 1; fd < last; fd++) close(fd);
        }
        struct rlimit cpu = {.rlim_cur = cpu_seconds, .rlim_max = cpu_seconds + 1};
        setrlimit(RLIMIT_CPU, &cpu);
        // SIGXCPU and a crash end it without writing a core of the parent's whole image.
        struct rlimit core = {.rlim_cur = 0, .rlim_max = 0};
        setrlimit(RLIMIT_CORE, &core);
        cpac_child(keep, script, prelude, url, host, my_address, memory_bytes, wall_seconds);
    }
    close(fds[1]);
    *child = pid;
    return fds[0];
}

#endif
