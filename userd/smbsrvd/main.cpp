// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvd: the smbsrv control daemon.  Reads the configuration, attaches
// to smbsrv.ko over generic netlink, pushes the knobs and then answers the
// module's upcalls (session setup, tree connect, named pipes) until told
// to stop.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <getopt.h>
#include <iostream>
#include <linux/smbsrv.h>
#include <memory>
#include <poll.h>
#include <string>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "accounts.hpp"
#include "audit.hpp"
#include "cluster.hpp"
#include "config.hpp"
#include "ctl_json.hpp"
#include "ctl_netlink.hpp"
#include "interfaces.hpp"
#include "log.hpp"
#include "metrics.hpp"
#include "metrics_server.hpp"
#include "netlink.hpp"
#include "params.hpp"
#include "rpc/rpc.hpp"
#include "upcalls.hpp"
#include "userdb.hpp"
#include "wq_affinity.hpp"

using namespace smbsrv;

namespace {

constexpr const char *default_config = "/etc/smbsrv/smbsrv.conf";
constexpr const char *default_pidfile = "/run/smbsrvd.pid";
constexpr const char *default_pwddb = "/etc/smbsrv/smbsrvpwd.db";
// Session-setup workers and the most legs queued or running on them.
constexpr size_t auth_threads = 4;
constexpr size_t auth_queue = 256;

struct Options {
	std::string config = default_config;
	std::string pidfile = default_pidfile;
	std::string pwddb = default_pwddb;
	bool foreground = false;
	bool check_only = false;
	bool debug = false;
	uint32_t port = 0; // 0: from the configuration
};

void usage(FILE *f)
{
	std::fprintf(f,
		"Usage: smbsrvd [OPTIONS]\n"
		"       smbsrvd --check-config [FILE]\n"
		"\n"
		"  -c, --config FILE     configuration file (default %s)\n"
		"  -p, --port PORT       TCP port, overriding 'tcp port'\n"
		"  -u, --pwddb FILE      user database, ksmbdpwd.db format\n"
		"                        (default %s)\n"
		"  -F, --foreground      stay in the foreground, log to stderr\n"
		"  -P, --pidfile FILE    pid file (default %s)\n"
		"  -d, --debug           log debug messages\n"
		"      --check-config    print the effective configuration and\n"
		"                        every problem in it, then exit\n"
		"  -V, --version         print the version and exit\n"
		"  -h, --help            print this help and exit\n",
		default_config, default_pwddb, default_pidfile);
}

// Print problems; returns false if any is an error.
bool report(const Diagnostics &diags, bool to_stderr)
{
	for (const auto &d : diags.all()) {
		if (to_stderr)
			std::cerr << d.str() << "\n";
		else if (d.severity == Severity::error)
			log::error(d.str());
		else
			log::warning(d.str());
	}
	return !diags.has_errors();
}

int check_config(const std::string &path)
{
	Diagnostics diags;
	Config cfg = load_config_file(path, diags);
	bool ok = report(diags, true);
	std::cerr << "Loaded " << path << ": " << diags.all().size()
		  << " problem(s)" << (ok ? "" : ", with errors") << "\n\n";
	std::cout << "# Effective configuration (non-default values)\n"
		  << dump_config(cfg, false);
	return ok ? 0 : 1;
}

class Daemon {
public:
	explicit Daemon(Options opts) : opts_(std::move(opts)), users_(opts_.pwddb) {}
	int run();

private:
	bool load(Config &out);
	void attach();
	bool plan_listen(Config &cfg);
	void reload();
	void write_pidfile();
	void serve_upcalls();

	Options opts_;
	Config cfg_;
	UserDbFile users_;
	SystemAccounts accounts_;
	std::unique_ptr<Upcalls> upcalls_;
	std::unique_ptr<GenlChannel> nl_;
	bool reattach_ = false; // the module came back: attach again
	// `metrics listen`: a scrape asks the module on a socket of its own,
	// so that upcalls queued on nl_ are never in its way.
	MetricsServer metrics_{[] {
		try {
			GenlChannel nl;
			return prometheus_text(read_stats_snapshot(nl));
		} catch (const NlError &e) {
			return prometheus_down_text(e.what());
		}
	}};
	void apply_metrics();
	// The audit trail: a socket of its own gets the module's records, so
	// that a flood of them never crowds out upcalls.
	std::unique_ptr<GenlChannel> audit_nl_;
	void subscribe_audit();
	void on_audit_record(ByteView msg);
	// Cluster mode (clustering = yes): this daemon's node of the
	// cluster, joined before the module is told.
	std::unique_ptr<GenlChannel> view_nl_; // cluster-view, from Node's threads
	std::unique_ptr<cluster::Node> cluster_;
	void answer_cluster();
	bool cluster_liveness();
	void leave_cluster();
	uint64_t cluster_resume();
};

// (Re)subscribe the audit socket with the configuration's rate and the
// session operations [global] audits.  Not fatal: SMB goes on without.
void Daemon::subscribe_audit()
{
	try {
		if (!audit_nl_) {
			audit_nl_ = std::make_unique<GenlChannel>();
			audit_nl_->on_audit([this](ByteView m) { on_audit_record(m); });
		}
		AuditStyle g = audit_style(cfg_.share_defaults);
		uint32_t session = g.enabled ? g.success & (1U << SMBSRV_AUDIT_OP_LOGOFF) : 0;
		audit_subscribe(*audit_nl_, static_cast<uint32_t>(cfg_.global.number("audit rate")),
				session);
	} catch (const NlError &e) {
		log::error(std::string("audit: ") + e.what());
		audit_nl_.reset();
	}
}

void Daemon::on_audit_record(ByteView msg)
{
	auto r = parse_audit_record(msg);
	if (!r)
		return;
	if (r->dropped)
		log::warning("audit: " + std::to_string(r->dropped) +
			     " record(s) dropped by smbsrv.ko before this one (audit rate, or "
			     "this socket full)");
	const ShareConfig *sh = r->share.empty() ? nullptr : cfg_.share(r->share);
	audit_syslog(audit_style(sh ? sh->params : cfg_.share_defaults), *r);
}

// Start, move or stop the metrics endpoint as the configuration says.  A
// failure is logged and leaves the endpoint where it was: SMB goes on.
void Daemon::apply_metrics()
{
	const std::string &want = cfg_.global.str("metrics listen");
	if (want == metrics_.where())
		return;
	try {
		metrics_.listen(want);
		if (want.empty())
			log::notice("metrics endpoint stopped");
		else
			log::notice("metrics at http://" + want + "/metrics");
	} catch (const std::runtime_error &e) {
		log::error(e.what());
	}
}

bool Daemon::load(Config &out)
{
	Diagnostics diags;
	Config cfg = load_config_file(opts_.config, diags);
	if (!report(diags, false))
		return false;
	if (opts_.port)
		cfg.knobs.tcp_port = opts_.port;
	out = std::move(cfg);
	return true;
}

// Where the module is to listen: interfaces and bind interfaces only,
// matched against the interfaces that are up now (a reload looks again).
// Nothing to listen on with bind interfaces only is an error: smbsrv then
// keeps listening where it did (at start: does not start).
bool Daemon::plan_listen(Config &cfg)
{
	ListenPlan p = listen_plan(cfg.global.boolean("bind interfaces only"),
				   cfg.global.list("interfaces"), local_addresses());
	for (const auto &w : p.warnings)
		log::warning(w);
	for (const auto &e : p.errors)
		log::error(e);
	if (!p.errors.empty() ||
	    (cfg.global.boolean("bind interfaces only") && !cfg.global.list("interfaces").empty() &&
	     p.addrs.empty())) {
		if (p.errors.empty())
			log::error("bind interfaces only: no address of 'interfaces' is up");
		return false;
	}
	cfg.knobs.listen_addrs = std::move(p.addrs);
	return true;
}

void Daemon::attach()
{
	ServerStatus st = nl_->startup(static_cast<uint32_t>(getpid()),
				       cfg_.knobs, upcalls_->auth().negotiate_blob());
	std::string where;
	for (const auto &a : st.listen_addrs)
		where += (where.empty() ? " at " : ", ") + a;
	log::notice("attached to smbsrv " + st.module_version +
		    ", listening on TCP port " + std::to_string(st.listen_port) + where);
	// The unbound request queue's affinity (scope cpu, not strict): the
	// module cannot set it itself.  Not fatal: routing works without it.
	try {
		for (const auto &p : tune_unbound_queues(list_queues(*nl_)))
			log::warning("request queue affinity: " + p);
	} catch (const NlError &e) {
		log::warning(std::string("request queues: ") + e.what());
	}
}

void Daemon::reload()
{
	Config next;
	if (!load(next)) {
		log::error("reload of " + opts_.config +
			   " failed; keeping the running configuration");
		return;
	}
	if (!plan_listen(next)) {
		log::error("reload: keeping the addresses listened on");
		next.knobs.listen_addrs = cfg_.knobs.listen_addrs;
	}
	// Cluster mode is decided at start: the module cannot leave it.
	if (next.knobs.clustering != cfg_.knobs.clustering)
		log::warning("reload: clustering changes at the next start");
	next.knobs.clustering = cfg_.knobs.clustering;
	cfg_ = std::move(next);
	upcalls_->reload(cfg_);
	apply_metrics();
	subscribe_audit();
	try {
		attach();
		log::notice("configuration reloaded");
	} catch (const NlError &e) {
		log::error(std::string("reload: ") + e.what());
	}
}

// The cluster worker's answers to the module's cluster-req upcalls.
void Daemon::answer_cluster()
{
	for (const auto &r : cluster_->take_replies()) {
		try {
			nl_->cluster_done(r.handle, r.status, r.caching);
		} catch (const NlError &e) {
			log::warning(std::string("cluster: answering smbsrv.ko: ") + e.what());
		}
	}
}

// Cluster mode's liveness: pass each renewal's deadline on to the
// module; false once the node lost its lease (the daemon stops).
bool Daemon::cluster_liveness()
{
	if (auto a = cluster_->take_alive()) {
		try {
			nl_->cluster_alive(a->deadline_ns, a->incarnation);
		} catch (const NlError &e) {
			log::warning(std::string("cluster: cluster-alive to smbsrv.ko: ") +
				     e.what());
		}
	}
	return !cluster_->lost();
}

// Leaving: the module fences now (a deadline already past), before the
// lock goes and survivors reap this node's records.
void Daemon::leave_cluster()
{
	if (!cluster_)
		return;
	try {
		nl_->cluster_alive(1, 0);
	} catch (const NlError &e) {
		log::warning(std::string("cluster: fencing smbsrv.ko on the way out: ") +
			     e.what());
	}
	cluster_.reset();
}

// The incarnation a restarted daemon resumes: the one the module still
// serves, if its deadline has not passed (0: none).
uint64_t Daemon::cluster_resume()
{
	try {
		auto a = nl_->cluster_alive(std::nullopt, 0);
		auto now = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
					    std::chrono::steady_clock::now().time_since_epoch())
					    .count());
		if (a.incarnation && a.deadline_ns > now)
			return a.incarnation;
	} catch (const NlError &e) {
		log::notice(std::string("cluster: asking smbsrv.ko for a previous incarnation: ") +
			    e.what());
	}
	return 0;
}

// Answer every upcall queued; answering may queue more.
void Daemon::serve_upcalls()
{
	while (auto u = nl_->next_upcall()) {
		try {
			upcalls_->handle(*u, *nl_);
		} catch (const NlError &e) {
			log::error(std::string("answering smbsrv.ko: ") + e.what());
			if (!nl_->module_present())
				return;
		}
	}
}

void Daemon::write_pidfile()
{
	if (opts_.pidfile.empty())
		return;
	std::string tmp = opts_.pidfile + ".tmp";
	FILE *f = std::fopen(tmp.c_str(), "w");
	if (!f || std::fprintf(f, "%d\n", getpid()) < 0 || std::fclose(f) != 0 ||
	    std::rename(tmp.c_str(), opts_.pidfile.c_str()) != 0)
		log::warning("cannot write " + opts_.pidfile + ": " +
			     std::strerror(errno));
}

// Detach from the terminal; the parent exits with the child's start-up
// verdict so that a failure to start is still seen by whoever ran us.
int daemonize(int &notify_fd)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		close(p[1]);
		char verdict = 1;
		ssize_t n = read(p[0], &verdict, 1);
		_exit(n == 1 ? verdict : 1);
	}
	close(p[0]);
	setsid();
	if (fork() > 0)
		_exit(0);
	umask(022);
	if (chdir("/") < 0)
		return -1;
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	notify_fd = p[1];
	return 0;
}

int Daemon::run()
{
	log::init("smbsrvd", !opts_.foreground,
		  opts_.debug ? log::Level::debug : log::Level::info);

	// Problems must reach the terminal before we detach from it.
	{
		Diagnostics diags;
		Config cfg = load_config_file(opts_.config, diags);
		if (!report(diags, true)) {
			std::cerr << "smbsrvd: " << opts_.config
				  << " has errors; not starting\n";
			return 1;
		}
		if (opts_.port)
			cfg.knobs.tcp_port = opts_.port;
		cfg_ = std::move(cfg);
	}
	{
		Diagnostics diags;
		UserDb::load(opts_.pwddb, diags);
		if (!report(diags, true)) {
			std::cerr << "smbsrvd: cannot use " << opts_.pwddb << "\n";
			return 1;
		}
	}

	try {
		nl_ = std::make_unique<GenlChannel>(true);
	} catch (const NlError &e) {
		std::cerr << "smbsrvd: " << e.what() << "\n";
		return 1;
	}

	int notify_fd = -1;
	if (!opts_.foreground && daemonize(notify_fd) < 0) {
		std::cerr << "smbsrvd: cannot daemonize: " << std::strerror(errno)
			  << "\n";
		return 1;
	}
	auto notify = [&](char verdict) {
		if (notify_fd >= 0) {
			(void)!write(notify_fd, &verdict, 1);
			close(notify_fd);
			notify_fd = -1;
		}
	};

	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, nullptr);
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		log::error(std::string("signalfd: ") + std::strerror(errno));
		notify(1);
		return 1;
	}

	// IPC$ pipes see the configuration of the moment they are opened.
	upcalls_ = std::make_unique<Upcalls>(
		cfg_, users_, accounts_,
		[this](const std::string &pipe, const std::string &user) {
			return rpc::open_pipe(pipe, cfg_, user, accounts_);
		});
	log::notice(std::to_string(users_.current().users().size()) + " user(s) in " +
		    opts_.pwddb);
	// Session setups on worker threads: a slow one holds up nothing else
	// (design.md, "The daemon").
	upcalls_->start_pool(auth_threads, auth_queue);
	if (!plan_listen(cfg_)) {
		notify(1);
		return 1;
	}
	if (cfg_.knobs.clustering) {
		try {
			auto copt = cluster::options_from(cfg_.global);
			copt.resume = cluster_resume();
			for (const auto &sh : cfg_.shares)
				if (sh.name != "IPC$" && !sh.params.str("path").empty())
					copt.paths.push_back(sh.params.str("path"));
			cluster_ = std::make_unique<cluster::Node>(copt);
		} catch (const std::exception &e) {
			log::error(std::string("clustering = yes: ") + e.what());
			notify(1);
			return 1;
		}
		nl_->on_cluster([this](ClusterReq r) { cluster_->submit(std::move(r)); });
		// Other nodes' pushes reach the module on a socket of their
		// own, from librados' threads: the main loop's socket is this
		// thread's.
		try {
			view_nl_ = std::make_unique<GenlChannel>();
		} catch (const std::exception &e) {
			log::error(std::string("clustering = yes: ") + e.what());
			notify(1);
			return 1;
		}
		cluster_->on_view([this](const cluster::Push &v) { view_nl_->cluster_view(v); });
	}
	try {
		attach();
	} catch (const NlError &e) {
		log::error(std::string("start-up refused by smbsrv.ko: ") +
			   e.what());
		notify(1);
		return 1;
	}
	apply_metrics();
	subscribe_audit();
	write_pidfile();
	notify(0);

	// The module may be unloaded and loaded again under a running daemon.
	nl_->on_event([this](KernelEvent ev) {
		if (ev == KernelEvent::module_unloaded) {
			log::notice("smbsrv.ko was unloaded; waiting for it to be loaded again");
			reattach_ = false;
		} else {
			reattach_ = true;
		}
	});

	int rc = 0;
	for (;;) {
		std::vector<pollfd> fds = {{sfd, POLLIN, 0}, {nl_->fd(), POLLIN, 0},
					   {upcalls_->pool_fd(), POLLIN, 0},
					   {cluster_ ? cluster_->fd() : -1, POLLIN, 0}};
		// The audit socket is fds[4] when there is one; it cannot come
		// or go before it is read below (reload and reattach are
		// after, or continue the loop).
		bool audit = audit_nl_ != nullptr;
		if (audit)
			fds.push_back({audit_nl_->fd(), POLLIN, 0});
		metrics_.add_pollfds(fds);
		if (poll(fds.data(), fds.size(), metrics_.timeout_ms()) < 0) {
			if (errno == EINTR)
				continue;
			log::error(std::string("poll: ") + std::strerror(errno));
			rc = 1;
			break;
		}
		if (fds[0].revents & POLLIN) {
			signalfd_siginfo si{};
			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo == SIGHUP) {
				reload();
				continue;
			}
			log::notice(std::string("stopping on ") +
				    strsignal(static_cast<int>(si.ssi_signo)));
			break;
		}
		metrics_.on_poll(fds);
		if (audit && audit_nl_ && (fds[4].revents & (POLLIN | POLLERR | POLLHUP)) &&
		    !audit_nl_->process_input()) {
			log::error("audit: lost the socket: " + audit_nl_->last_error());
			audit_nl_.reset();
		}
		// Answers of session setups the pool has worked out.  Sending
		// one waits for the module's ack, and upcalls that arrive
		// meanwhile are queued, not left on the socket: served below,
		// or a tree connect would wait for the next datagram.
		if (fds[3].revents & POLLIN) {
			answer_cluster();
			if (!cluster_liveness()) {
				rc = 1;
				break;
			}
		}
		if (fds[2].revents & POLLIN) {
			try {
				upcalls_->run_replies();
			} catch (const NlError &e) {
				log::error(std::string("answering smbsrv.ko: ") + e.what());
			}
		}
		if (fds[1].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (!nl_->process_input()) {
				log::error("lost the netlink socket to smbsrv.ko: " +
					   nl_->last_error());
				rc = 1;
				break;
			}
		}
		serve_upcalls();
		if (reattach_) {
			reattach_ = false;
			audit_nl_.reset();
			try {
				attach();
				subscribe_audit();
			} catch (const NlError &e) {
				log::error(std::string("re-attaching to smbsrv.ko: ") +
					   e.what());
			}
		}
	}
	leave_cluster();
	if (!opts_.pidfile.empty())
		unlink(opts_.pidfile.c_str());
	return rc;
}

} // namespace

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256 };
	static const option longopts[] = {
		{"config", required_argument, nullptr, 'c'},
		{"port", required_argument, nullptr, 'p'},
		{"pwddb", required_argument, nullptr, 'u'},
		{"foreground", no_argument, nullptr, 'F'},
		{"pidfile", required_argument, nullptr, 'P'},
		{"debug", no_argument, nullptr, 'd'},
		{"check-config", no_argument, nullptr, OPT_CHECK},
		{"version", no_argument, nullptr, 'V'},
		{"help", no_argument, nullptr, 'h'},
		{nullptr, 0, nullptr, 0},
	};
	Options opts;
	int c;
	while ((c = getopt_long(argc, argv, "c:p:u:FP:dVh", longopts, nullptr)) != -1) {
		switch (c) {
		case 'c':
			opts.config = optarg;
			break;
		case 'p': {
			char *end = nullptr;
			unsigned long v = std::strtoul(optarg, &end, 10);
			if (*end || v == 0 || v > 65535) {
				std::cerr << "smbsrvd: invalid port '" << optarg << "'\n";
				return 2;
			}
			opts.port = static_cast<uint32_t>(v);
			break;
		}
		case 'u':
			opts.pwddb = optarg;
			break;
		case 'F':
			opts.foreground = true;
			break;
		case 'P':
			opts.pidfile = optarg;
			break;
		case 'd':
			opts.debug = true;
			break;
		case OPT_CHECK:
			opts.check_only = true;
			break;
		case 'V':
			std::cout << "smbsrvd " SMBSRV_VERSION "\n";
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (opts.check_only) {
		if (optind < argc)
			opts.config = argv[optind++];
		return check_config(opts.config);
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	return Daemon(std::move(opts)).run();
}
