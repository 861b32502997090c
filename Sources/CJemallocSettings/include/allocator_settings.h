#ifndef IAPLENS_ALLOCATOR_SETTINGS_H
#define IAPLENS_ALLOCATOR_SETTINGS_H

/* jemalloc's options for the iaplens executables, read by jemalloc when the process starts
   (allocator_settings.c). Nothing to call: linking this target is what applies them. */
extern const char *malloc_conf;

#endif
