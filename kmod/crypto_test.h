/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: known-answer tests of the crypto code (selftest=1).
 */
#ifndef _SMBSRV_CRYPTO_TEST_H
#define _SMBSRV_CRYPTO_TEST_H

/* Report every vector in the kernel log, then "N passed, M failed". */
void smbsrv_crypto_selftest(void);

#endif /* _SMBSRV_CRYPTO_TEST_H */
