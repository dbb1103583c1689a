/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the server-wide budget of opens (Documentation/design.md,
 * "Client caching under abuse").
 *
 * Every open - file, directory, named pipe, and a durable one kept for a
 * disconnected client - is charged here from the moment it is registered
 * until its last reference goes, against `server max open files` and its
 * user's `max open files per user` (knobs; 0: no limit).  What a client
 * caches hangs off its opens (a lease has at least one; a break
 * notification and a parked CREATE are one per open at most), so the
 * budget bounds that state too.  Past either limit the open is refused
 * (-ENFILE: STATUS_INSUFFICIENT_RESOURCES), counted for smbsrvctl stats.
 */
#ifndef _SMBSRV_BUDGET_H
#define _SMBSRV_BUDGET_H

#include <linux/types.h>
#include <linux/uidgid.h>

/* One user's share of the budget: its opens. */
struct smbsrv_budget_user;

/* Charge one open to @uid: 0 (*bu to uncharge it with), -ENFILE, -ENOMEM. */
int smbsrv_budget_charge(kuid_t uid, struct smbsrv_budget_user **bu);
void smbsrv_budget_uncharge(struct smbsrv_budget_user *bu);

struct smbsrv_budget_stats {
	u32 opens;			/* charged now */
	u64 refused;			/* past server max open files */
	u64 refused_user;		/* past max open files per user */
};

void smbsrv_budget_stats(struct smbsrv_budget_stats *st);
/* Module exit: every open is gone. */
void smbsrv_budget_exit(void);

#endif /* _SMBSRV_BUDGET_H */
