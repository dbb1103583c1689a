/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: self-tests, run when the module is loaded with selftest=1.
 */
#ifndef _SMBSRV_SELFTEST_H
#define _SMBSRV_SELFTEST_H

/*
 * With selftest=1: report every crypto test vector in the kernel log and
 * expose the upcall probe (debugfs smbsrv/upcall).  Never fails the load:
 * the log says what failed.
 */
void smbsrv_selftest_init(void);
void smbsrv_selftest_exit(void);

#endif /* _SMBSRV_SELFTEST_H */
