#ifndef IAPLENS_SQLITE_SHIM_H
#define IAPLENS_SQLITE_SHIM_H
// sqlite3_config is variadic, which Swift cannot call; these wrappers give it fixed signatures.
#include <sqlite3.h>

// Turns off SQLite's memory statistics. With them on (Debian's default), every sqlite3_malloc and
// sqlite3_free takes a process-wide mutex to update counters iaplens never reads. Must run before
// SQLite initializes (before the first connection opens); later it returns SQLITE_MISUSE and changes nothing.
static inline int iaplens_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. Lets `db` close without copying its WAL files into their databases: the
// analysis workers' scratch files are deleted right after their connections close, so that copy (hundreds of MB
// at 1M notifications) would be written for nothing.
static inline int iaplens_sqlite3_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
