// SPDX-License-Identifier: GPL-2.0-or-later
// The daemon's upcall answers, end to end against a fake KernelChannel:
// Samba's recorded logons through the user database file as it changes,
// tree connects across a reload, and named pipes.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <linux/smbsrv.h>
#include <map>
#include <poll.h>
#include <sstream>
#include <syslog.h>
#include <unistd.h>

#include "config.hpp"
#include "ntstatus.hpp"
#include "upcalls.hpp"

using namespace smbsrv;

namespace {

class FakeAccounts final : public Accounts {
public:
	std::map<std::string, Account> users{
		{"alice", {"alice", 1001, 1001, {1001, 1100}}},
		{"jürgen", {"jürgen", 1003, 1003, {1003}}},
		{"nobody", {"nobody", 65534, 65534, {65534}}},
	};
	std::optional<Account> user(const std::string &name) override
	{
		auto it = users.find(name);
		if (it == users.end())
			return std::nullopt;
		return it->second;
	}
	std::optional<uint32_t> group(const std::string &name) override
	{
		if (name == "family")
			return 1100;
		return std::nullopt;
	}
};

// Records the answers; can be told to refuse them.
class FakeKernel final : public KernelChannel {
public:
	std::vector<SessionSetupDone> auth;
	std::vector<TreeConnectDone> trees;
	std::vector<RpcDone> rpcs;
	int refuse_with = 0;

	ServerStatus startup(uint32_t, const Knobs &, ByteView) override { return {}; }
	ServerStatus status() override { return {}; }
	void session_setup_done(const SessionSetupDone &d) override
	{
		check();
		auth.push_back(d);
	}
	void tree_connect_done(const TreeConnectDone &d) override
	{
		check();
		trees.push_back(d);
	}
	void rpc_done(const RpcDone &d) override
	{
		check();
		rpcs.push_back(d);
	}

private:
	void check() const
	{
		if (refuse_with)
			throw NlError(refuse_with, "refused");
	}
};

struct TempDir {
	std::string path;
	TempDir()
	{
		char tmpl[] = "/tmp/smbsrv-test-XXXXXX";
		path = mkdtemp(tmpl);
	}
	~TempDir() { (void)!std::system(("rm -rf '" + path + "'").c_str()); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;
};

Config conf(const std::string &text)
{
	Diagnostics d;
	Config c = build_config(parse_conf_text(text, "t.conf", d), d);
	REQUIRE_FALSE(d.has_errors());
	return c;
}

// The client legs of a recorded exchange (tests/unit/data/auth).
struct Recorded {
	std::vector<Bytes> legs;
	std::string seed;
	uint64_t time = 0;
	std::string client_key;
};

Recorded recorded(const std::string &name)
{
	Recorded r;
	std::ifstream in(std::string(SMBSRV_TEST_DATA) + "/auth/" + name + ".txt");
	REQUIRE(in);
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string k, v;
		ls >> k >> v;
		if (k == "C") {
			Bytes b;
			if (v != "-")
				REQUIRE(from_hex(v, b));
			r.legs.push_back(b);
		} else if (k == "seed") {
			r.seed = v;
		} else if (k == "time") {
			r.time = std::stoull(v);
		} else if (k == "client-key") {
			r.client_key = v;
		}
	}
	return r;
}

ntlm::Entropy entropy_of(const Recorded &r)
{
	Bytes seed;
	REQUIRE(from_hex(r.seed, seed));
	ntlm::Entropy e;
	e.random = [seed](std::span<uint8_t> out) {
		for (size_t i = 0; i < out.size(); i++)
			out[i] = seed[i % seed.size()];
	};
	uint64_t t = r.time;
	e.now = [t] { return t; };
	return e;
}

const char *kConf = R"(
[global]
	netbios name = SMBSRV
	workgroup = WORKGROUP
[demo]
	path = /srv/demo
	read only = no
)";

struct Rig {
	TempDir dir;
	std::string db_path = dir.path + "/smbsrvpwd.db";
	UserDbFile users{db_path};
	FakeAccounts accounts;
	FakeKernel kernel;
	Recorded rec = recorded("spnego-alice");
	Upcalls up;

	explicit Rig(RpcEndpointFactory rpc = {})
		: up(conf(kConf), users, accounts, std::move(rpc), entropy_of(rec))
	{
		set_password("alice", "secret");
		// The recording's CHALLENGE named the server as auth-driver
		// does; the MIC covers it, so ours must be byte-identical.
		AuthPolicy p = AuthPolicy::from_config(up.config());
		p.identity.dns_name = "smbsrv.test";
		p.identity.dns_domain = "test";
		up.auth().set_policy(p);
	}
	void set_password(const std::string &user, const std::string &pw)
	{
		Diagnostics d;
		UserDb db = UserDb::load(db_path, d);
		db.set(user, *nt_hash(pw));
		db.save(db_path);
	}
	void remove(const std::string &user)
	{
		Diagnostics d;
		UserDb db = UserDb::load(db_path, d);
		db.remove(user);
		db.save(db_path);
	}
	// Run the recorded logon on session sid; the last answer.
	SessionSetupDone logon(uint64_t sid)
	{
		uint32_t h = 100;
		for (const Bytes &leg : rec.legs) {
			SessionSetupReq r{h++, sid, "10.0.2.2", 0x0311, leg};
			up.handle(r, kernel);
			REQUIRE(kernel.auth.back().handle == r.handle);
			if (kernel.auth.back().status != nt::MORE_PROCESSING_REQUIRED)
				break;
		}
		return kernel.auth.back();
	}
	TreeConnectDone tree(const std::string &share, const std::string &user = "alice",
			     uint32_t flags = 0)
	{
		TreeConnectReq r{7, 1, user, 1001, flags, "10.0.2.2", share};
		up.handle(r, kernel);
		return kernel.trees.back();
	}
};

} // namespace

TEST_CASE("a Samba logon through the upcall path yields identity and key", "[upcalls]")
{
	Rig rig;
	SessionSetupDone d = rig.logon(0x10);
	REQUIRE(d.status == nt::SUCCESS);
	CHECK(to_hex(d.session_key) == rig.rec.client_key);
	CHECK(d.uid == 1001);
	CHECK(d.gid == 1001);
	CHECK(d.groups == std::vector<uint32_t>{1001, 1100});
	CHECK(d.user == "alice");
	CHECK(d.domain == "WORKGROUP");
	CHECK(d.flags == 0);
	CHECK_FALSE(d.blob.empty()); // SPNEGO accept-completed with mechListMIC
	REQUIRE(rig.kernel.auth.size() == 2);
	CHECK(rig.kernel.auth[0].status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(rig.kernel.auth[0].session_key.empty());
}

TEST_CASE("a removed or re-passworded user fails at the next logon", "[upcalls]")
{
	Rig rig;
	CHECK(rig.logon(1).status == nt::SUCCESS);
	rig.remove("alice");
	CHECK(rig.logon(2).status == nt::LOGON_FAILURE);
	rig.set_password("alice", "other");
	CHECK(rig.logon(3).status == nt::LOGON_FAILURE);
	rig.set_password("alice", "secret");
	CHECK(rig.logon(4).status == nt::SUCCESS);
}

TEST_CASE("tree connects follow a reload; logons in progress survive it", "[upcalls]")
{
	Rig rig;
	CHECK(rig.tree("demo").status == nt::SUCCESS);
	CHECK(rig.tree("demo").share->path == "/srv/demo");
	CHECK(rig.tree("new").status == nt::BAD_NETWORK_NAME);

	// First leg, then a reload, then the second leg.
	rig.up.handle(SessionSetupReq{1, 9, "10.0.2.2", 0x0311, rig.rec.legs[0]}, rig.kernel);
	rig.up.reload(conf("[new]\npath = /srv/new\n"));
	rig.up.handle(SessionSetupReq{2, 9, "10.0.2.2", 0x0311, rig.rec.legs[1]}, rig.kernel);
	CHECK(rig.kernel.auth.back().status == nt::SUCCESS);

	CHECK(rig.tree("demo").status == nt::BAD_NETWORK_NAME);
	CHECK(rig.tree("new").status == nt::SUCCESS);
	CHECK(rig.tree("IPC$").status == nt::SUCCESS);
}

TEST_CASE("a refused answer is logged; a broken channel propagates", "[upcalls]")
{
	Rig rig;
	rig.kernel.refuse_with = ENOENT; // the module timed the upcall out
	CHECK_NOTHROW(rig.up.handle(TreeConnectReq{1, 1, "alice", 1001, 0, "::1", "demo"},
				    rig.kernel));
	rig.kernel.refuse_with = EBADF;
	CHECK_THROWS_AS(rig.up.handle(TreeConnectReq{2, 1, "alice", 1001, 0, "::1", "demo"},
				      rig.kernel),
			NlError);
}

namespace {

// A test endpoint: answers each write with its bytes reversed.
class Reverser final : public RpcEndpoint {
public:
	Bytes process(ByteView in) override { return {in.rbegin(), in.rend()}; }
};

RpcReq rpc(uint32_t op, uint32_t pipe, ByteView data = {}, uint32_t max_out = 1024,
	   uint64_t sid = 1, const std::string &name = "\\PIPE\\srvsvc")
{
	RpcReq r;
	r.handle = 50 + op;
	r.session_id = sid;
	r.pipe_id = pipe;
	r.op = op;
	r.pipe_name = name;
	r.user = "alice";
	r.data.assign(data.begin(), data.end());
	r.max_out = max_out;
	return r;
}

} // namespace

TEST_CASE("pipes nobody serves do not exist", "[pipes]")
{
	Rig rig;
	rig.up.handle(rpc(SMBSRV_RPC_OP_OPEN, 1), rig.kernel);
	CHECK(rig.kernel.rpcs.back().status == nt::OBJECT_NAME_NOT_FOUND);
	CHECK(rig.kernel.rpcs.back().handle == 50 + SMBSRV_RPC_OP_OPEN);
	rig.up.handle(rpc(SMBSRV_RPC_OP_WRITE, 1, Bytes{1}), rig.kernel);
	CHECK(rig.kernel.rpcs.back().status == nt::INVALID_HANDLE);
}

TEST_CASE("pipe open, write, read, transact and close", "[pipes]")
{
	std::vector<std::string> opened;
	PipeTable pt([&](const std::string &pipe, const std::string &) -> std::unique_ptr<RpcEndpoint> {
		opened.push_back(pipe);
		if (pipe != "srvsvc")
			return nullptr;
		return std::make_unique<Reverser>();
	});
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_OPEN, 1)).status == nt::SUCCESS);
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_OPEN, 2, {}, 0, 1, "lsarpc")).status ==
	      nt::OBJECT_NAME_NOT_FOUND);
	CHECK(opened == std::vector<std::string>{"srvsvc", "lsarpc"});

	// Write, then read back in two pieces.
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_WRITE, 1, Bytes{1, 2, 3, 4, 5})).status == nt::SUCCESS);
	RpcDone r1 = pt.handle(rpc(SMBSRV_RPC_OP_READ, 1, {}, 3));
	CHECK(r1.status == nt::BUFFER_OVERFLOW);
	CHECK(r1.data == Bytes{5, 4, 3});
	RpcDone r2 = pt.handle(rpc(SMBSRV_RPC_OP_READ, 1, {}, 3));
	CHECK(r2.status == nt::SUCCESS);
	CHECK(r2.data == Bytes{2, 1});

	// Transact: write and read in one.
	RpcDone t = pt.handle(rpc(SMBSRV_RPC_OP_TRANSACT, 1, Bytes{9, 8}));
	CHECK(t.status == nt::SUCCESS);
	CHECK(t.data == Bytes{8, 9});

	// Pipe ids are per session.
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_READ, 1, {}, 3, 2)).status == nt::INVALID_HANDLE);

	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_CLOSE, 1)).status == nt::SUCCESS);
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_READ, 1)).status == nt::INVALID_HANDLE);
	CHECK(pt.handle(rpc(SMBSRV_RPC_OP_CLOSE, 1)).status == nt::INVALID_HANDLE);
	CHECK(pt.handle(rpc(99, 1)).status == nt::INVALID_HANDLE);
	CHECK(pt.open_pipes() == 0);
}

TEST_CASE("full_audit: logons and tree connects, as [global] and each share say", "[upcalls]")
{
	Rig rig;
	rig.up.reload(conf(R"(
[global]
	netbios name = SMBSRV
	workgroup = WORKGROUP
	vfs objects = full_audit
	full_audit:success = logon
	full_audit:failure = logon connect
	full_audit:prefix = %u|%I|%S|%D|%%|%x
[demo]
	path = /srv/demo
	full_audit:success = connect
	full_audit:facility = local5
	full_audit:priority = warning
[quiet]
	path = /srv/quiet
	vfs objects = streams_xattr
)"));
	AuthPolicy p = AuthPolicy::from_config(rig.up.config());
	p.identity.dns_name = "smbsrv.test";
	p.identity.dns_domain = "test";
	rig.up.auth().set_policy(p);
	std::vector<std::pair<AuditStyle, AuditRecord>> got;
	rig.up.set_audit_sink(
		[&](const AuditStyle &s, const AuditRecord &r) { got.emplace_back(s, r); });

	REQUIRE(rig.logon(0x10).status == nt::SUCCESS);
	rig.set_password("alice", "other");
	REQUIRE(rig.logon(0x11).status == nt::LOGON_FAILURE);
	// One record per logon, at its last leg; a refusal names who it was.
	REQUIRE(got.size() == 2);
	CHECK(audit_line(got[0].first, got[0].second) ==
	      "alice|10.0.2.2||WORKGROUP|%|%x|logon|ok|alice");
	CHECK(got[0].second.session_id == 0x10);
	CHECK(audit_line(got[1].first, got[1].second) ==
	      "alice|10.0.2.2||WORKGROUP|%|%x|logon|fail (NT_STATUS_LOGON_FAILURE)|alice");

	got.clear();
	CHECK(rig.tree("demo").status == nt::SUCCESS);
	CHECK(rig.tree("quiet").status == nt::SUCCESS);
	CHECK(rig.tree("nosuch").status == nt::BAD_NETWORK_NAME);
	// [demo] audits connect with its own facility; [quiet] nothing; a
	// share that does not exist as [global] says (failures of connect).
	REQUIRE(got.size() == 2);
	CHECK(got[0].second.share == "demo");
	CHECK(got[0].first.facility == LOG_LOCAL5);
	CHECK(got[0].first.priority == LOG_WARNING);
	CHECK(audit_line(got[0].first, got[0].second) ==
	      "alice|10.0.2.2|demo||%|%x|connect|ok|demo");
	CHECK(audit_line(got[1].first, got[1].second) ==
	      "alice|10.0.2.2|nosuch||%|%x|connect|fail (NT_STATUS_BAD_NETWORK_NAME)|nosuch");
	// The share the module gets carries its masks: demo's success is its
	// own (connect), its failures [global]'s (logon, connect).
	const auto &demo = *rig.kernel.trees[rig.kernel.trees.size() - 3].share;
	CHECK(demo.audit_success == 1U << SMBSRV_AUDIT_OP_CONNECT);
	CHECK(demo.audit_failure ==
	      ((1U << SMBSRV_AUDIT_OP_LOGON) | (1U << SMBSRV_AUDIT_OP_CONNECT)));
	CHECK(rig.kernel.trees[rig.kernel.trees.size() - 2].share->audit_success == 0);
}

TEST_CASE("with the session-setup pool: answers through its fd, legs in order", "[upcalls][authpool]")
{
	Rig rig;
	rig.up.start_pool(2, 8);
	REQUIRE(rig.up.pool_fd() >= 0);
	REQUIRE(rig.rec.legs.size() == 2);
	// Both legs of a logon handed over at once: the second runs after the
	// first, on the exchange the first left.
	rig.up.handle(SessionSetupReq{100, 5, "10.0.2.2", 0x0311, rig.rec.legs[0]}, rig.kernel);
	rig.up.handle(SessionSetupReq{101, 5, "10.0.2.2", 0x0311, rig.rec.legs[1]}, rig.kernel);
	// Tree connects are answered at once, not behind the pool.
	CHECK(rig.tree("demo").status == nt::SUCCESS);
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	while (rig.kernel.auth.size() < 2 && std::chrono::steady_clock::now() < end) {
		pollfd p{rig.up.pool_fd(), POLLIN, 0};
		if (poll(&p, 1, 100) == 1)
			rig.up.run_replies();
	}
	REQUIRE(rig.kernel.auth.size() == 2);
	CHECK(rig.kernel.auth[0].handle == 100);
	CHECK(rig.kernel.auth[0].status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(rig.kernel.auth[1].handle == 101);
	CHECK(rig.kernel.auth[1].status == nt::SUCCESS);
	CHECK(rig.kernel.auth[1].uid == 1001);
	CHECK(to_hex(rig.kernel.auth[1].session_key) == rig.rec.client_key);
}
