#include "allocator_settings.h"

/* jemalloc reads its options from this symbol when the process starts, before the MALLOC_CONF environment variable,
   which can still override them.

   dirty_decay_ms: freed pages go back to the system after about a second instead of ten. `iaplens report` on a
   million notifications frees and allocates on every core for a few seconds; with ten seconds its peak was 181-210 MB,
   over the 200 MB bound, against 171-180 MB with 0.5-2 s and 168-172 MB on glibc's allocator
   (Documentation/Performance.md "jemalloc as the allocator"). Zero would return every freed page at once: ingest's system time
   rose twelve-fold in madvise. */
const char *malloc_conf = "dirty_decay_ms:1000";
