// libyaml 0.2.5 (Debian's libyaml-dev), a YAML 1.1 parser whose event API (yaml_parser_parse)
// Swift calls as is: no variadic calls or macros are needed, so this header only includes it.
// Only the Swift module `YAML` imports this module.

#ifndef STAGEBUILD_CYAML_SHIM_H
#define STAGEBUILD_CYAML_SHIM_H

#include <yaml.h>

#endif
