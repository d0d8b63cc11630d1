// libpacparser 1.3 (Debian's libpacparser-dev): a proxy auto-config script run by the
// SpiderMonkey engine it embeds, with the standard helper functions (dnsResolve, isInNet,
// myIpAddress, shExpMatch, dnsDomainIs, weekdayRange, ...). Its state is one global JavaScript
// context and a script may loop forever or allocate without bound, so every evaluation runs in a
// child process of its own: forked, held to an address-space limit (setrlimit RLIMIT_AS) and
// killed at its deadline. The child runs only C (libpacparser and libc) between fork and _exit.
// Only the Swift module `PAC` imports this module.

#ifndef STAGEBUILD_CPACPARSER_SHIM_H
#define STAGEBUILD_CPACPARSER_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pacparser.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/// How an evaluation ended.
enum cpac_status {
    CPAC_ANSWERED = 0,      // `output` holds FindProxyForURL's answer
    CPAC_SCRIPT_ERROR = 1,  // `output` holds the engine's messages
    CPAC_TIME_LIMIT = 2,    // still running at the deadline: killed
    CPAC_MEMORY_LIMIT = 3,  // ran out of its address space
    CPAC_CRASHED = 4,       // ended by a signal, or without a word; `output` says which
    CPAC_SYSTEM_ERROR = 5   // fork or pipe failed; `output` holds strerror
};

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
    alarm(seconds + 1);
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

static long long cpac_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Runs `FindProxyForURL(url, host)` of `script` in a child process.
///
/// - `prelude`: a script run before `script` (helper functions replaced), or NULL.
/// - `my_address`: what `myIpAddress()` returns, or NULL for the engine's own lookup.
/// - `memory_bytes`: the address space the child may add to what it inherits.
/// - `timeout_ms`: the wall-clock limit; the child is killed (SIGKILL) when it passes.
/// - `output`, `capacity`: the answer or the messages, NUL-terminated, cut to fit.
/// Returns a `cpac_status`.
static inline int cpac_evaluate(const char *script, const char *prelude, const char *url, const char *host,
                                const char *my_address, size_t memory_bytes, int timeout_ms, char *output,
                                size_t capacity) {
    output[0] = 0;
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(output, capacity, "pipe: %s", strerror(errno));
        return CPAC_SYSTEM_ERROR;
    }
    // Not inherited by what other threads spawn: a copy of the write end would hold the read open.
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t child = fork();
    if (child < 0) {
        snprintf(output, capacity, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return CPAC_SYSTEM_ERROR;
    }
    if (child == 0) {
        close(fds[0]);
        cpac_child(fds[1], script, prelude, url, host, my_address, memory_bytes, (unsigned)(timeout_ms / 1000 + 1));
    }
    close(fds[1]);
    size_t length = 0;
    int timed_out = 0;
    long long deadline = cpac_now_ms() + timeout_ms;
    for (;;) {
        long long left = deadline - cpac_now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd poller = {.fd = fds[0], .events = POLLIN};
        int ready = poll(&poller, 1, (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) continue;
        char chunk[1024];
        ssize_t got = read(fds[0], chunk, sizeof(chunk));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        for (ssize_t index = 0; index < got; index++) {
            if (length + 1 < capacity) output[length++] = chunk[index];
        }
    }
    close(fds[0]);
    if (timed_out) kill(child, SIGKILL);
    int wait_status = 0;
    while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
    }
    output[length] = 0;
    if (timed_out) return CPAC_TIME_LIMIT;
    if (length == 0) {
        if (WIFSIGNALED(wait_status)) {
            snprintf(output, capacity, "the engine ended by signal %d (%s)", WTERMSIG(wait_status),
                     strsignal(WTERMSIG(wait_status)));
            return CPAC_CRASHED;
        }
        snprintf(output, capacity, "the engine ended without an answer");
        return CPAC_CRASHED;
    }
    char status = output[0];
    memmove(output, output + 1, length);
    if (status == 'A') return CPAC_ANSWERED;
    if (status == 'M') return CPAC_MEMORY_LIMIT;
    return CPAC_SCRIPT_ERROR;
}

#endif
