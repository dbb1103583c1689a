// SPDX-License-Identifier: GPL-2.0-or-later
//
// Cluster mode's node (Documentation/design-cluster.md): this daemon's
// connection to the cluster state store in Ceph RADOS.  librados is loaded
// when a node starts (dlopen of librados.so.2), so a server without
// clustering neither needs nor loads it.
//
// A node holds cls_lock "alive" on its object node.NAME (exclusive,
// renewed every 3 s for 15 s), records its incarnation there ("inc"),
// and watches that object; every 5 s it looks for nodes whose lock
// expired and removes their keys from the files' records (the reaper); it answers the
// module's cluster-req upcalls on a worker thread (RADOS round trips must
// not hold up logons), the answers going out on the main thread, as the
// session setups of the AuthPool do.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cluster_rec.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv::cluster {

struct Options {
	std::string ns;	       // cluster name: the RADOS namespace
	std::string pool;      // cluster state store = rados:POOL
	std::string ceph_conf; // cluster ceph conf
	std::string user;      // cluster ceph user (cephx id, no "client.")
	std::string node;      // cluster node name
	uint64_t resume = 0;   // the incarnation the module still serves (0: none)
	std::vector<std::string> paths; // the shares' paths: all on the cluster's CephFS
};

// The [global] options, checked; throws std::runtime_error with the reason.
Options options_from(const ParamSet &global);

class Error : public std::runtime_error {
public:
	Error(const std::string &what, int err);
	[[nodiscard]] int err() const { return err_; }

private:
	int err_;
};

using Request = ClusterReq;

struct Reply {
	uint32_t handle = 0;
	uint32_t status = 0;
	uint32_t caching = 0; // op caching: what the other nodes' opens allow
};

struct Rados; // the librados entry points, loaded

class Node {
public:
	// Connects, takes the node's lock (waiting up to twice its duration
	// for a previous incarnation's to expire) and watches its object.
	// Throws Error.
	explicit Node(Options o);
	~Node();
	Node(const Node &) = delete;
	Node &operator=(const Node &) = delete;

	// Queue a request; its reply is ready when fd() is readable.
	void submit(Request r);
	[[nodiscard]] int fd() const { return efd_; }
	std::vector<Reply> take_replies();

	// Liveness: after each renewal, the deadline to pass to the module
	// (cluster-alive) and this incarnation; lost() once the lease is
	// lost (the daemon must stop: the module fences).  fd() becomes
	// readable for these too.
	struct Alive {
		uint64_t deadline_ns; // CLOCK_MONOTONIC
		uint64_t incarnation;
	};
	std::optional<Alive> take_alive();
	bool lost();

	// Answer one request now (the worker's work; tests).
	Reply serve(const Request &r);

	[[nodiscard]] const Options &options() const { return opt_; }

	// Where other nodes' pushes go (the module, cluster-view): @sink
	// returns once applied; called from librados' and the worker's
	// threads, one at a time.
	void on_view(std::function<void(const Push &)> sink);
	// Hand @p to the sink (a notify arrived, or a record was read).
	void deliver(const Push &p);
	// A notify arrived: a break request is remembered (its node is woken
	// when this node's caching of the file went down), then delivered.
	void received(const Push &p);
	// Another node renames the directory p.ino: whether the module has
	// anything below it open.
	bool open_below(const Push &p);

private:
	// One change of this node's keys in a file record: @key set to
	// @value, or removed.
	struct Change {
		std::string key;
		Bytes value;
		bool remove = false;
	};
	using Omap = std::map<std::string, Bytes>;
	// The guarded read-modify-write every record change makes: read
	// @oid's keys, let @decide look at them (SUCCESS: write its changes;
	// again: read once more; anything else: the answer, nothing
	// written), write guarded by the version read (or by exclusive
	// create), retry a lost race, then @committed with what was read
	// and the new version.
	static constexpr uint32_t again = 0xffffffffU;
	uint32_t update(const std::string &oid,
			const std::function<uint32_t(const Omap &, std::vector<Change> &)> &decide,
			const std::function<void(const Omap &, uint64_t)> &committed);
	uint32_t open(const Request &r);
	uint32_t close(const Request &r);
	uint32_t locks(const Request &r, bool check);
	uint32_t caching(const Request &r, uint32_t &allowed);
	uint32_t disposition(const Request &r, bool set);
	uint32_t unlink(const Request &r);
	uint32_t opened(const Request &r);
	uint32_t handles(const Request &r);
	uint32_t rename_check(const Request &r);
	void push(const Push &p, const std::set<std::string> &nodes);
	// Directory leases (design-cluster.md, "Directory leases"): this
	// node's lease of a directory recorded in object "dirleases" (or
	// removed) and announced to every node (a notify on it, which all
	// watch); a change of a directory another node leases, told to it.
	uint32_t dir_lease(const Request &r);
	uint32_t dir_changed(const Request &r);
	// A mark (DIRMARK) from a notify; deliveries to the module after.
	void dir_mark(const Push &p);
	// Node @node's keys of "dirleases" removed and every node told (a
	// dead node's, by its reaper; this node's own left by an earlier
	// incarnation, at a fresh join).  How many keys went.
	size_t drop_dirleases(const std::string &node);
	// At start: watch "dirleases", then read the marks it holds.
	void dir_join();
	// Notify "dirleases" (every node) of @p, through rados_ioctx_t @ioctx.
	void announce_dirmark(void *ioctx, const Push &p);
	// Wake the nodes whose CREATEs wait for this node's caching of a
	// file to go down (it changed).
	void wake_breakers(uint64_t ino, const std::string &stream);
	// CREATEs of this node waiting for another's break: woken every
	// second (the holder's wake may never come: it died, or its daemon
	// restarted), each running again and asking again.
	void wake_waiters();
	size_t reap_file(const std::string &oid, const std::string &dead);
	void join();
	void lock_alive(bool renew);
	void announce();
	void sweep();
	void reaper();
	void worker();
	void renewer();
	void renew();
	void wake();
	void resume();
	std::vector<std::string> client_addrs();
	void record_addrs();
	void fence_node(const std::string &node, const std::string &value);
	void check_fs();

	Options opt_;
	std::unique_ptr<Rados> r_;
	void *cluster_ = nullptr;  // rados_t
	void *io_ = nullptr;	   // rados_ioctx_t: the worker's
	void *lock_io_ = nullptr;  // rados_ioctx_t: the renewer's and the watch's
	void *reap_io_ = nullptr;  // rados_ioctx_t: the reaper's file records
	uint64_t watch_ = 0;
	void *watch_ctx_ = nullptr;
	uint64_t dir_watch_ = 0;     // on "dirleases"
	void *dir_watch_ctx_ = nullptr;
	std::string cookie_;	   // this incarnation's lock cookie
	uint64_t inc_ = 0;	   // the same, as a number
	std::string addrs_;	   // the "addrs" recorded (reaper thread)
	bool cephfs_warned_ = false;
	uint64_t deadline_ns_ = 0; // the module's deadline (under mu_)
	bool alive_pending_ = false;
	bool lost_ = false;
	int efd_ = -1;

	std::mutex mu_;
	std::condition_variable cv_;
	std::deque<Request> queue_;
	std::vector<Reply> replies_;
	bool stop_ = false;
	std::thread worker_, renewer_, reaper_;
	std::mutex view_mu_; // view_sink_, and one delivery at a time
	std::function<void(const Push &)> view_sink_;
	// Under mu_: the nodes that asked this node to break its caching of
	// (ino, stream), to wake when it went down; this node's files whose
	// CREATEs wait for another node's break.
	std::map<std::pair<uint64_t, std::string>, std::set<std::string>> breakers_;
	std::set<std::pair<uint64_t, std::string>> waits_;
	// Under mu_: the other nodes leasing each directory (by ino).
	std::map<uint64_t, std::set<std::string>> dirmarks_;
};

} // namespace smbsrv::cluster
