// C functions over RE2 (Debian's libre2-dev), so Swift can use it without C++ interop.
// RE2 matches in time linear in the text's length whatever the pattern, which is why the
// tool uses it for every pattern a user gives.
#ifndef CRE2_H
#define CRE2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled pattern; free it with cre2_release.
typedef struct cre2_pattern cre2_pattern;

/// Compiles `pattern` (UTF-8, `length` bytes) with RE2's default options (RE2 syntax, the
/// syntax of Go's regexp package). On failure returns NULL and, when `error` is not NULL,
/// stores a malloc'd NUL-terminated message there (free it with free(3)).
cre2_pattern *cre2_compile(const char *pattern, size_t length, char **error);

/// 1 when `pattern` matches somewhere in `text` (`length` bytes), else 0.
int cre2_search(const cre2_pattern *pattern, const char *text, size_t length);

/// Frees a compiled pattern; NULL is allowed.
void cre2_release(cre2_pattern *pattern);

#ifdef __cplusplus
}
#endif

#endif
