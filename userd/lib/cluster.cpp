// SPDX-License-Identifier: GPL-2.0-or-later
#include "cluster.hpp"

#include <dlfcn.h>
#include <rados/librados.h>
#include <linux/magic.h>
#include <sys/eventfd.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include <linux/smbsrv.h>

#include "log.hpp"
#include "ntstatus.hpp"
#include "oplock.h"

extern "C" {
#include "oplock.h"
}

namespace smbsrv::cluster {

// librados' C API, loaded by name: the types are the header's.
struct Rados {
	void *lib = nullptr;
	decltype(&::rados_create2) rados_create2 = nullptr;
	decltype(&::rados_conf_read_file) rados_conf_read_file = nullptr;
	decltype(&::rados_conf_set) rados_conf_set = nullptr;
	decltype(&::rados_connect) rados_connect = nullptr;
	decltype(&::rados_shutdown) rados_shutdown = nullptr;
	decltype(&::rados_ioctx_create) rados_ioctx_create = nullptr;
	decltype(&::rados_ioctx_destroy) rados_ioctx_destroy = nullptr;
	decltype(&::rados_ioctx_set_namespace) rados_ioctx_set_namespace = nullptr;
	decltype(&::rados_get_last_version) rados_get_last_version = nullptr;
	decltype(&::rados_lock_exclusive) rados_lock_exclusive = nullptr;
	decltype(&::rados_unlock) rados_unlock = nullptr;
	decltype(&::rados_watch3) rados_watch3 = nullptr;
	decltype(&::rados_unwatch2) rados_unwatch2 = nullptr;
	decltype(&::rados_notify_ack) rados_notify_ack = nullptr;
	decltype(&::rados_notify2) rados_notify2 = nullptr;
	decltype(&::rados_buffer_free) rados_buffer_free = nullptr;
	decltype(&::rados_create_read_op) rados_create_read_op = nullptr;
	decltype(&::rados_release_read_op) rados_release_read_op = nullptr;
	decltype(&::rados_read_op_omap_get_vals2) rados_read_op_omap_get_vals2 = nullptr;
	decltype(&::rados_read_op_operate) rados_read_op_operate = nullptr;
	decltype(&::rados_omap_get_next2) rados_omap_get_next2 = nullptr;
	decltype(&::rados_omap_get_end) rados_omap_get_end = nullptr;
	decltype(&::rados_create_write_op) rados_create_write_op = nullptr;
	decltype(&::rados_release_write_op) rados_release_write_op = nullptr;
	decltype(&::rados_write_op_assert_version) rados_write_op_assert_version = nullptr;
	decltype(&::rados_write_op_create) rados_write_op_create = nullptr;
	decltype(&::rados_write_op_omap_set2) rados_write_op_omap_set2 = nullptr;
	decltype(&::rados_write_op_omap_rm_keys2) rados_write_op_omap_rm_keys2 = nullptr;
	decltype(&::rados_write_op_operate) rados_write_op_operate = nullptr;
	decltype(&::rados_nobjects_list_open) rados_nobjects_list_open = nullptr;
	decltype(&::rados_nobjects_list_next) rados_nobjects_list_next = nullptr;
	decltype(&::rados_nobjects_list_close) rados_nobjects_list_close = nullptr;
	decltype(&::rados_list_lockers) rados_list_lockers = nullptr;
	decltype(&::rados_break_lock) rados_break_lock = nullptr;
	decltype(&::rados_getaddrs) rados_getaddrs = nullptr;
	decltype(&::rados_blocklist_add) rados_blocklist_add = nullptr;
	decltype(&::rados_cluster_fsid) rados_cluster_fsid = nullptr;
	decltype(&::rados_write_op_omap_cmp) rados_write_op_omap_cmp = nullptr;

	Rados()
	{
		lib = dlopen("librados.so.2", RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			throw Error(std::string("cannot load librados: ") + dlerror(), ENOENT);
		load(rados_create2, "rados_create2");
		load(rados_conf_read_file, "rados_conf_read_file");
		load(rados_conf_set, "rados_conf_set");
		load(rados_connect, "rados_connect");
		load(rados_shutdown, "rados_shutdown");
		load(rados_ioctx_create, "rados_ioctx_create");
		load(rados_ioctx_destroy, "rados_ioctx_destroy");
		load(rados_ioctx_set_namespace, "rados_ioctx_set_namespace");
		load(rados_get_last_version, "rados_get_last_version");
		load(rados_lock_exclusive, "rados_lock_exclusive");
		load(rados_unlock, "rados_unlock");
		load(rados_watch3, "rados_watch3");
		load(rados_unwatch2, "rados_unwatch2");
		load(rados_notify_ack, "rados_notify_ack");
		load(rados_notify2, "rados_notify2");
		load(rados_buffer_free, "rados_buffer_free");
		load(rados_create_read_op, "rados_create_read_op");
		load(rados_release_read_op, "rados_release_read_op");
		load(rados_read_op_omap_get_vals2, "rados_read_op_omap_get_vals2");
		load(rados_read_op_operate, "rados_read_op_operate");
		load(rados_omap_get_next2, "rados_omap_get_next2");
		load(rados_omap_get_end, "rados_omap_get_end");
		load(rados_create_write_op, "rados_create_write_op");
		load(rados_release_write_op, "rados_release_write_op");
		load(rados_write_op_assert_version, "rados_write_op_assert_version");
		load(rados_write_op_create, "rados_write_op_create");
		load(rados_write_op_omap_set2, "rados_write_op_omap_set2");
		load(rados_write_op_omap_rm_keys2, "rados_write_op_omap_rm_keys2");
		load(rados_write_op_operate, "rados_write_op_operate");
		load(rados_nobjects_list_open, "rados_nobjects_list_open");
		load(rados_nobjects_list_next, "rados_nobjects_list_next");
		load(rados_nobjects_list_close, "rados_nobjects_list_close");
		load(rados_list_lockers, "rados_list_lockers");
		load(rados_break_lock, "rados_break_lock");
		load(rados_getaddrs, "rados_getaddrs");
		load(rados_blocklist_add, "rados_blocklist_add");
		load(rados_cluster_fsid, "rados_cluster_fsid");
		load(rados_write_op_omap_cmp, "rados_write_op_omap_cmp");
	}
	// Not unloaded: librados' threads and atexit handlers may outlive
	// the handle.
	~Rados() = default;
	Rados(const Rados &) = delete;
	Rados &operator=(const Rados &) = delete;

private:
	template <class F> void load(F &fn, const char *name)
	{
		fn = reinterpret_cast<F>(dlsym(lib, name));
		if (!fn)
			throw Error(std::string("librados.so.2 lacks ") + name, ENOSYS);
	}
};

namespace {

constexpr int lock_seconds = 15;	// the lock's duration D
constexpr auto renew_every = std::chrono::seconds(3);
constexpr uint32_t watch_timeout = 10;	// seconds
constexpr const char *lock_name = "alive";
constexpr const char *reaper_lock = "reaper";
constexpr auto sweep_every = std::chrono::seconds(5);
constexpr int max_tries = 16;		// guarded writes that lost a race
// The kernel's deadline: the renewal's send time + D - 3 s (the OSD
// starts D when the request arrives, by its own clock).
constexpr uint64_t alive_margin_ns = uint64_t(lock_seconds - 3) * 1000000000ULL;
constexpr const char *addrs_key = "addrs";
constexpr const char *meta_object = "meta";
constexpr const char *ceph_debugfs = "/sys/kernel/debug/ceph";
// Directory leases: key "INO.NODE" (ino in hex) per node leasing a
// directory; every node watches it.
constexpr const char *dirleases_object = "dirleases";

uint64_t now_ns()
{
	return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
				std::chrono::steady_clock::now().time_since_epoch())
				.count());
}

rados_t cl(void *p) { return static_cast<rados_t>(p); }
rados_ioctx_t io(void *p) { return static_cast<rados_ioctx_t>(p); }

void watch_cb(void *arg, uint64_t notify_id, uint64_t handle, uint64_t /*notifier*/,
	      void * /*data*/, size_t /*len*/);
void watch_err(void * /*arg*/, uint64_t /*cookie*/, int err)
{
	log::warning("cluster: the watch on this node's object failed: " +
		     std::string(std::strerror(-err)));
}

struct WatchCtx {
	Rados *r;
	rados_ioctx_t io;
	std::string oid;
	Node *node;
};

// A notify is another node's push: handed to the module, then
// acknowledged, so that the notifier answers its client only once this
// node applied it.  One that does not decode is acknowledged and logged.
void watch_cb(void *arg, uint64_t notify_id, uint64_t handle, uint64_t, void *data, size_t len)
{
	auto *w = static_cast<WatchCtx *>(arg);
	char busy = 0;
	if (len) {
		auto p = decode_push(static_cast<const uint8_t *>(data), len);
		if (p && p->kind == SMB_CLUSTER_PUSH_RENAME_CHECK)
			busy = w->node->open_below(*p) ? 1 : 0;
		else if (p)
			w->node->received(*p);
		else
			log::warning("cluster: a notify that does not decode, ignored");
	}
	// A rename check's answer rides on the acknowledgement.
	w->r->rados_notify_ack(w->io, w->oid.c_str(), notify_id, handle, busy ? &busy : nullptr,
			       busy ? 1 : 0);
}

constexpr uint64_t notify_timeout_ms = 5000;
// CREATEs waiting for another node's break run again at least this often.
constexpr auto waiters_every = std::chrono::seconds(1);
// Break requests remembered at most (the rest wait for the period above).
constexpr size_t max_breakers = 4096;

} // namespace

Error::Error(const std::string &what, int err)
	: std::runtime_error(what + (err ? std::string(": ") + std::strerror(err) : "")),
	  err_(err)
{
}

Options options_from(const ParamSet &g)
{
	Options o;
	o.ns = g.str("cluster name");
	const std::string &store = g.str("cluster state store");
	if (store.rfind("rados:", 0) != 0 || store.size() == 6)
		throw std::runtime_error("cluster state store: 'rados:POOL', not '" + store + "'");
	o.pool = store.substr(6);
	o.ceph_conf = g.str("cluster ceph conf");
	o.user = g.str("cluster ceph user");
	o.node = g.str("cluster node name");
	if (o.node.empty()) {
		char host[256] = {};
		if (gethostname(host, sizeof(host) - 1) == 0)
			o.node = host;
		if (auto dot = o.node.find('.'); dot != std::string::npos)
			o.node.resize(dot);
	}
	if (!valid_node_name(o.node))
		throw std::runtime_error("cluster node name: '" + o.node +
					 "' (1 to 64 letters, digits, '_' or '-')");
	if (o.ns.empty())
		throw std::runtime_error("cluster name: empty");
	return o;
}

Node::Node(Options o) : opt_(std::move(o)), r_(std::make_unique<Rados>())
{
	rados_t c = nullptr;
	std::string who = "client." + opt_.user;
	int err = r_->rados_create2(&c, "ceph", who.c_str(), 0);
	if (err < 0)
		throw Error("cluster: rados_create2", -err);
	cluster_ = c;
	auto fail = [&](const std::string &what, int e) {
		if (io_)
			r_->rados_ioctx_destroy(io(io_));
		if (lock_io_)
			r_->rados_ioctx_destroy(io(lock_io_));
		if (reap_io_)
			r_->rados_ioctx_destroy(io(reap_io_));
		r_->rados_shutdown(c);
		throw Error("cluster: " + what, -e);
	};
	if ((err = r_->rados_conf_read_file(c, opt_.ceph_conf.c_str())) < 0)
		fail("reading " + opt_.ceph_conf, err);
	if ((err = r_->rados_connect(c)) < 0)
		fail("connecting to the Ceph cluster", err);
	rados_ioctx_t a = nullptr, b = nullptr;
	if ((err = r_->rados_ioctx_create(c, opt_.pool.c_str(), &a)) < 0)
		fail("pool " + opt_.pool, err);
	io_ = a;
	if ((err = r_->rados_ioctx_create(c, opt_.pool.c_str(), &b)) < 0)
		fail("pool " + opt_.pool, err);
	lock_io_ = b;
	rados_ioctx_t c3 = nullptr;
	if ((err = r_->rados_ioctx_create(c, opt_.pool.c_str(), &c3)) < 0)
		fail("pool " + opt_.pool, err);
	reap_io_ = c3;
	r_->rados_ioctx_set_namespace(a, opt_.ns.c_str());
	r_->rados_ioctx_set_namespace(b, opt_.ns.c_str());
	r_->rados_ioctx_set_namespace(c3, opt_.ns.c_str());

	if (opt_.resume) {
		inc_ = opt_.resume;
	} else {
		std::random_device rd;
		while (!inc_)
			inc_ = (uint64_t(rd()) << 32) | rd();
	}
	cookie_ = std::to_string(inc_);
	try {
		// A previous incarnation's lock expires within its duration.
		auto deadline = std::chrono::steady_clock::now() +
				std::chrono::seconds(2 * lock_seconds + 5);
		for (;;) {
			try {
				join();
				break;
			} catch (const Error &e) {
				if (e.err() != EBUSY && e.err() != EEXIST)
					throw;
				if (std::chrono::steady_clock::now() > deadline)
					throw;
				log::notice("cluster: node " + opt_.node +
					    " is locked (another incarnation?); waiting");
				std::this_thread::sleep_for(std::chrono::seconds(1));
			}
		}
	} catch (const Error &e) {
		fail(std::string(e.what()), 0);
	}
	auto *w = new WatchCtx{r_.get(), b, node_object(opt_.node), this};
	uint64_t h = 0;
	err = r_->rados_watch3(b, w->oid.c_str(), &h, watch_cb, watch_err, watch_timeout, w);
	if (err < 0) {
		delete w;
		fail("watching " + node_object(opt_.node), err);
	}
	watch_ = h;
	watch_ctx_ = w;
	try {
		dir_join();
	} catch (const Error &e) {
		fail(e.what(), 0);
	}
	efd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd_ < 0)
		fail("eventfd", -errno);
	wake(); // the first deadline, from join()
	worker_ = std::thread([this] { worker(); });
	renewer_ = std::thread([this] { renewer(); });
	reaper_ = std::thread([this] { reaper(); });
	log::notice("cluster: node " + opt_.node + " joined (pool " + opt_.pool +
		    ", namespace " + opt_.ns + ")");
}

Node::~Node()
{
	{
		std::lock_guard<std::mutex> l(mu_);
		stop_ = true;
	}
	cv_.notify_all();
	if (worker_.joinable())
		worker_.join();
	if (renewer_.joinable())
		renewer_.join();
	if (reaper_.joinable())
		reaper_.join();
	r_->rados_unwatch2(io(lock_io_), watch_);
	delete static_cast<WatchCtx *>(watch_ctx_);
	r_->rados_unwatch2(io(lock_io_), dir_watch_);
	delete static_cast<WatchCtx *>(dir_watch_ctx_);
	// Leaving cleanly: the lock goes now, not at its expiry.
	r_->rados_unlock(io(lock_io_), node_object(opt_.node).c_str(), lock_name,
			 cookie_.c_str());
	r_->rados_ioctx_destroy(io(io_));
	r_->rados_ioctx_destroy(io(lock_io_));
	r_->rados_ioctx_destroy(io(reap_io_));
	r_->rados_shutdown(cl(cluster_));
	if (efd_ >= 0)
		::close(efd_);
}

// Take "alive" and announce this incarnation while holding our own
// "reaper" lock, so that no survivor reaps a previous incarnation's
// records while this one writes its own.
void Node::join()
{
	timeval d{lock_seconds, 0};
	std::string oid = node_object(opt_.node);
	int err = r_->rados_lock_exclusive(io(lock_io_), oid.c_str(), reaper_lock, cookie_.c_str(),
					   "smbsrvd joining", &d, 0);
	if (err < 0)
		throw Error("cluster: lock " + std::string(reaper_lock) + " on " + oid, -err);
	const std::string reaper_cookie = cookie_;
	try {
		check_fs();
		if (opt_.resume)
			resume();
		auto sent = now_ns();
		lock_alive(false);
		announce();
		record_addrs();
		std::lock_guard<std::mutex> l(mu_);
		deadline_ns_ = sent + alive_margin_ns;
		alive_pending_ = true;
	} catch (...) {
		r_->rados_unlock(io(lock_io_), oid.c_str(), reaper_lock, reaper_cookie.c_str());
		throw;
	}
	r_->rados_unlock(io(lock_io_), oid.c_str(), reaper_lock, reaper_cookie.c_str());
}

void Node::lock_alive(bool renew)
{
	timeval d{lock_seconds, 0};
	int err = r_->rados_lock_exclusive(io(lock_io_), node_object(opt_.node).c_str(),
					   lock_name, cookie_.c_str(), "smbsrvd", &d,
					   renew ? LIBRADOS_LOCK_FLAG_MAY_RENEW : 0);
	if (err < 0)
		throw Error("cluster: lock " + std::string(lock_name) + " on " +
				    node_object(opt_.node),
			    -err);
}

void Node::renewer()
{
	std::unique_lock<std::mutex> l(mu_);
	while (!cv_.wait_for(l, renew_every, [this] { return stop_ || lost_; })) {
		l.unlock();
		renew();
		l.lock();
	}
}

void Node::submit(Request r)
{
	{
		std::lock_guard<std::mutex> l(mu_);
		queue_.push_back(std::move(r));
	}
	cv_.notify_all();
}

std::vector<Reply> Node::take_replies()
{
	uint64_t n = 0;
	if (read(efd_, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log::warning(std::string("cluster: eventfd: ") + std::strerror(errno));
	std::lock_guard<std::mutex> l(mu_);
	std::vector<Reply> out;
	out.swap(replies_);
	return out;
}

void Node::worker()
{
	std::unique_lock<std::mutex> l(mu_);
	auto wake_at = std::chrono::steady_clock::now() + waiters_every;
	for (;;) {
		auto ready = [this] { return stop_ || !queue_.empty(); };
		if (waits_.empty())
			cv_.wait(l, ready);
		else
			cv_.wait_until(l, wake_at, ready);
		if (stop_)
			return;
		if (!waits_.empty() && std::chrono::steady_clock::now() >= wake_at) {
			l.unlock();
			wake_waiters();
			l.lock();
			wake_at = std::chrono::steady_clock::now() + waiters_every;
			continue;
		}
		if (queue_.empty())
			continue;
		if (waits_.empty())
			wake_at = std::chrono::steady_clock::now() + waiters_every;
		Request r = std::move(queue_.front());
		queue_.pop_front();
		l.unlock();
		Reply reply = serve(r);
		l.lock();
		replies_.push_back(reply);
		uint64_t one = 1;
		if (write(efd_, &one, sizeof(one)) < 0)
			log::warning(std::string("cluster: eventfd: ") + std::strerror(errno));
	}
}

void Node::on_view(std::function<void(const Push &)> sink)
{
	std::lock_guard<std::mutex> l(view_mu_);
	view_sink_ = std::move(sink);
	if (!view_sink_)
		return;
	// The directories marked before there was a module to tell.
	std::vector<Push> marks;
	{
		std::lock_guard<std::mutex> m(mu_);
		for (const auto &[ino, nodes] : dirmarks_)
			marks.push_back({SMB_CLUSTER_PUSH_DIRMARK, ino, "", *nodes.begin(), 0, {},
					 SMB2_LEASE_READ | SMB2_LEASE_HANDLE});
	}
	try {
		for (const auto &p : marks)
			view_sink_(p);
	} catch (const std::exception &e) {
		log::warning(std::string("cluster: handing smbsrv.ko the directory marks: ") +
			     e.what());
	}
}

void Node::deliver(const Push &p)
{
	std::lock_guard<std::mutex> l(view_mu_);
	if (!view_sink_)
		return;
	try {
		view_sink_(p);
	} catch (const std::exception &e) {
		log::warning(std::string("cluster: handing smbsrv.ko another node's push: ") +
			     e.what());
	}
}

bool Node::open_below(const Push &p)
{
	std::lock_guard<std::mutex> l(view_mu_);
	if (!view_sink_)
		return false;
	try {
		view_sink_(p);
	} catch (const NlError &e) {
		// The module's answer: something below the directory is open.
		if (e.err() == EBUSY)
			return true;
		log::warning(std::string("cluster: asking smbsrv.ko about a rename: ") + e.what());
	} catch (const std::exception &e) {
		log::warning(std::string("cluster: asking smbsrv.ko about a rename: ") + e.what());
	}
	return false;
}

void Node::received(const Push &p)
{
	if (p.kind == SMB_CLUSTER_PUSH_DIRMARK) {
		dir_mark(p);
		return;
	}
	if (p.kind == SMB_CLUSTER_PUSH_BREAK) {
		std::lock_guard<std::mutex> l(mu_);
		if (breakers_.size() >= max_breakers)
			breakers_.clear();
		breakers_[{p.ino, p.stream}].insert(p.node);
	}
	deliver(p);
}

void Node::wake_breakers(uint64_t ino, const std::string &stream)
{
	std::set<std::string> nodes;
	{
		std::lock_guard<std::mutex> l(mu_);
		auto it = breakers_.find({ino, stream});
		if (it == breakers_.end())
			return;
		nodes.swap(it->second);
		breakers_.erase(it);
	}
	Push p;
	p.kind = SMB_CLUSTER_PUSH_WAKE;
	p.ino = ino;
	p.stream = stream;
	p.node = opt_.node;
	push(p, nodes);
}

void Node::wake_waiters()
{
	std::set<std::pair<uint64_t, std::string>> files;
	{
		std::lock_guard<std::mutex> l(mu_);
		files.swap(waits_);
	}
	for (const auto &[ino, stream] : files) {
		Push p;
		p.kind = SMB_CLUSTER_PUSH_WAKE;
		p.ino = ino;
		p.stream = stream;
		p.node = opt_.node;
		deliver(p);
	}
}

Reply Node::serve(const Request &r)
{
	Reply a{r.handle, nt::INVALID_PARAMETER, 0};
	try {
		switch (r.op) {
		case SMBSRV_CLUSTER_OP_OPEN:
		case SMBSRV_CLUSTER_OP_OVERWRITE:
			a.status = open(r);
			break;
		case SMBSRV_CLUSTER_OP_CLOSE:
			a.status = close(r);
			break;
		case SMBSRV_CLUSTER_OP_LOCK:
			a.status = locks(r, true);
			break;
		case SMBSRV_CLUSTER_OP_UNLOCK:
			a.status = locks(r, false);
			break;
		case SMBSRV_CLUSTER_OP_CACHING:
			a.status = caching(r, a.caching);
			break;
		case SMBSRV_CLUSTER_OP_DELETE_PENDING:
		case SMBSRV_CLUSTER_OP_DELETE_CLEARED:
			a.status = disposition(r, r.op == SMBSRV_CLUSTER_OP_DELETE_PENDING);
			break;
		case SMBSRV_CLUSTER_OP_UNLINK:
			a.status = unlink(r);
			break;
		case SMBSRV_CLUSTER_OP_OPENED:
			a.status = opened(r);
			break;
		case SMBSRV_CLUSTER_OP_HANDLES:
			a.status = handles(r);
			break;
		case SMBSRV_CLUSTER_OP_RENAME_CHECK:
			a.status = rename_check(r);
			break;
		case SMBSRV_CLUSTER_OP_DIR_LEASE:
			a.status = dir_lease(r);
			break;
		case SMBSRV_CLUSTER_OP_DIR_CHANGED:
			a.status = dir_changed(r);
			break;
		default:
			break;
		}
	} catch (const Error &e) {
		log::error(e.what());
		a.status = nt::INSUFFICIENT_RESOURCES;
	}
	return a;
}

// Read an object's omap keys starting with @prefix and the object's
// version; false: no object.
static bool read_omap(Rados &R, rados_ioctx_t io, const std::string &oid,
		      const std::string &prefix, std::map<std::string, Bytes> &omap,
		      uint64_t &version)
{
	omap.clear();
	std::string after;
	for (;;) {
		rados_read_op_t op = R.rados_create_read_op();
		rados_omap_iter_t it = nullptr;
		unsigned char more = 0;
		int rval = 0;
		R.rados_read_op_omap_get_vals2(op, after.c_str(), prefix.c_str(), 512, &it, &more,
					       &rval);
		int err = R.rados_read_op_operate(op, io, oid.c_str(), 0);
		version = R.rados_get_last_version(io);
		if (err == -ENOENT) {
			R.rados_release_read_op(op);
			return false;
		}
		if (err < 0 || rval < 0) {
			R.rados_release_read_op(op);
			throw Error("cluster: reading " + oid, -(err < 0 ? err : rval));
		}
		char *k = nullptr, *v = nullptr;
		size_t kl = 0, vl = 0;
		while (R.rados_omap_get_next2(it, &k, &v, &kl, &vl) == 0 && k) {
			after.assign(k, kl);
			omap[after] = Bytes(reinterpret_cast<uint8_t *>(v),
					    reinterpret_cast<uint8_t *>(v) + vl);
		}
		R.rados_omap_get_end(it);
		R.rados_release_read_op(op);
		if (!more)
			return true;
	}
}

// Set this node's key of a file record to @val, or remove it when the
// node has no open left (@present false), in @op.
static void put_node_key(const Rados &R, rados_write_op_t op,
			 const std::string &key, const Bytes &val, bool present)
{
	const char *keys[] = {key.c_str()};
	const char *vals[] = {reinterpret_cast<const char *>(val.data())};
	size_t kls[] = {key.size()}, vls[] = {val.size()};
	if (present)
		R.rados_write_op_omap_set2(op, keys, vals, kls, vls, 1);
	else
		R.rados_write_op_omap_rm_keys2(op, keys, kls, 1);
}

// Push @p to each of @nodes and wait for their acknowledgements (each
// applied it), or the notify's timeout (a dead node: its keys go with the
// reaper).
void Node::push(const Push &p, const std::set<std::string> &nodes)
{
	const Bytes payload = encode_push(p);
	for (const auto &n : nodes) {
		char *reply = nullptr;
		size_t reply_len = 0;
		int err = r_->rados_notify2(io(io_), node_object(n).c_str(),
					    reinterpret_cast<const char *>(payload.data()),
					    payload.size(), notify_timeout_ms, &reply, &reply_len);
		if (reply)
			r_->rados_buffer_free(reply);
		if (err < 0)
			log::warning("cluster: node " + n + " did not acknowledge a push about " +
				     file_object(p.ino) + ": " + std::strerror(-err));
	}
}

uint32_t Node::update(const std::string &oid,
		      const std::function<uint32_t(const Omap &, std::vector<Change> &)> &decide,
		      const std::function<void(const Omap &, uint64_t)> &committed)
{
	for (int t = 0; t < max_tries; t++) {
		Omap omap;
		uint64_t version = 0;
		bool exists = read_omap(*r_, io(io_), oid, "", omap, version);
		std::vector<Change> changes;
		uint32_t st = decide(omap, changes);
		if (st == again)
			continue;
		if (st != nt::SUCCESS)
			return st;
		// Guarded by what was read: a change meanwhile fails it whole.
		rados_write_op_t op = r_->rados_create_write_op();
		if (exists)
			r_->rados_write_op_assert_version(op, version);
		else
			r_->rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE, nullptr);
		for (const auto &c : changes)
			put_node_key(*r_, op, c.key, c.value, !c.remove);
		int err = r_->rados_write_op_operate(op, io(io_), oid.c_str(), nullptr, 0);
		r_->rados_release_write_op(op);
		if (err == 0) {
			if (committed)
				committed(omap, r_->rados_get_last_version(io(io_)));
			return nt::SUCCESS;
		}
		if (err != -ERANGE && err != -EOVERFLOW && err != -EEXIST && err != -ENOENT)
			throw Error("cluster: writing " + oid, -err);
	}
	throw Error("cluster: " + oid + " changed under every try", EAGAIN);
}

// This node's lock list of a file: checked against the other nodes'
// (@check: a lock; an unlock only narrows), recorded guarded by the
// version read, and pushed to the nodes with the file open.
uint32_t Node::locks(const Request &r, bool check)
{
	const std::string key = lock_key(opt_.node, r.stream);
	return update(
		file_object(r.ino),
		[&](const Omap &omap, std::vector<Change> &w) {
			if (check) {
				uint32_t st = check_locks(omap, opt_.node, r.stream, r.locks);
				if (st != nt::SUCCESS)
					return st;
			}
			w.push_back({key, r.locks, r.locks.empty()});
			return nt::SUCCESS;
		},
		[&](const Omap &omap, uint64_t now) {
			push({SMB_CLUSTER_PUSH_LOCKS, r.ino, r.stream, opt_.node, now, r.locks, 0},
			     nodes_with_opens(omap, opt_.node));
		});
}

// A new open changes this node's aggregate: checked against the other
// nodes' (share modes), and against their caching: a node caching what
// the open takes (smb_cluster_break_bits()) is asked to break, once per
// request (a notify, acknowledged once its holders were told); if the
// record read again still shows it, the open waits (PENDING: the CREATE
// parks and runs again at the holder's wake or within a second).
uint32_t Node::open(const Request &r)
{
	const std::string key = open_key(opt_.node, r.stream);
	const Bytes val = open_value({r.node_access, r.node_share, r.caching});
	std::set<std::string> asked;
	uint32_t st = update(
		file_object(r.ino),
		[&](const Omap &omap, std::vector<Change> &w) {
			// As on one node, before sharing (fnode.c).
			if (delete_pending(omap, r.stream))
				return nt::DELETE_PENDING;
			uint32_t s = check_open(omap, opt_.node, r.stream, r.access, r.share);
			// An overwrite writes, whatever its access.
			uint32_t taker = r.node_access;
			if (r.op == SMBSRV_CLUSTER_OP_OVERWRITE)
				taker |= FILE_WRITE_DATA;
			auto breaks = caching_breaks(omap, opt_.node, r.stream, taker,
						     s == nt::SHARING_VIOLATION);
			bool sent = false;
			for (const auto &[n, bits] : breaks) {
				if (!asked.insert(n).second)
					continue;
				push({SMB_CLUSTER_PUSH_BREAK, r.ino, r.stream, opt_.node, 0, {}, bits},
				     {n});
				sent = true;
			}
			if (sent)
				return again;
			if (!breaks.empty())
				return nt::PENDING;
			if (s != nt::SUCCESS)
				return s;
			w.push_back({key, val, r.node_access == 0 && r.caching == 0});
			// A pending deletion left with no open (its node was
			// reaped) goes: it would hold off this open's successors.
			if (omap.count(delete_key(r.stream)))
				w.push_back({delete_key(r.stream), {}, true});
			return nt::SUCCESS;
		},
		[&](const Omap &omap, uint64_t now) {
			// The other nodes' locks of the file, as of this record,
			// for the module before it grants the open: from now on
			// they push their changes here.
			for (const auto &[k, v] : omap) {
				size_t nl = 0, so = 0, sl = 0;
				if (smb_cluster_key_split(k.data(), k.size(), 'b', &nl, &so, &sl) ||
				    k.compare(2, nl, opt_.node) == 0 ||
				    k.compare(so, sl, r.stream) != 0)
					continue;
				deliver({SMB_CLUSTER_PUSH_LOCKS, r.ino, r.stream, k.substr(2, nl), now,
					 v, 0});
			}
		});
	if (st == nt::PENDING) {
		std::lock_guard<std::mutex> l(mu_);
		waits_.insert({r.ino, r.stream});
	}
	return st;
}

// This node is about to grant caching beyond its record: what the other
// nodes' opens allow (*@allowed) is recorded with its aggregate.
uint32_t Node::caching(const Request &r, uint32_t &allowed)
{
	const std::string key = open_key(opt_.node, r.stream);
	return update(
		file_object(r.ino),
		[&](const Omap &omap, std::vector<Change> &w) {
			allowed = caching_cover(omap, opt_.node, r.stream);
			uint32_t c = r.caching & allowed;
			w.push_back({key, open_value({r.node_access, r.node_share, c}),
				     r.node_access == 0 && c == 0});
			return nt::SUCCESS;
		},
		nullptr);
}

uint32_t Node::close(const Request &r)
{
	const std::string oid = file_object(r.ino);
	const std::string key = open_key(opt_.node, r.stream);
	const Bytes val = open_value({r.node_access, r.node_share, r.caching});
	// Only this node writes its key: no guard needed to narrow it.
	rados_write_op_t op = r_->rados_create_write_op();
	r_->rados_write_op_create(op, LIBRADOS_CREATE_IDEMPOTENT, nullptr);
	put_node_key(*r_, op, key, val, r.node_access != 0 || r.caching != 0);
	int err = r_->rados_write_op_operate(op, io(io_), oid.c_str(), nullptr, 0);
	r_->rados_release_write_op(op);
	if (err < 0)
		throw Error("cluster: writing " + oid, -err);
	// Its caching may have gone down: whoever waits for that looks again.
	wake_breakers(r.ino, r.stream);
	return nt::SUCCESS;
}

// The file's pending deletion set (@set) or cleared on this node: the
// record's "dp." key follows, and the other nodes with the file open are
// told before the answer (their new opens get DELETE_PENDING, their last
// close removes the name).
uint32_t Node::disposition(const Request &r, bool set)
{
	const std::string key = delete_key(r.stream);
	const std::string &me = opt_.node;
	return update(
		file_object(r.ino),
		[&](const Omap &, std::vector<Change> &w) {
			w.push_back({key, Bytes(me.begin(), me.end()), !set});
			return nt::SUCCESS;
		},
		[&](const Omap &omap, uint64_t now) {
			push({uint8_t(set ? SMB_CLUSTER_PUSH_DELETE : SMB_CLUSTER_PUSH_UNDELETE), r.ino,
			      r.stream, me, now, {}, 0},
			     nodes_with_opens(omap, me));
		});
}

// This node's last open of a file pending deletion closes: its key goes
// (or narrows) as in close(); when no other node has the file open the
// pending deletion goes with it and this node removes the name
// (SUCCESS), otherwise it stays recorded, pushed to those nodes if it
// was not yet (a delete on close), and the last of them removes it
// (DELETE_PENDING).  Guarded: an open elsewhere racing with it either
// comes first (and is counted) or reads the deletion.
uint32_t Node::unlink(const Request &r)
{
	const std::string key = open_key(opt_.node, r.stream);
	const std::string dkey = delete_key(r.stream);
	const std::string &me = opt_.node;
	const Bytes val = open_value({r.node_access, r.node_share, r.caching});
	bool last = false, was = false;
	update(
		file_object(r.ino),
		[&](const Omap &omap, std::vector<Change> &w) {
			last = other_openers(omap, me, r.stream).empty();
			was = omap.count(dkey) != 0;
			w.push_back({key, val, r.node_access == 0 && r.caching == 0});
			if (last && was)
				w.push_back({dkey, {}, true});
			else if (!last && !was)
				w.push_back({dkey, Bytes(me.begin(), me.end()), false});
			return nt::SUCCESS;
		},
		[&](const Omap &omap, uint64_t now) {
			if (!last && !was)
				push({SMB_CLUSTER_PUSH_DELETE, r.ino, r.stream, me, now, {}, 0},
				     other_openers(omap, me, r.stream));
		});
	wake_breakers(r.ino, r.stream);
	return last ? nt::SUCCESS : nt::DELETE_PENDING;
}

// A rename would replace the file: refused while another node has it
// open, as a local open refuses it (one read).
uint32_t Node::opened(const Request &r)
{
	Omap omap;
	uint64_t version = 0;
	if (!read_omap(*r_, io(io_), file_object(r.ino), "o.", omap, version))
		return nt::SUCCESS;
	return nodes_with_opens(omap, opt_.node).empty() ? nt::SUCCESS : nt::ACCESS_DENIED;
}

// The file was renamed: the other nodes caching its handle break it, as
// this node's holders were (one read, one notify per such node).
uint32_t Node::handles(const Request &r)
{
	Omap omap;
	uint64_t version = 0;
	if (!read_omap(*r_, io(io_), file_object(r.ino), "o.", omap, version))
		return nt::SUCCESS;
	for (const auto &n : handle_holders(omap, opt_.node, r.stream))
		push({SMB_CLUSTER_PUSH_BREAK, r.ino, r.stream, opt_.node, 0, {}, SMB2_LEASE_HANDLE},
		     {n});
	return nt::SUCCESS;
}

// A directory is about to be renamed: every other node (each node.*
// object but this node's: one listing) is asked whether it has anything
// below it open, one notify each, answered on the acknowledgement.
uint32_t Node::rename_check(const Request &r)
{
	std::vector<std::string> nodes;
	rados_list_ctx_t ctx = nullptr;
	if (int err = r_->rados_nobjects_list_open(io(io_), &ctx); err < 0)
		throw Error("cluster: listing the nodes", -err);
	const char *entry = nullptr;
	while (r_->rados_nobjects_list_next(ctx, &entry, nullptr, nullptr) == 0) {
		std::string e(entry);
		if (e.rfind("node.", 0) == 0 && e != node_object(opt_.node))
			nodes.push_back(e);
	}
	r_->rados_nobjects_list_close(ctx);
	const Bytes payload = encode_push({SMB_CLUSTER_PUSH_RENAME_CHECK, r.ino, {}, opt_.node, 0, {}, 0});
	for (const auto &n : nodes) {
		char *reply = nullptr;
		size_t reply_len = 0;
		int err = r_->rados_notify2(io(io_), n.c_str(),
					    reinterpret_cast<const char *>(payload.data()),
					    payload.size(), notify_timeout_ms, &reply, &reply_len);
		std::optional<bool> busy;
		if (reply)
			busy = acks_busy(reinterpret_cast<const uint8_t *>(reply), reply_len);
		if (reply)
			r_->rados_buffer_free(reply);
		if (busy.value_or(false))
			return nt::ACCESS_DENIED;
		if (err < 0)
			log::warning("cluster: " + n + " did not answer a rename check of " +
				     file_object(r.ino) + ": " + std::strerror(-err));
	}
	return nt::SUCCESS;
}

} // namespace smbsrv::cluster

namespace smbsrv::cluster {

namespace {

// Set one omap key of @oid (made if missing).
void set_key(Rados &R, rados_ioctx_t io, const std::string &oid, const std::string &key,
	     const std::string &value)
{
	const char *keys[] = {key.c_str()};
	const char *vals[] = {value.c_str()};
	size_t kls[] = {key.size()}, vls[] = {value.size()};
	rados_write_op_t op = R.rados_create_write_op();
	R.rados_write_op_create(op, LIBRADOS_CREATE_IDEMPOTENT, nullptr);
	R.rados_write_op_omap_set2(op, keys, vals, kls, vls, 1);
	int err = R.rados_write_op_operate(op, io, oid.c_str(), nullptr, 0);
	R.rados_release_write_op(op);
	if (err < 0)
		throw Error("cluster: writing " + oid, -err);
}

std::string value_of(const std::map<std::string, Bytes> &m, const std::string &k)
{
	auto it = m.find(k);
	return it == m.end() ? std::string() : std::string(it->second.begin(), it->second.end());
}

} // namespace

// How many hold @lock on @oid now (cls_lock drops expired lockers).
static ssize_t lockers(Rados &R, rados_ioctx_t io, const std::string &oid, const char *lock)
{
	int excl = 0;
	char tag[256], clients[1024], cookies[1024], addrs[1024];
	size_t tl = sizeof(tag), cl = sizeof(clients), kl = sizeof(cookies), al = sizeof(addrs);
	ssize_t n = R.rados_list_lockers(io, oid.c_str(), lock, &excl, tag, &tl, clients, &cl,
					 cookies, &kl, addrs, &al);
	if (n == -ENOENT)
		return 0;
	if (n == -ERANGE) // more than fit: held
		return 1;
	if (n < 0)
		throw Error("cluster: lockers of " + oid, int(-n));
	return n;
}

void Node::announce()
{
	set_key(*r_, io(lock_io_), node_object(opt_.node), "inc", cookie_);
}

// One sweep: every other node whose lock "alive" is gone (expired: the
// node died, or lost the store for longer than the lock's duration) has
// its keys removed from every file's record, once per incarnation, by
// whichever survivor takes that node's "reaper" lock first.
void Node::sweep()
{
	rados_ioctx_t x = io(lock_io_);
	std::vector<std::string> nodes, files;
	rados_list_ctx_t ctx = nullptr;
	if (int err = r_->rados_nobjects_list_open(x, &ctx); err < 0)
		throw Error("cluster: listing the records", -err);
	const char *entry = nullptr;
	while (r_->rados_nobjects_list_next(ctx, &entry, nullptr, nullptr) == 0) {
		std::string e(entry);
		if (e.rfind("node.", 0) == 0 && e != node_object(opt_.node))
			nodes.push_back(e);
		else if (e.rfind("f.", 0) == 0)
			files.push_back(e);
	}
	r_->rados_nobjects_list_close(ctx);
	for (const auto &n : nodes) {
		if (lockers(*r_, x, n, lock_name) > 0)
			continue;
		std::map<std::string, Bytes> m;
		uint64_t v = 0;
		read_omap(*r_, x, n, "", m, v);
		std::string inc = value_of(m, "inc");
		if (inc.empty() || value_of(m, "reaped") == inc)
			continue;
		timeval d{60, 0};
		if (r_->rados_lock_exclusive(x, n.c_str(), reaper_lock, cookie_.c_str(), "smbsrvd reaper",
					     &d, 0) < 0)
			continue; // another survivor reaps it
		// Under the reaper lock a starting node waits: look again.
		read_omap(*r_, x, n, "", m, v);
		if (lockers(*r_, x, n, lock_name) == 0 && value_of(m, "inc") == inc) {
			std::string dead = n.substr(5);
			fence_node(dead, value_of(m, addrs_key));
			size_t removed = 0;
			for (const auto &f : files)
				removed += reap_file(f, dead);
			removed += drop_dirleases(dead);
			set_key(*r_, x, n, "reaped", inc);
			log::notice("cluster: node " + dead + " is gone (its lock expired): " +
				    std::to_string(removed) + " of its records removed");
		}
		r_->rados_unlock(x, n.c_str(), reaper_lock, cookie_.c_str());
	}
}

// Remove node @dead's keys ("o." and "b.") from file record @oid; the
// nodes with the file open learn that its locks are gone. How many keys
// went.
size_t Node::reap_file(const std::string &oid, const std::string &dead)
{
	rados_ioctx_t x = io(reap_io_);
	std::map<std::string, Bytes> keys;
	uint64_t v = 0;
	if (!read_omap(*r_, x, oid, "", keys, v))
		return 0;
	std::vector<const char *> names;
	std::vector<size_t> lens;
	std::vector<std::string> streams; // of its lock keys
	for (const auto &[k, val] : keys) {
		size_t nl = 0, so = 0, sl = 0;
		for (char kind : {'o', 'b'}) {
			if (smb_cluster_key_split(k.data(), k.size(), kind, &nl, &so, &sl) ||
			    k.compare(2, nl, dead) != 0)
				continue;
			names.push_back(k.c_str());
			lens.push_back(k.size());
			if (kind == 'b')
				streams.push_back(k.substr(so, sl));
		}
	}
	if (names.empty())
		return 0;
	// A pending deletion stays while another node has the file open
	// (that node's last close removes it, as on one node); with no open
	// left it goes: nobody closes it any more.
	auto others = nodes_with_opens(keys, dead);
	if (others.empty())
		for (const auto &[k, val] : keys)
			if (k.rfind("dp.", 0) == 0) {
				names.push_back(k.c_str());
				lens.push_back(k.size());
			}
	rados_write_op_t op = r_->rados_create_write_op();
	r_->rados_write_op_omap_rm_keys2(op, names.data(), lens.data(), names.size());
	int err = r_->rados_write_op_operate(op, x, oid.c_str(), nullptr, 0);
	r_->rados_release_write_op(op);
	if (err < 0)
		return 0;
	uint64_t now = r_->rados_get_last_version(x);
	uint64_t ino = std::strtoull(oid.c_str() + 2, nullptr, 16);
	for (const auto &s : streams) {
		Push p{SMB_CLUSTER_PUSH_LOCKS, ino, s, dead, now, {}, 0};
		if (others.count(opt_.node))
			deliver(p);
		others.erase(opt_.node);
		push(p, others);
	}
	return names.size();
}

// Liveness (design-cluster.md, "Liveness, node loss, partitions").

void Node::wake()
{
	uint64_t one = 1;
	if (efd_ >= 0 && write(efd_, &one, sizeof(one)) < 0)
		log::warning(std::string("cluster: eventfd: ") + std::strerror(errno));
}

// One renewal.  A renewal sent after the kernel's deadline (the daemon
// stood still, or the store was out of reach that long) or refused
// because another holds the lock or this client is blocklisted ends the
// incarnation: survivors may have reaped it, and the kernel fenced.
void Node::renew()
{
	uint64_t sent = now_ns();
	int err = 0;
	try {
		lock_alive(true);
	} catch (const Error &e) {
		err = e.err();
		log::error(e.what());
	}
	std::lock_guard<std::mutex> l(mu_);
	if (sent >= deadline_ns_ || err == EBUSY || err == EEXIST || err == ESHUTDOWN) {
		if (!lost_)
			log::error("cluster: node " + opt_.node +
				   " lost its lease in the store (" +
				   (err ? std::string(std::strerror(err))
					: std::to_string((sent - deadline_ns_) / 1000000) +
						  " ms past its deadline") +
				   "): the module fences; this daemon stops");
		lost_ = true;
	} else if (!err) {
		deadline_ns_ = sent + alive_margin_ns;
		alive_pending_ = true;
	}
	wake();
}

std::optional<Node::Alive> Node::take_alive()
{
	std::lock_guard<std::mutex> l(mu_);
	if (!alive_pending_ || lost_)
		return std::nullopt;
	alive_pending_ = false;
	return Alive{deadline_ns_, inc_};
}

bool Node::lost()
{
	std::lock_guard<std::mutex> l(mu_);
	return lost_;
}

// A restart within the deadline: the module still serves this
// incarnation's opens, whose records are in the store under our lock,
// held by the previous process's client.  Break that lock (ours: same
// cookie) and take it again.  If it is gone, the node may have been
// reaped: start a new incarnation.
void Node::resume()
{
	std::string oid = node_object(opt_.node);
	int excl = 0;
	char tag[256], clients[1024], cookies[1024], addrs[1024];
	size_t tl = sizeof(tag), cl = sizeof(clients), kl = sizeof(cookies), al = sizeof(addrs);
	ssize_t n = r_->rados_list_lockers(io(lock_io_), oid.c_str(), lock_name, &excl, tag, &tl,
					   clients, &cl, cookies, &kl, addrs, &al);
	const char *c = clients, *k = cookies;
	for (ssize_t i = 0; i < n; i++) {
		if (cookie_ == k &&
		    r_->rados_break_lock(io(lock_io_), oid.c_str(), lock_name, c, k) == 0) {
			log::notice("cluster: node " + opt_.node + " resumes incarnation " +
				    cookie_ + " (the lock of " + c + ")");
			return;
		}
		c += std::strlen(c) + 1;
		k += std::strlen(k) + 1;
	}
	std::random_device rd;
	inc_ = 0;
	while (!inc_ || std::to_string(inc_) == cookie_)
		inc_ = (uint64_t(rd()) << 32) | rd();
	log::notice("cluster: node " + opt_.node + ": incarnation " + cookie_ +
		    " cannot be resumed (its lock is gone); a new one starts");
	cookie_ = std::to_string(inc_);
	opt_.resume = 0;
}

// This node's Ceph clients, as survivors will blocklist them: librados'
// and each CephFS kernel mount of this cluster (debugfs, as root).
std::vector<std::string> Node::client_addrs()
{
	std::vector<std::string> out;
	char *a = nullptr;
	if (r_->rados_getaddrs(cl(cluster_), &a) == 0 && a) {
		out = rados_addrs(a);
		free(a); // NOLINT(cppcoreguidelines-no-malloc): librados' strdup()
	}
	char fsid[64] = {};
	if (r_->rados_cluster_fsid(cl(cluster_), fsid, sizeof(fsid) - 1) < 0)
		return out;
	std::string prefix = std::string(fsid) + ".client";
	std::error_code ec;
	for (const auto &d : std::filesystem::directory_iterator(ceph_debugfs, ec)) {
		if (d.path().filename().string().rfind(prefix, 0) != 0)
			continue;
		std::ifstream f(d.path() / "status");
		std::string status((std::istreambuf_iterator<char>(f)),
				   std::istreambuf_iterator<char>());
		if (std::string addr = cephfs_status_addr(status); !addr.empty())
			out.push_back(addr);
	}
	return out;
}

// Record them in node.NAME (at join, and at each sweep: a mount may come
// later or change).
void Node::record_addrs()
{
	std::string v = addrs_value(client_addrs());
	if (v == addrs_)
		return;
	set_key(*r_, io(lock_io_), node_object(opt_.node), addrs_key, v);
	if (v.find(' ') == std::string::npos && !cephfs_warned_) {
		log::warning("cluster: no CephFS mount of this cluster found in " +
			     std::string(ceph_debugfs) +
			     " (debugfs mounted?): survivors can fence only librados");
		cephfs_warned_ = true;
	}
	log::notice("cluster: node " + opt_.node + "'s Ceph clients: " + v);
	addrs_ = v;
}

// Before a dead node's records go: blocklist its clients, so that a node
// that was only cut off writes neither records nor file data any more,
// and the MDS drops its CephFS session (and capabilities, locks) now.
void Node::fence_node(const std::string &node, const std::string &value)
{
	auto t0 = std::chrono::steady_clock::now();
	size_t done = 0;
	auto list = addrs_of(value);
	for (auto &a : list) {
		int err = r_->rados_blocklist_add(cl(cluster_), a.data(), 0);
		if (err < 0) {
			std::string msg = "cluster: blocklisting ";
			msg += a;
			msg += " of node ";
			msg += node;
			msg += ": ";
			msg += std::strerror(-err);
			log::error(msg);
		} else {
			done++;
		}
	}
	auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
			  std::chrono::steady_clock::now() - t0)
			  .count();
	log::notice("cluster: node " + node + " fenced: " + std::to_string(done) + " of " +
		    std::to_string(list.size()) + " Ceph clients blocklisted (" +
		    value + ") in " + std::to_string(ms) + " ms");
}

// Every share must be on the CephFS the cluster serves (the "fs" key of
// "meta", set by the first node to join): inode numbers name files in
// the records, and are the same on every node only there.  A share that
// is not on CephFS, shares on two file systems, or another file system
// than the cluster's: the node does not join.
void Node::check_fs()
{
	std::optional<FsIdent> mine;
	std::string first;
	for (const auto &p : opt_.paths) {
		struct statfs st {};
		if (::statfs(p.c_str(), &st) != 0)
			throw Error("cluster: share path " + p, errno);
		if (st.f_type != CEPH_SUPER_MAGIC)
			throw Error("cluster: share path " + p + " is not on CephFS", EXDEV);
		FsIdent f{uint32_t(st.f_fsid.__val[0]), uint32_t(st.f_fsid.__val[1])};
		if (mine && !(*mine == f)) {
			std::string msg = "cluster: share paths ";
			msg += first;
			msg += " and ";
			msg += p;
			msg += " are on two file systems";
			throw Error(msg, EXDEV);
		}
		if (!mine)
			first = p;
		mine = f;
	}
	if (!mine)
		return; // no share yet: nothing to check
	const std::string want = fs_value(*mine);
	for (int t = 0; t < max_tries; t++) {
		std::map<std::string, Bytes> m;
		uint64_t v = 0;
		read_omap(*r_, io(lock_io_), meta_object, "fs", m, v);
		auto it = m.find("fs");
		if (it != m.end()) {
			std::string have(it->second.begin(), it->second.end());
			if (have != want) {
				std::string msg = "cluster: the cluster serves file system '";
				msg += have;
				msg += "', this node's shares are on '";
				msg += want;
				msg += "'";
				throw Error(msg, EXDEV);
			}
			return;
		}
		// The first node names it, guarded: "fs" still absent.
		const char *keys[] = {"fs"};
		const char *vals[] = {want.c_str()};
		size_t kls[] = {2}, vls[] = {want.size()};
		int prval = 0;
		rados_write_op_t op = r_->rados_create_write_op();
		r_->rados_write_op_create(op, LIBRADOS_CREATE_IDEMPOTENT, nullptr);
		r_->rados_write_op_omap_cmp(op, "fs", LIBRADOS_CMPXATTR_OP_EQ, "", 0, &prval);
		r_->rados_write_op_omap_set2(op, keys, vals, kls, vls, 1);
		int err = r_->rados_write_op_operate(op, io(lock_io_), meta_object, nullptr, 0);
		r_->rados_release_write_op(op);
		if (err == 0) {
			log::notice("cluster: this cluster serves file system " + want);
			return;
		}
		if (err != -ECANCELED)
			throw Error("cluster: writing meta", -err);
	}
	throw Error("cluster: meta changed under every try", EAGAIN);
}

void Node::reaper()
{
	std::unique_lock<std::mutex> l(mu_);
	while (!cv_.wait_for(l, sweep_every, [this] { return stop_; })) {
		l.unlock();
		try {
			record_addrs();
			sweep();
		} catch (const Error &e) {
			log::warning(e.what());
		}
		l.lock();
	}
}

} // namespace smbsrv::cluster

// Directory leases (design-cluster.md, "Directory leases").

namespace smbsrv::cluster {

namespace {

std::string dirlease_key(uint64_t ino, const std::string &node)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "%llx.", static_cast<unsigned long long>(ino));
	return buf + node;
}

} // namespace

// Watch first, then read: a mark written before the watch is in the
// read, one announced after it comes by notify.  A fresh incarnation
// first takes back what an earlier one of this node left.
void Node::dir_join()
{
	rados_write_op_t op = r_->rados_create_write_op();
	r_->rados_write_op_create(op, LIBRADOS_CREATE_IDEMPOTENT, nullptr);
	int err = r_->rados_write_op_operate(op, io(lock_io_), dirleases_object, nullptr, 0);
	r_->rados_release_write_op(op);
	if (err < 0)
		throw Error(std::string("cluster: writing ") + dirleases_object, -err);
	if (!opt_.resume)
		drop_dirleases(opt_.node);
	auto *w = new WatchCtx{r_.get(), io(lock_io_), dirleases_object, this};
	uint64_t h = 0;
	err = r_->rados_watch3(io(lock_io_), w->oid.c_str(), &h, watch_cb, watch_err,
			       watch_timeout, w);
	if (err < 0) {
		delete w;
		throw Error(std::string("cluster: watching ") + dirleases_object, -err);
	}
	dir_watch_ = h;
	dir_watch_ctx_ = w;
	std::map<std::string, Bytes> m;
	uint64_t v = 0;
	read_omap(*r_, io(lock_io_), dirleases_object, "", m, v);
	for (const auto &[k, val] : m) {
		size_t dot = k.find('.');
		if (dot == std::string::npos || dot == 0)
			continue;
		Push p;
		p.kind = SMB_CLUSTER_PUSH_DIRMARK;
		p.ino = std::strtoull(k.substr(0, dot).c_str(), nullptr, 16);
		p.node = k.substr(dot + 1);
		p.caching = SMB2_LEASE_READ | SMB2_LEASE_HANDLE;
		if (p.ino && valid_node_name(p.node))
			dir_mark(p);
	}
}

void Node::dir_mark(const Push &p)
{
	if (p.node == opt_.node)
		return; // this node's own: its fsnotify marks see its changes
	std::vector<uint64_t> unmarked;
	bool marked = false;
	{
		std::lock_guard<std::mutex> l(mu_);
		if (p.ino == 0 && p.caching == 0) {
			for (auto it = dirmarks_.begin(); it != dirmarks_.end();) {
				if (it->second.erase(p.node) && it->second.empty()) {
					unmarked.push_back(it->first);
					it = dirmarks_.erase(it);
				} else {
					++it;
				}
			}
		} else if (p.caching) {
			auto &nodes = dirmarks_[p.ino];
			marked = nodes.empty();
			nodes.insert(p.node);
		} else if (auto it = dirmarks_.find(p.ino); it != dirmarks_.end()) {
			if (it->second.erase(p.node) && it->second.empty()) {
				unmarked.push_back(p.ino);
				dirmarks_.erase(it);
			}
		}
	}
	if (marked)
		deliver(p);
	for (uint64_t ino : unmarked)
		deliver({SMB_CLUSTER_PUSH_DIRMARK, ino, "", p.node, 0, {}, 0});
}

// Recorded, then announced; the module grants after the answer, so every
// node that acknowledged reports its changes of the directory from then.
uint32_t Node::dir_lease(const Request &r)
{
	const std::string key = dirlease_key(r.ino, opt_.node);
	if (r.caching) {
		set_key(*r_, io(io_), dirleases_object, key, "");
	} else {
		const char *keys[] = {key.c_str()};
		size_t kls[] = {key.size()};
		rados_write_op_t op = r_->rados_create_write_op();
		r_->rados_write_op_omap_rm_keys2(op, keys, kls, 1);
		int err = r_->rados_write_op_operate(op, io(io_), dirleases_object, nullptr, 0);
		r_->rados_release_write_op(op);
		if (err < 0)
			throw Error(std::string("cluster: writing ") + dirleases_object, -err);
	}
	announce_dirmark(io_, {SMB_CLUSTER_PUSH_DIRMARK, r.ino, "", opt_.node, 0, {}, r.caching});
	return nt::SUCCESS;
}

// Every node watching "dirleases" gets @p, acknowledged once applied (a
// dead watcher: the notify's timeout).
void Node::announce_dirmark(void *ioctx, const Push &p)
{
	const Bytes payload = encode_push(p);
	char *reply = nullptr;
	size_t reply_len = 0;
	int err = r_->rados_notify2(io(ioctx), dirleases_object,
				    reinterpret_cast<const char *>(payload.data()), payload.size(),
				    notify_timeout_ms, &reply, &reply_len);
	if (reply)
		r_->rados_buffer_free(reply);
	if (err < 0)
		log::warning("cluster: a node did not acknowledge a directory mark of node " +
			     p.node + " (" + file_object(p.ino) + "): " + std::strerror(-err));
}

uint32_t Node::dir_changed(const Request &r)
{
	std::set<std::string> nodes;
	{
		std::lock_guard<std::mutex> l(mu_);
		if (auto it = dirmarks_.find(r.ino); it != dirmarks_.end())
			nodes = it->second;
	}
	nodes.erase(opt_.node);
	if (!nodes.empty())
		push({SMB_CLUSTER_PUSH_DIRCHANGE, r.ino, "", opt_.node, 0, {}, 0}, nodes);
	return nt::SUCCESS;
}

size_t Node::drop_dirleases(const std::string &node)
{
	rados_ioctx_t x = io(reap_io_);
	std::map<std::string, Bytes> m;
	uint64_t v = 0;
	if (!read_omap(*r_, x, dirleases_object, "", m, v))
		return 0;
	const std::string suffix = "." + node;
	std::vector<const char *> names;
	std::vector<size_t> lens;
	for (const auto &[k, val] : m) {
		if (k.size() > suffix.size() &&
		    k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0) {
			names.push_back(k.c_str());
			lens.push_back(k.size());
		}
	}
	if (names.empty())
		return 0;
	rados_write_op_t op = r_->rados_create_write_op();
	r_->rados_write_op_omap_rm_keys2(op, names.data(), lens.data(), names.size());
	int err = r_->rados_write_op_operate(op, x, dirleases_object, nullptr, 0);
	r_->rados_release_write_op(op);
	if (err < 0)
		throw Error(std::string("cluster: writing ") + dirleases_object, -err);
	announce_dirmark(reap_io_, {SMB_CLUSTER_PUSH_DIRMARK, 0, "", node, 0, {}, 0});
	return names.size();
}

} // namespace smbsrv::cluster
