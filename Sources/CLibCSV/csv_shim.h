#ifndef IAPLENS_CSV_SHIM_H
#define IAPLENS_CSV_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <csv.h>
#endif
