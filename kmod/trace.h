/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: tracepoints, one for each stage of a request's life.
 *
 *   smbsrv_conn_accepted    a connection was admitted
 *   smbsrv_data_ready       the socket has bytes (per wake-up, no request yet)
 *   smbsrv_pdu_complete     a whole message was received (recv_ns: from its
 *                           first byte read to its last)
 *   smbsrv_queued           the message was queued (which queue, which CPU)
 *   smbsrv_worker_start     a worker picked it up (wait_ns since queued)
 *   smbsrv_upcall_sent      a handler asked the daemon
 *   smbsrv_upcall_answered  ... and got its answer (or an error)
 *   smbsrv_handler_done     a request's handler returned (its status)
 *   smbsrv_rsp_queued       the response frame was queued for sending
 *   smbsrv_frame_written    the frame was written to the socket (bytes,
 *                           frames in that batch, spliced or copied)
 *   smbsrv_conn_closed      the connection is being torn down
 *
 * Every event carries the connection id (smbsrvctl connections) and, but
 * the connection events and data-ready, the MessageId of the message's
 * first request; a compound's other requests show up in handler_done.
 * Encrypted messages have no readable MessageId before decryption and
 * encrypted frames none after encryption: mid is 0 and cmd 0xffff there.
 * Documentation/admin-guide.md ("Tracing a request") shows how to follow
 * one request and how to get a latency histogram per stage.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM smbsrv

#if !defined(_SMBSRV_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SMBSRV_TRACE_H

#include <linux/ktime.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>
#include <linux/uio.h>

#include "wire/pdu.h"

/* Read once: define_trace.h includes this file again. */
#ifndef _SMBSRV_TRACE_HELPERS
#define _SMBSRV_TRACE_HELPERS

#define SMBSRV_TRACE_NO_CMD	0xffff

/*
 * Numbers, not enum smb2_command: userspace tools (trace-cmd, perf) read
 * the format and know no kernel enums.
 */
#define smbsrv_show_cmd(cmd)						\
	__print_symbolic(cmd,						\
		{ 0, "NEGOTIATE" },					\
		{ 1, "SESSION_SETUP" },					\
		{ 2, "LOGOFF" },					\
		{ 3, "TREE_CONNECT" },					\
		{ 4, "TREE_DISCONNECT" },				\
		{ 5, "CREATE" },					\
		{ 6, "CLOSE" },						\
		{ 7, "FLUSH" },						\
		{ 8, "READ" },						\
		{ 9, "WRITE" },						\
		{ 10, "LOCK" },						\
		{ 11, "IOCTL" },					\
		{ 12, "CANCEL" },					\
		{ 13, "ECHO" },						\
		{ 14, "QUERY_DIRECTORY" },				\
		{ 15, "CHANGE_NOTIFY" },				\
		{ 16, "QUERY_INFO" },					\
		{ 17, "SET_INFO" },					\
		{ 18, "OPLOCK_BREAK" },					\
		{ 0xffff, "?" })

/* enum smbsrv_queue; "inline": served by the receiver, no worker hop. */
#define SMBSRV_TRACE_INLINE	2
#define smbsrv_show_queue(q)						\
	__print_symbolic(q, { 0, "percpu" }, { 1, "unbound" },		\
			 { SMBSRV_TRACE_INLINE, "inline" })

/* MessageId and command of a message's first PDU; 0/NO_CMD if unreadable. */
static inline void smbsrv_trace_peek(const u8 *msg, u32 len, u64 *mid,
				     u16 *cmd)
{
	if (!msg || !smb2_msg_peek_id(msg, len, mid, cmd))
		*cmd = SMBSRV_TRACE_NO_CMD;
}

/* The same for a response frame: iov[1] starts its first header. */
static inline void smbsrv_trace_peek_iov(const struct kvec *iov,
					 unsigned int n, u64 *mid, u16 *cmd)
{
	if (n < 2) {
		*mid = 0;
		*cmd = SMBSRV_TRACE_NO_CMD;
		return;
	}
	smbsrv_trace_peek(iov[1].iov_base, iov[1].iov_len, mid, cmd);
}

#endif /* _SMBSRV_TRACE_HELPERS */

DECLARE_EVENT_CLASS(smbsrv_conn_class,
		    TP_PROTO(u32 conn),
		    TP_ARGS(conn),
		    TP_STRUCT__entry(__field(u32, conn)),
		    TP_fast_assign(__entry->conn = conn;),
		    TP_printk("conn=%u", __entry->conn)
);

DEFINE_EVENT(smbsrv_conn_class, smbsrv_conn_closed,
	     TP_PROTO(u32 conn),
	     TP_ARGS(conn));

DEFINE_EVENT(smbsrv_conn_class, smbsrv_data_ready,
	     TP_PROTO(u32 conn),
	     TP_ARGS(conn));

TRACE_EVENT(smbsrv_conn_accepted,
	    TP_PROTO(u32 conn, const char *addr),
	    TP_ARGS(conn, addr),
	    TP_STRUCT__entry(__field(u32, conn)
			     __string(addr, addr)),
	    TP_fast_assign(__entry->conn = conn;
			   __assign_str(addr);),
	    TP_printk("conn=%u addr=%s", __entry->conn, __get_str(addr))
);

TRACE_EVENT(smbsrv_pdu_complete,
	    TP_PROTO(u32 conn, const u8 *msg, u32 len, u64 start_ns),
	    TP_ARGS(conn, msg, len, start_ns),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u16, cmd)
			     __field(u32, len)
			     __field(u64, recv_ns)),
	    TP_fast_assign(__entry->conn = conn;
			   smbsrv_trace_peek(msg, len, &__entry->mid,
					     &__entry->cmd);
			   __entry->len = len;
			   __entry->recv_ns = start_ns ?
					      ktime_get_ns() - start_ns : 0;),
	    TP_printk("conn=%u mid=%llu cmd=%s len=%u recv_ns=%llu",
		      __entry->conn, __entry->mid,
		      smbsrv_show_cmd(__entry->cmd), __entry->len,
		      __entry->recv_ns)
);

TRACE_EVENT(smbsrv_queued,
	    TP_PROTO(u32 conn, u64 mid, u8 queue),
	    TP_ARGS(conn, mid, queue),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u8, queue)
			     __field(u32, cpu)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->mid = mid;
			   __entry->queue = queue;
			   __entry->cpu = raw_smp_processor_id();),
	    TP_printk("conn=%u mid=%llu queue=%s cpu=%u", __entry->conn,
		      __entry->mid, smbsrv_show_queue(__entry->queue),
		      __entry->cpu)
);

TRACE_EVENT(smbsrv_worker_start,
	    TP_PROTO(u32 conn, u64 mid, u8 queue, u64 wait_ns),
	    TP_ARGS(conn, mid, queue, wait_ns),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u8, queue)
			     __field(u32, cpu)
			     __field(u64, wait_ns)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->mid = mid;
			   __entry->queue = queue;
			   __entry->cpu = raw_smp_processor_id();
			   __entry->wait_ns = wait_ns;),
	    TP_printk("conn=%u mid=%llu queue=%s cpu=%u wait_ns=%llu",
		      __entry->conn, __entry->mid,
		      smbsrv_show_queue(__entry->queue), __entry->cpu,
		      __entry->wait_ns)
);

TRACE_EVENT(smbsrv_handler_done,
	    TP_PROTO(u32 conn, u64 mid, u16 cmd, u32 status),
	    TP_ARGS(conn, mid, cmd, status),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u16, cmd)
			     __field(u32, status)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->mid = mid;
			   __entry->cmd = cmd;
			   __entry->status = status;),
	    TP_printk("conn=%u mid=%llu cmd=%s status=0x%08x", __entry->conn,
		      __entry->mid, smbsrv_show_cmd(__entry->cmd),
		      __entry->status)
);

TRACE_EVENT(smbsrv_rsp_queued,
	    TP_PROTO(u32 conn, const struct kvec *iov, unsigned int n, u32 len),
	    TP_ARGS(conn, iov, n, len),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u16, cmd)
			     __field(u32, len)),
	    TP_fast_assign(__entry->conn = conn;
			   smbsrv_trace_peek_iov(iov, n, &__entry->mid,
						 &__entry->cmd);
			   __entry->len = len;),
	    TP_printk("conn=%u mid=%llu cmd=%s len=%u", __entry->conn,
		      __entry->mid, smbsrv_show_cmd(__entry->cmd),
		      __entry->len)
);

TRACE_EVENT(smbsrv_frame_written,
	    TP_PROTO(u32 conn, u64 mid, u32 bytes, u32 batch, bool spliced),
	    TP_ARGS(conn, mid, bytes, batch, spliced),
	    TP_STRUCT__entry(__field(u32, conn)
			     __field(u64, mid)
			     __field(u32, bytes)
			     __field(u32, batch)
			     __field(bool, spliced)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->mid = mid;
			   __entry->bytes = bytes;
			   __entry->batch = batch;
			   __entry->spliced = spliced;),
	    TP_printk("conn=%u mid=%llu bytes=%u batch=%u %s", __entry->conn,
		      __entry->mid, __entry->bytes, __entry->batch,
		      __entry->spliced ? "spliced" : "copied")
);

DECLARE_EVENT_CLASS(smbsrv_upcall_class,
		    TP_PROTO(u32 conn, u64 mid, const char *kind, int err),
		    TP_ARGS(conn, mid, kind, err),
		    TP_STRUCT__entry(__field(u32, conn)
				     __field(u64, mid)
				     __string(kind, kind)
				     __field(int, err)),
		    TP_fast_assign(__entry->conn = conn;
				   __entry->mid = mid;
				   __assign_str(kind);
				   __entry->err = err;),
		    TP_printk("conn=%u mid=%llu kind=%s err=%d", __entry->conn,
			      __entry->mid, __get_str(kind), __entry->err)
);

DEFINE_EVENT(smbsrv_upcall_class, smbsrv_upcall_sent,
	     TP_PROTO(u32 conn, u64 mid, const char *kind, int err),
	     TP_ARGS(conn, mid, kind, err));

DEFINE_EVENT(smbsrv_upcall_class, smbsrv_upcall_answered,
	     TP_PROTO(u32 conn, u64 mid, const char *kind, int err),
	     TP_ARGS(conn, mid, kind, err));

#endif /* _SMBSRV_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
