#ifndef IAPLENS_LIBPQ_SHIM_H
#define IAPLENS_LIBPQ_SHIM_H
// Debian's libpq-dev installs its headers under /usr/include/postgresql.
#include <postgresql/libpq-fe.h>
#endif
