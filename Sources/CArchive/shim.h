// libarchive 3.6 (Debian's libarchive-dev): tar streams in any compression, read entry by entry.
// Its read API (archive_read_*, archive_entry_*) is called from Swift as is, so this header
// only includes it. Only the Swift module `Archives` imports this module.

#ifndef STAGEBUILD_CARCHIVE_SHIM_H
#define STAGEBUILD_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif
