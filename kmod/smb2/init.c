// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the protocol layer's start and end (entry.h): the server GUID,
 * the CHANGE_NOTIFY fsnotify group, and the ops smb2/ registers for the
 * layers below it (proto.h, cache.h).
 */
#include <linux/random.h>

#include "../proto.h"
#include "../smbsrv.h"
#include "entry.h"
#include "notify.h"
#include "smb2.h"

static const struct smbsrv_proto_ops smbsrv_smb2_proto = {
	.conn_init = smbsrv_smb2_conn_init,
	.conn_free = smbsrv_smb2_conn_free,
	.conn_teardown = smbsrv_smb2_conn_teardown,
	.msg_queue = smbsrv_msg_queue,
	.file_close = smbsrv_notify_close,
	.dirscan_free = smbsrv_dirscan_free,
	.delete_pending = smbsrv_notify_delete_pending,
};

int smbsrv_smb2_init(void)
{
	int err;

	get_random_bytes(smbsrv_server_guid, sizeof(smbsrv_server_guid));
	err = smbsrv_notify_init();
	if (err)
		return err;
	smbsrv_break_init();
	smbsrv_server.proto = &smbsrv_smb2_proto;
	return 0;
}

void smbsrv_smb2_exit(void)
{
	smbsrv_server.proto = NULL;
	smbsrv_break_exit();
	smbsrv_notify_exit();
}
