// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the SMB2 command table.  One line per command: its handler, the
 * StructureSize of its request and what the dispatcher establishes first.
 */
#include "../wire/create.h"
#include "../wire/dir.h"
#include "../wire/info.h"
#include "../wire/lock.h"
#include "../wire/notify.h"
#include "../wire/rw.h"
#include "notify.h"
#include "smb2.h"

#define NEG	SMBSRV_NEED_NEGOTIATED
#define SESS	(SMBSRV_NEED_NEGOTIATED | SMBSRV_NEED_SESSION)
#define TREE	(SESS | SMBSRV_NEED_TREE)

const struct smbsrv_cmd smbsrv_cmds[SMB2_NR_COMMANDS] = {
	[SMB2_NEGOTIATE] = { "NEGOTIATE", smbsrv_smb2_negotiate,
			     SMB2_NEG_REQ_SIZE, 0 },
	[SMB2_SESSION_SETUP] = { "SESSION_SETUP", smbsrv_smb2_session_setup,
				 SMB2_SESS_REQ_SIZE, NEG },
	[SMB2_LOGOFF] = { "LOGOFF", smbsrv_smb2_logoff, SMB2_SIMPLE_SIZE,
			  SESS | SMBSRV_NEED_ANY_STATE },
	[SMB2_TREE_CONNECT] = { "TREE_CONNECT", smbsrv_smb2_tree_connect,
				SMB2_TCON_REQ_SIZE, SESS },
	[SMB2_TREE_DISCONNECT] = { "TREE_DISCONNECT",
				   smbsrv_smb2_tree_disconnect,
				   SMB2_SIMPLE_SIZE, TREE },
	[SMB2_CREATE] = { "CREATE", smbsrv_smb2_create, SMB2_CREATE_REQ_SIZE,
			  TREE },
	[SMB2_CLOSE] = { "CLOSE", smbsrv_smb2_close, SMB2_CLOSE_REQ_SIZE, TREE },
	[SMB2_FLUSH] = { "FLUSH", smbsrv_smb2_flush, SMB2_FLUSH_REQ_SIZE, TREE },
	[SMB2_READ] = { "READ", smbsrv_smb2_read, SMB2_READ_REQ_SIZE, TREE },
	[SMB2_WRITE] = { "WRITE", smbsrv_smb2_write, SMB2_WRITE_REQ_SIZE, TREE },
	[SMB2_LOCK] = { "LOCK", smbsrv_smb2_lock, SMB2_LOCK_REQ_SIZE, TREE },
	[SMB2_IOCTL] = { "IOCTL", smbsrv_smb2_ioctl, SMB2_IOCTL_REQ_SIZE, TREE },
	[SMB2_CANCEL] = { "CANCEL", smbsrv_smb2_cancel, SMB2_SIMPLE_SIZE, NEG },
	[SMB2_CHANGE_NOTIFY] = { "CHANGE_NOTIFY", smbsrv_smb2_change_notify,
				 SMB2_NOTIFY_REQ_SIZE, TREE },
	[SMB2_ECHO] = { "ECHO", smbsrv_smb2_echo, SMB2_SIMPLE_SIZE,
			NEG | SMBSRV_NEED_SESSION_IF_ID },
	[SMB2_QUERY_DIRECTORY] = { "QUERY_DIRECTORY",
				   smbsrv_smb2_query_directory,
				   SMB2_QDIR_REQ_SIZE, TREE },
	[SMB2_QUERY_INFO] = { "QUERY_INFO", smbsrv_smb2_query_info,
			      SMB2_QINFO_REQ_SIZE, TREE },
	[SMB2_SET_INFO] = { "SET_INFO", smbsrv_smb2_set_info,
			    SMB2_SINFO_REQ_SIZE, TREE },
	/* 24 (oplock) or 36 (lease) bytes: the handler tells them apart. */
	[SMB2_OPLOCK_BREAK] = { "OPLOCK_BREAK", smbsrv_smb2_oplock_break,
				0, TREE },
};
