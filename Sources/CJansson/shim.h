// Jansson 2.14 (Debian's libjansson-dev), a strict RFC 8259 JSON decoder. Its type test and
// object iteration are macros, which Swift cannot call; these inline functions stand for them.
// Only the Swift module `JSONReader` imports this module.

#ifndef STAGEBUILD_CJANSSON_SHIM_H
#define STAGEBUILD_CJANSSON_SHIM_H

#include <jansson.h>

/// The value's type (`json_typeof`).
static inline json_type stagebuild_json_type(const json_t *value) { return json_typeof(value); }

/// Releases a reference (`json_decref`, an inline function with a macro guard).
static inline void stagebuild_json_release(json_t *value) { json_decref(value); }

#endif
