// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the tracepoints of trace.h, defined once.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
