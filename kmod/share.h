/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: state of a share across all its tree connects: how many there
 * are, for the share's `max connections` (MS-SMB2 3.3.5.7's
 * Share.CurrentUses / Share.MaxUses).  Shares are known by name (as the
 * daemon spells it, compared without ASCII case); an entry lives while
 * a tree holds it.
 */
#ifndef _SMBSRV_SHARE_H
#define _SMBSRV_SHARE_H

#include <linux/types.h>

struct smbsrv_share_use;

/*
 * Count one more tree on share @name, unless @max (0: no limit) are
 * there already.  Returns the entry to hand back to
 * smbsrv_share_use_put() when the tree goes, ERR_PTR(-EUSERS) at the
 * limit (STATUS_REQUEST_NOT_ACCEPTED, as Windows answers when a share's
 * user limit is reached) or ERR_PTR(-ENOMEM).
 */
struct smbsrv_share_use *smbsrv_share_use_get(const char *name, u32 max);
void smbsrv_share_use_put(struct smbsrv_share_use *use);

struct sk_buff;
/*
 * Each share with trees as a nest @type of @msg (attribute set
 * share-use): its name, trees and limit; as many as fit.
 */
void smbsrv_share_use_put_all(struct sk_buff *msg, int type);

#endif /* _SMBSRV_SHARE_H */
