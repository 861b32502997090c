#ifndef IAPLENS_ISAL_SHIM_H
#define IAPLENS_ISAL_SHIM_H
// Intel ISA-L's gzip inflate (Debian's libisal-dev). ChunkSource reads gzip archives through these helpers so Swift
// never copies `struct inflate_state` (about 40 KB of tables) by value; see Documentation/Performance.md, "Reading through ISA-L".
#include <stdint.h>
#include <stdlib.h>
#include <isa-l/igzip_lib.h>

/// A zeroed, initialised state that parses and checks gzip headers and trailers (CRC-32 and size), or NULL.
static inline struct inflate_state *iaplens_gunzip_new(void) {
    struct inflate_state *state = (struct inflate_state *)calloc(1, sizeof(struct inflate_state));
    if (state == NULL) return NULL;
    isal_inflate_init(state);
    state->crc_flag = ISAL_GZIP;
    return state;
}

static inline void iaplens_gunzip_free(struct inflate_state *state) { free(state); }

/// Starts the next gzip member; the unread input stays where it is.
static inline void iaplens_gunzip_next_member(struct inflate_state *state) {
    uint8_t *next_in = state->next_in;
    uint32_t avail_in = state->avail_in;
    isal_inflate_reset(state);
    state->crc_flag = ISAL_GZIP;
    state->next_in = next_in;
    state->avail_in = avail_in;
}

static inline void iaplens_gunzip_set_input(struct inflate_state *state, const void *bytes, uint32_t count) {
    state->next_in = (uint8_t *)bytes;
    state->avail_in = count;
}

static inline void iaplens_gunzip_set_output(struct inflate_state *state, void *bytes, uint32_t count) {
    state->next_out = (uint8_t *)bytes;
    state->avail_out = count;
}

static inline uint32_t iaplens_gunzip_avail_in(const struct inflate_state *state) { return state->avail_in; }
static inline uint32_t iaplens_gunzip_avail_out(const struct inflate_state *state) { return state->avail_out; }

/// True once the current member's trailer has been read and checked.
static inline int iaplens_gunzip_member_finished(const struct inflate_state *state) {
    return state->block_state == ISAL_BLOCK_FINISH;
}

/// Inflates as much as the input and output allow: ISAL_DECOMP_OK, or a negative ISAL_* error.
static inline int iaplens_gunzip(struct inflate_state *state) { return isal_inflate(state); }
#endif
