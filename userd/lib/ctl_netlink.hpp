// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl's side of the netlink family: the session, connection and
// queue dumps, kill, knobs-set.  Built on GenlChannel::request(), so the whole
// of it runs in unit tests against a fake module.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bytes.hpp"
#include "netlink.hpp"

namespace smbsrv {

struct SessionInfo {
	uint64_t id = 0;
	uint32_t conn_id = 0;
	std::string user, domain, client;
	uint32_t dialect = 0;
	uint32_t flags = 0; // enum smbsrv_session_flags
	bool signing = false, encryption = false;
	uint32_t trees = 0, open_files = 0, age = 0;
	std::vector<uint32_t> channels; // connection ids, one per channel
	std::string principal;		// Kerberos logons: the client principal
};

struct ConnectionInfo {
	uint32_t id = 0;
	std::string client;
	uint32_t dialect = 0, sessions = 0, credits = 0, age = 0;
	uint64_t requests = 0;
};

// One request workqueue of the module and its counters (queue-get).
struct QueueInfo {
	uint32_t index = 0;
	std::string name;
	bool unbound = false;
	uint64_t queued = 0, completed = 0, wait_ns = 0;
	uint32_t inflight = 0, inflight_max = 0;
	uint64_t sends = 0, responses = 0, batched_sends = 0;
	uint32_t batch_max = 0;
};

// One open file with its client caching (open-get).
struct OpenInfo {
	uint64_t session_id = 0; // 0: a disconnected durable handle
	uint32_t tree_id = 0;
	uint64_t persistent_id = 0, volatile_id = 0;
	std::string path, share;
	uint32_t access = 0;
	uint32_t oplock = 0;	  // SMB2 OplockLevel, 0xff: a lease
	uint32_t lease_state = 0; // 1 R, 2 H, 4 W
	std::string lease_key;	  // 32 hex digits, empty without a lease
	uint32_t lease_epoch = 0;
	bool breaking = false;
	uint32_t durable = 0;	// 0, or the durable handle version
	uint32_t disconnected_left = 0;
};

// The READ path's counters (read-stats-get).  copy_* break "copied" down
// by the first reason that kept a READ from being spliced.
struct ReadStats {
	uint64_t spliced = 0, spliced_bytes = 0, copied = 0, copied_bytes = 0;
	uint64_t copy_off = 0, copy_small = 0, copy_stream = 0, copy_nonreg = 0,
		 copy_compound = 0, copy_nocache = 0, copy_error = 0;
	uint64_t inline_hits = 0, inline_misses = 0, inline_deferred = 0;
	uint64_t pages_inflight = 0;
};

// The WRITE path's counters (write-stats-get).  one_copy_signed and
// one_copy_sealed: of the one-copy WRITEs, the signed and the encrypted
// ones; copy_* break "copied" down by the first reason that kept a
// WRITE's data out of pages; inline*: WRITEs the receiver ran itself,
// alone in flight or at depth, and those it tried and handed to a worker.
struct WriteStats {
	uint64_t one_copy = 0, one_copy_bytes = 0, one_copy_signed = 0,
		 one_copy_sealed = 0;
	uint64_t copied = 0, copied_bytes = 0;
	uint64_t copy_off = 0, copy_small = 0, copy_sealed = 0,
		 copy_compound = 0, copy_stream = 0, copy_other = 0;
	uint64_t inline_alone = 0, inline_depth = 0, inline_deferred = 0;
};

// One SMB2 command's counters (stats-get): requests ended, of them with
// an error status, their latency summed and per bucket (not cumulative;
// the last bucket has no bound).
struct CommandStats {
	uint32_t command = 0;
	uint64_t requests = 0, errors = 0, latency_ns = 0;
	std::vector<uint64_t> buckets;
};

// The server-wide counters of stats-get.
struct ServerCounters {
	uint64_t write_bytes = 0;
	uint64_t oplock_breaks = 0, lease_breaks = 0;
	uint32_t open_files = 0;
	uint64_t audit_records = 0, audit_dropped = 0;
	uint64_t bad_signatures = 0; // signed requests refused: bad signature
	std::vector<uint64_t> latency_bounds_ns; // ascending, inclusive
	std::vector<CommandStats> commands;
};

// One message of the session-get / connection-get / queue-get dumps.
SessionInfo parse_session(ByteView msg);
ConnectionInfo parse_connection(ByteView msg);
QueueInfo parse_queue(ByteView msg);
OpenInfo parse_open(ByteView msg);
ReadStats parse_read_stats(ByteView msg);
WriteStats parse_write_stats(ByteView msg);
ServerCounters parse_server_counters(ByteView msg);

std::vector<SessionInfo> list_sessions(GenlChannel &nl);
std::vector<ConnectionInfo> list_connections(GenlChannel &nl);
std::vector<QueueInfo> list_queues(GenlChannel &nl);
ReadStats read_stats(GenlChannel &nl);
WriteStats write_stats(GenlChannel &nl);
ServerCounters server_counters(GenlChannel &nl);
std::vector<OpenInfo> list_opens(GenlChannel &nl);

// "RWH", "RH", "R", "" for lease states; "batch", "exclusive", "level2",
// "none", "lease" for oplock levels.
std::string lease_state_name(uint32_t state);
std::string oplock_name(uint32_t level);
void kill_session(GenlChannel &nl, uint64_t id);
void kill_connection(GenlChannel &nl, uint32_t id);

// Change the knobs whose attributes are in attrs (SMBSRV_A_KNOBS_*) to
// their values in k; returns the knobs the module then runs with.
Knobs set_knobs(GenlChannel &nl, const Knobs &k, std::span<const int> attrs);

// "read", "session_setup", ... for an SMB2 command code.
std::string smb2_command_name(uint32_t cmd);

// "3.1.1" for 0x0311.
std::string dialect_name(uint32_t dialect);

} // namespace smbsrv
