#include "CRE2.h"

#include <re2/re2.h>

#include <cstdlib>
#include <cstring>
#include <new>

struct cre2_pattern {
    re2::RE2 expression;
    cre2_pattern(const char *pattern, size_t length, const re2::RE2::Options &options)
        : expression(re2::StringPiece(pattern, length), options) {}
};

cre2_pattern *cre2_compile(const char *pattern, size_t length, char **error) {
    re2::RE2::Options options;
    // Errors are returned to the caller, never printed to stderr by RE2 itself.
    options.set_log_errors(false);
    cre2_pattern *compiled = new (std::nothrow) cre2_pattern(pattern, length, options);
    if (compiled == nullptr) {
        if (error != nullptr) *error = strdup("out of memory");
        return nullptr;
    }
    if (!compiled->expression.ok()) {
        if (error != nullptr) *error = strdup(compiled->expression.error().c_str());
        delete compiled;
        return nullptr;
    }
    return compiled;
}

int cre2_search(const cre2_pattern *pattern, const char *text, size_t length) {
    return re2::RE2::PartialMatch(re2::StringPiece(text, length), pattern->expression) ? 1 : 0;
}

void cre2_release(cre2_pattern *pattern) { delete pattern; }
