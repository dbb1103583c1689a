/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the audit trail (full_audit).  Operations on shares that ask
 * for them (their audit masks, from the daemon at tree connect), and
 * logoffs when [global] asks, become records unicast to smbsrvd's audit
 * socket, which writes them to syslog.  Bounded: at most `rate` records
 * a second, and a full socket drops; never waits.  Every drop is counted
 * (stats-get), told to the daemon in the next record, and logged.
 */
#ifndef _SMBSRV_AUDIT_H
#define _SMBSRV_AUDIT_H

#include <linux/types.h>
#include <uapi/linux/smbsrv.h>

struct smbsrv_session;
struct smbsrv_tree;

/* Does @tree's share audit @op ending with @status? */
bool smbsrv_audit_wants(const struct smbsrv_tree *tree,
			enum smbsrv_audit_op op, u32 status);

/*
 * Record @op on @tree (its user, client and share): @path (and @path2 for
 * a rename) share-relative, @access for create-file.  Call only when
 * smbsrv_audit_wants() said so.
 */
void smbsrv_audit_tree(const struct smbsrv_tree *tree,
		       enum smbsrv_audit_op op, u32 status, const char *path,
		       const char *path2, u32 access);

/* A session operation (logoff), if [global] audits it. */
void smbsrv_audit_session(struct smbsrv_session *sess,
			  enum smbsrv_audit_op op, u32 status);

/* The daemon's audit socket, limits and session operations. */
void smbsrv_audit_subscribe(u32 portid, u32 rate, u32 session_success);
/* @portid's socket closed: no audit socket any more if it was it. */
void smbsrv_audit_release(u32 portid);

void smbsrv_audit_counts(u64 *records, u64 *dropped);

#endif /* _SMBSRV_AUDIT_H */
