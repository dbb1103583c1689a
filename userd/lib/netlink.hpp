// SPDX-License-Identifier: GPL-2.0-or-later
//
// The daemon's and CLI's view of smbsrv.ko: the generic netlink family
// "smbsrv" described by Documentation/netlink/specs/smbsrv.yaml.
//
// KernelChannel is what the daemon's logic talks to; GenlChannel
// implements it over an NlSocket, which is a real netlink socket (libnl)
// in the programs and a fake kernel in the unit tests.  The module's
// upcalls (session-setup-req, tree-connect-req, rpc-req) arrive as events
// on the daemon's socket, possibly while a request of ours is waiting for
// its answer: they are queued, never lost, and taken with next_upcall().
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "bytes.hpp"
#include "cluster_rec.hpp"
#include "params.hpp"

extern "C" {
#include "snap.h"
}

struct nl_msg;
struct nl_sock;

namespace smbsrv {

// A share with tree connects now (its max connections, 0: none).
struct ShareUse {
	std::string name;
	uint32_t trees = 0;
	uint32_t max_connections = 0;
};

struct ServerStatus {
	std::string module_version;
	bool daemon_running = false;
	uint32_t daemon_pid = 0;
	uint32_t listen_port = 0; // 0: not listening
	// The addresses listened on ("::" or "0.0.0.0": every address).
	std::vector<std::string> listen_addrs;
	uint32_t connections = 0;
	uint32_t sessions = 0;
	// Admission and idleness (kmod/conn.c), since the module was loaded.
	uint64_t conns_refused = 0;
	uint64_t conns_evicted = 0;
	uint64_t conns_logon_expired = 0;
	uint64_t conns_idle_closed = 0;
	Knobs knobs;
	std::vector<int> knobs_reported; // SMBSRV_A_KNOBS_* the module sent
	// Names matched without case: directories read, entries read, names
	// answered from a cached listing.
	uint64_t fold_scans = 0, fold_entries = 0, fold_cached = 0;
	std::vector<ShareUse> share_uses;
	// The budget of opens (kmod/budget.h): held now, refused since load
	// past server max open files and past max open files per user.
	uint32_t opens = 0;
	uint64_t opens_refused = 0, opens_refused_user = 0;
};

// A failed exchange with the module: errno-style code and the module's
// own explanation (netlink extended ack) when it gave one.
class NlError : public std::runtime_error {
public:
	NlError(int err, const std::string &what)
		: std::runtime_error(what), err_(err)
	{
	}
	[[nodiscard]] int err() const { return err_; }

private:
	int err_;
};

// The family is not registered: smbsrv.ko is not loaded.
class ModuleNotLoaded : public NlError {
public:
	ModuleNotLoaded()
		: NlError(2, "the smbsrv kernel module is not loaded; load it "
			     "with 'modprobe smbsrv' (or 'insmod smbsrv.ko') "
			     "and try again")
	{
	}
};

// --- Upcalls and their answers (attribute sets auth, tree, share, rpc) ---

struct SessionSetupReq {
	uint32_t handle = 0;
	uint64_t session_id = 0;
	std::string client_addr;
	uint32_t dialect = 0;
	Bytes blob;
};

struct SessionSetupDone {
	uint32_t handle = 0;
	uint32_t status = 0; // NTSTATUS
	Bytes blob;
	Bytes session_key;
	// Sent only when status is STATUS_SUCCESS.
	uint32_t uid = 0, gid = 0;
	std::vector<uint32_t> groups;
	uint32_t flags = 0; // enum smbsrv_session_flags
	std::string user, domain;
	std::string principal; // Kerberos logons
	// The token's SIDs (a PAC's) in wire form, in the module's order.
	std::vector<Bytes> sids;
};

struct TreeConnectReq {
	uint32_t handle = 0;
	uint64_t session_id = 0;
	std::string user;
	uint32_t uid = 0;
	uint32_t session_flags = 0;
	std::string client_addr;
	std::string share_name;
};

struct ShareInfo {
	std::string name;
	std::string path; // empty for IPC$
	uint32_t flags = 0; // enum smbsrv_share_flags
	std::optional<uint32_t> force_uid, force_gid;
	uint32_t create_mask = 0744, directory_mask = 0755;
	uint32_t force_create_mode = 0, force_directory_mode = 0;
	std::string veto_files; // "/pattern/pattern/", empty for none
	std::string hide_files; // the same syntax: reported hidden
	uint32_t max_connections = 0;
	// With SMBSRV_SHARE_FLAGS_SHADOW_COPY: where the snapshots are.
	std::string snap_dir, snap_subdir, snap_format;
	uint32_t snap_sort = 0; // enum smbsrv_snap_sort
	std::vector<smb_snap_zone> snap_zone; // shadow:localtime; empty: UTC
	// full_audit: operations audited on success and on failure, bits
	// 1 << SMBSRV_AUDIT_OP_*.
	uint32_t audit_success = 0, audit_failure = 0;
	// With SMBSRV_SHARE_FLAGS_FRUIT: enum smbsrv_fruit_flags, the AAPL
	// model string, Time Machine's size (0: the file system's).
	uint32_t fruit_flags = 0;
	std::string fruit_model;
	uint64_t fruit_tm_max_size = 0;
};

struct TreeConnectDone {
	uint32_t handle = 0;
	uint32_t status = 0;
	std::optional<ShareInfo> share; // with STATUS_SUCCESS
};

struct RpcReq {
	uint32_t handle = 0;
	uint64_t session_id = 0;
	uint32_t pipe_id = 0;
	uint32_t op = 0; // enum smbsrv_rpc_op
	std::string pipe_name;
	std::string user;
	Bytes data;
	uint32_t max_out = 0;
};

struct RpcDone {
	uint32_t handle = 0;
	uint32_t status = 0;
	Bytes data;
};

using Upcall = std::variant<SessionSetupReq, TreeConnectReq, RpcReq>;

// Cluster mode: a question to the cluster state store (cluster.hpp).
struct ClusterReq {
	uint32_t handle = 0;
	uint32_t op = 0; // enum smbsrv_cluster_op
	uint64_t ino = 0;
	std::string stream; // "": the file itself
	uint32_t access = 0, share = 0;		// the new open's
	uint32_t node_access = 0, node_share = 0; // the node's aggregate after
	Bytes locks; // lock, unlock: the node's locks (wire/cluster.h)
	uint32_t caching = 0; // the node's caching (lease bits) after it
};

class KernelChannel {
public:
	virtual ~KernelChannel() = default;
	// The daemon announces itself, its knobs and the security blob of
	// NEGOTIATE responses; the module starts or moves its listener and
	// answers with its state.
	virtual ServerStatus startup(uint32_t pid, const Knobs &knobs,
				     ByteView negotiate_blob) = 0;
	virtual ServerStatus status() = 0;
	// Answers to upcalls.  An NlError means the module refused the
	// answer (ENOENT: the upcall had timed out meanwhile).
	virtual void session_setup_done(const SessionSetupDone &done) = 0;
	virtual void tree_connect_done(const TreeConnectDone &done) = 0;
	virtual void rpc_done(const RpcDone &done) = 0;
};

// Something the kernel told us without being asked.
enum class KernelEvent {
	module_loaded,	 // the smbsrv family (re)appeared
	module_unloaded, // the smbsrv family went away
};

// The datagram socket under GenlChannel.
class NlSocket {
public:
	virtual ~NlSocket() = default;
	// Send one complete netlink message to the kernel; throws NlError.
	virtual void send(ByteView msg) = 0;
	// One datagram (one or more netlink messages), or nullopt if none
	// arrives within timeout_ms (0: do not wait, -1: wait for ever).
	// Throws NlError; ENOBUFS means the receive queue overflowed and
	// messages were lost, the socket still works.
	virtual std::optional<Bytes> recv(int timeout_ms) = 0;
	[[nodiscard]] virtual int fd() const = 0;
};

// A netlink socket to the kernel's generic netlink, through libnl.
class LibnlSocket final : public NlSocket {
public:
	// Throws ModuleNotLoaded or NlError.  With watch_module, the socket
	// joins nlctrl's notify group to follow the family's registration.
	explicit LibnlSocket(bool watch_module);
	~LibnlSocket() override;
	LibnlSocket(const LibnlSocket &) = delete;
	LibnlSocket &operator=(const LibnlSocket &) = delete;

	void send(ByteView msg) override;
	std::optional<Bytes> recv(int timeout_ms) override;
	[[nodiscard]] int fd() const override;
	[[nodiscard]] int family() const { return family_; }

private:
	nl_sock *sk_ = nullptr;
	int family_ = 0;
};

class GenlChannel final : public KernelChannel {
public:
	// Talks to the module through a LibnlSocket.
	explicit GenlChannel(bool watch_module = false);
	// Talks through sock to the family with id family (tests).
	GenlChannel(std::unique_ptr<NlSocket> sock, int family);
	~GenlChannel() override;
	GenlChannel(const GenlChannel &) = delete;
	GenlChannel &operator=(const GenlChannel &) = delete;

	ServerStatus startup(uint32_t pid, const Knobs &knobs,
			     ByteView negotiate_blob) override;
	ServerStatus status() override;
	void session_setup_done(const SessionSetupDone &done) override;
	void tree_connect_done(const TreeConnectDone &done) override;
	void rpc_done(const RpcDone &done) override;

	// A request of command cmd whose attributes fill adds (false: no
	// room); returns the messages the module answered with (whole
	// netlink messages), after its acknowledgement.  With dump, a dump
	// request.  Throws NlError with the module's explanation.
	std::vector<Bytes> request(uint8_t cmd, const std::function<bool(nl_msg *)> &fill,
				   bool dump = false);

	// For the daemon's poll loop.
	[[nodiscard]] int fd() const;
	void on_event(std::function<void(KernelEvent)> handler) { event_handler_ = std::move(handler); }
	// Audit records (audit-record) as they arrive, whole messages.
	void on_audit(std::function<void(ByteView)> handler) { audit_handler_ = std::move(handler); }
	// Cluster mode's upcalls go to handler, unqueued (it queues them for
	// its own worker); without one they are not answered.
	void on_cluster(std::function<void(ClusterReq)> handler)
	{
		cluster_handler_ = std::move(handler);
	}
	// @caching: op caching's answer, what the other nodes allow.
	void cluster_done(uint32_t handle, uint32_t status, uint32_t caching);
	// Hand the module what another node pushed (its locks, a break, a
	// wake); returns once it applied it.
	void cluster_view(const cluster::Push &v);

	// Cluster mode's liveness: pass the node's deadline (CLOCK_MONOTONIC
	// ns; one already past fences now) and incarnation; without a
	// deadline only ask.  Returns what the module holds then.
	struct ClusterAlive {
		uint64_t deadline_ns = 0;
		uint64_t incarnation = 0;
	};
	ClusterAlive cluster_alive(std::optional<uint64_t> deadline_ns, uint64_t incarnation);
	// Read and handle whatever the kernel sent, without blocking; false
	// if the socket failed.
	bool process_input();
	// The oldest upcall not yet taken.
	std::optional<Upcall> next_upcall();
	[[nodiscard]] bool module_present() const { return family_ > 0; }
	[[nodiscard]] const std::string &last_error() const { return last_error_; }
	// How long request() waits for the module's answer.
	void set_timeout(std::chrono::milliseconds t) { timeout_ = t; }

private:
	struct Pending;
	void dispatch(ByteView datagram, Pending *pending);
	void handle_ctrl(ByteView msg);
	void handle_event(ByteView msg);
	ServerStatus transact_server(uint8_t cmd, const std::function<bool(nl_msg *)> &fill);

	std::unique_ptr<NlSocket> sock_;
	int family_ = 0;
	uint32_t seq_ = 0;
	std::chrono::milliseconds timeout_{10000};
	std::deque<Upcall> upcalls_;
	std::function<void(KernelEvent)> event_handler_;
	std::function<void(ByteView)> audit_handler_;
	std::function<void(ClusterReq)> cluster_handler_;
	std::string last_error_;
};

} // namespace smbsrv
