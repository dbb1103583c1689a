/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/smbsrv.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_SMBSRV_H
#define _UAPI_LINUX_SMBSRV_H

#define SMBSRV_FAMILY_NAME	"smbsrv"
#define SMBSRV_FAMILY_VERSION	1

#define SMBSRV_VERSION_LEN	32

/**
 * enum smbsrv_daemon_state - Whether a control daemon is attached to the
 *   module.
 * @SMBSRV_DAEMON_STATE_ABSENT: No daemon attached; new sessions cannot be
 *   authenticated.
 * @SMBSRV_DAEMON_STATE_RUNNING: A daemon sent its start-up message and its
 *   socket is open.
 */
enum smbsrv_daemon_state {
	SMBSRV_DAEMON_STATE_ABSENT,
	SMBSRV_DAEMON_STATE_RUNNING,
};

enum {
	SMBSRV_A_KNOBS_TCP_PORT = 1,
	SMBSRV_A_KNOBS_MAX_CONNECTIONS,
	SMBSRV_A_KNOBS_SMB2_MAX_READ,
	SMBSRV_A_KNOBS_SMB2_MAX_WRITE,
	SMBSRV_A_KNOBS_SMB2_MAX_TRANS,
	SMBSRV_A_KNOBS_SMB2_MAX_CREDITS,

	__SMBSRV_A_KNOBS_MAX,
	SMBSRV_A_KNOBS_MAX = (__SMBSRV_A_KNOBS_MAX - 1)
};

enum {
	SMBSRV_A_SERVER_MODULE_VERSION = 1,
	SMBSRV_A_SERVER_DAEMON_STATE,
	SMBSRV_A_SERVER_DAEMON_PID,
	SMBSRV_A_SERVER_LISTEN_PORT,
	SMBSRV_A_SERVER_KNOBS,

	__SMBSRV_A_SERVER_MAX,
	SMBSRV_A_SERVER_MAX = (__SMBSRV_A_SERVER_MAX - 1)
};

enum {
	SMBSRV_CMD_STARTUP = 1,
	SMBSRV_CMD_STATUS_GET,

	__SMBSRV_CMD_MAX,
	SMBSRV_CMD_MAX = (__SMBSRV_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_SMBSRV_H */
