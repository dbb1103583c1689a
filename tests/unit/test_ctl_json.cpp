// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl -j against a fake module: the JSON of status, sessions,
// connections, opens, stats and the share commands holds the module's
// values, and its keys and types are exactly those the admin guide's
// "Machine-readable output" tables document (a key added, renamed or
// retyped without its row fails here).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <linux/smbsrv.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "config.hpp"
#include "ctl_json.hpp"
#include "ctl_netlink.hpp"
#include "fake_kernel.hpp"

using namespace smbsrv;
using namespace smbsrv::test;
using Json = nlohmann::json;

namespace {

std::string slurp(const std::string &rel)
{
	std::ifstream in(std::string(SMBSRV_TEST_DATA) + "/../../../" + rel);
	REQUIRE(in.good());
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

// The module's answers: a status with two shares in use, two sessions,
// a connection, a lease and a disconnected durable open, two queues and
// the READ counters.
void fake_module(ByteView req, FakeSocket &k)
{
	switch (cmd_of(req)) {
	case SMBSRV_CMD_STATUS_GET: {
		KMsg r(SMBSRV_CMD_STATUS_GET);
		r.str(SMBSRV_A_SERVER_MODULE_VERSION, "0.9")
			.u32(SMBSRV_A_SERVER_DAEMON_STATE, SMBSRV_DAEMON_STATE_RUNNING)
			.u32(SMBSRV_A_SERVER_DAEMON_PID, 321)
			.u32(SMBSRV_A_SERVER_LISTEN_PORT, 445)
			.u32(SMBSRV_A_SERVER_CONNECTIONS, 3)
			.u32(SMBSRV_A_SERVER_SESSIONS, 2)
			.u64(SMBSRV_A_SERVER_CONNS_REFUSED, 1ULL << 40)
			.u64(SMBSRV_A_SERVER_CONNS_EVICTED, 5)
			.u64(SMBSRV_A_SERVER_CONNS_LOGON_EXPIRED, 6)
			.u64(SMBSRV_A_SERVER_CONNS_IDLE_CLOSED, 7)
			.u64(SMBSRV_A_SERVER_FOLD_SCANS, 8)
			.u64(SMBSRV_A_SERVER_FOLD_ENTRIES, 9)
			.u64(SMBSRV_A_SERVER_FOLD_CACHED, 10);
		const uint8_t v4[4] = {10, 0, 0, 1};
		// fe80::1 with scope id 2 (host order after the address).
		uint8_t v6[20] = {0xfe, 0x80};
		v6[15] = 1;
		const uint32_t scope = 2;
		std::memcpy(v6 + 16, &scope, 4);
		nla_put(r.raw(), SMBSRV_A_SERVER_LISTEN_ADDR, 4, v4);
		nla_put(r.raw(), SMBSRV_A_SERVER_LISTEN_ADDR, 20, v6);
		nlattr *n = nla_nest_start(r.raw(), SMBSRV_A_SERVER_KNOBS);
		nla_put_u32(r.raw(), SMBSRV_A_KNOBS_TCP_PORT, 445);
		nla_put_u32(r.raw(), SMBSRV_A_KNOBS_SMB2_MAX_READ, 4U << 20);
		nla_put_u32(r.raw(), SMBSRV_A_KNOBS_SIGNING, SMBSRV_CONFIG_OPT_MANDATORY);
		nla_put_u32(r.raw(), SMBSRV_A_KNOBS_INLINE_READS, 0);
		nla_put_string(r.raw(), SMBSRV_A_KNOBS_NETBIOS_NAME, "FILER");
		nla_nest_end(r.raw(), n);
		for (auto [name, trees, max] : {std::tuple{"data", 2U, 0U}, {"home", 1U, 10U}}) {
			nlattr *u = nla_nest_start(r.raw(), SMBSRV_A_SERVER_SHARE_USE);
			nla_put_string(r.raw(), SMBSRV_A_SHARE_USE_NAME, name);
			nla_put_u32(r.raw(), SMBSRV_A_SHARE_USE_TREES, trees);
			nla_put_u32(r.raw(), SMBSRV_A_SHARE_USE_MAX_CONNECTIONS, max);
			nla_nest_end(r.raw(), u);
		}
		k.reply_and_ack(req, &r);
		return;
	}
	case SMBSRV_CMD_SESSION_GET: {
		KMsg a(SMBSRV_CMD_SESSION_GET), b(SMBSRV_CMD_SESSION_GET);
		a.u64(SMBSRV_A_SESSION_SESSION_ID, 0xfedcba9876543210ULL)
			.u32(SMBSRV_A_SESSION_CONN_ID, 7)
			.str(SMBSRV_A_SESSION_USER, "alice")
			.str(SMBSRV_A_SESSION_DOMAIN, "WORKGROUP")
			.str(SMBSRV_A_SESSION_CLIENT_ADDR, "10.0.2.2")
			.u32(SMBSRV_A_SESSION_DIALECT, 0x0311)
			.u32(SMBSRV_A_SESSION_SIGNED, 1)
			.u32(SMBSRV_A_SESSION_TREES, 2)
			.u32(SMBSRV_A_SESSION_OPEN_FILES, 5)
			.u32(SMBSRV_A_SESSION_AGE, 61)
			.u32(SMBSRV_A_SESSION_CHANNEL, 7)
			.u32(SMBSRV_A_SESSION_CHANNEL, 12);
		b.u64(SMBSRV_A_SESSION_SESSION_ID, 2)
			.u32(SMBSRV_A_SESSION_FLAGS, SMBSRV_SESSION_FLAGS_GUEST)
			.u32(SMBSRV_A_SESSION_ENCRYPTED, 1);
		dump_answer(k, req, {&a, &b});
		return;
	}
	case SMBSRV_CMD_CONNECTION_GET: {
		KMsg a(SMBSRV_CMD_CONNECTION_GET), b(SMBSRV_CMD_CONNECTION_GET);
		a.u32(SMBSRV_A_CONNECTION_CONN_ID, 3)
			.str(SMBSRV_A_CONNECTION_CLIENT_ADDR, "::1")
			.u32(SMBSRV_A_CONNECTION_DIALECT, 0x0210)
			.u32(SMBSRV_A_CONNECTION_SESSIONS, 1)
			.u32(SMBSRV_A_CONNECTION_CREDITS, 512)
			.u64(SMBSRV_A_CONNECTION_REQUESTS, 1ULL << 33)
			.u32(SMBSRV_A_CONNECTION_AGE, 5);
		// Not negotiated yet: no dialect.
		b.u32(SMBSRV_A_CONNECTION_CONN_ID, 4).str(SMBSRV_A_CONNECTION_CLIENT_ADDR, "10.0.2.9");
		dump_answer(k, req, {&a, &b});
		return;
	}
	case SMBSRV_CMD_OPEN_GET: {
		KMsg a(SMBSRV_CMD_OPEN_GET), b(SMBSRV_CMD_OPEN_GET);
		Bytes key(16, 0xab);
		a.u64(SMBSRV_A_OPEN_SESSION_ID, 9)
			.u32(SMBSRV_A_OPEN_TREE_ID, 1)
			.u64(SMBSRV_A_OPEN_PERSISTENT_ID, 0x100000003ULL)
			.u64(SMBSRV_A_OPEN_VOLATILE_ID, 4)
			.str(SMBSRV_A_OPEN_PATH, "dir/f.txt")
			.str(SMBSRV_A_OPEN_SHARE, "data")
			.u32(SMBSRV_A_OPEN_ACCESS, 0x12019f)
			.u32(SMBSRV_A_OPEN_OPLOCK, 0xff)
			.u32(SMBSRV_A_OPEN_LEASE_STATE, 7)
			.bin(SMBSRV_A_OPEN_LEASE_KEY, key)
			.u32(SMBSRV_A_OPEN_LEASE_EPOCH, 3)
			.u32(SMBSRV_A_OPEN_BREAKING, 1)
			.u32(SMBSRV_A_OPEN_DURABLE, 2);
		b.u64(SMBSRV_A_OPEN_SESSION_ID, 0)
			.u64(SMBSRV_A_OPEN_PERSISTENT_ID, 77)
			.str(SMBSRV_A_OPEN_PATH, "old.doc")
			.u32(SMBSRV_A_OPEN_OPLOCK, 0x09)
			.u32(SMBSRV_A_OPEN_DURABLE, 1)
			.u32(SMBSRV_A_OPEN_DISCONNECTED_LEFT, 42);
		dump_answer(k, req, {&a, &b});
		return;
	}
	case SMBSRV_CMD_QUEUE_GET: {
		KMsg a(SMBSRV_CMD_QUEUE_GET), b(SMBSRV_CMD_QUEUE_GET);
		a.u32(SMBSRV_A_QUEUE_INDEX, 0)
			.str(SMBSRV_A_QUEUE_NAME, "smbsrv")
			.u64(SMBSRV_A_QUEUE_QUEUED, 100)
			.u64(SMBSRV_A_QUEUE_COMPLETED, 98)
			.u32(SMBSRV_A_QUEUE_INFLIGHT, 2)
			.u32(SMBSRV_A_QUEUE_INFLIGHT_MAX, 17)
			.u64(SMBSRV_A_QUEUE_WAIT_NS, 5000)
			.u64(SMBSRV_A_QUEUE_SENDS, 90)
			.u64(SMBSRV_A_QUEUE_RESPONSES, 98)
			.u64(SMBSRV_A_QUEUE_BATCHED_SENDS, 4)
			.u32(SMBSRV_A_QUEUE_BATCH_MAX, 3);
		b.u32(SMBSRV_A_QUEUE_INDEX, 1)
			.str(SMBSRV_A_QUEUE_NAME, "smbsrv-unbound")
			.u32(SMBSRV_A_QUEUE_UNBOUND, 1);
		dump_answer(k, req, {&a, &b});
		return;
	}
	case SMBSRV_CMD_READ_STATS_GET: {
		KMsg r(SMBSRV_CMD_READ_STATS_GET);
		r.u64(SMBSRV_A_READ_STATS_SPLICED, 11)
			.u64(SMBSRV_A_READ_STATS_SPLICED_BYTES, 1ULL << 40)
			.u64(SMBSRV_A_READ_STATS_COPIED, 12)
			.u64(SMBSRV_A_READ_STATS_COPY_SMALL, 13)
			.u64(SMBSRV_A_READ_STATS_INLINE_HITS, 14)
			.u64(SMBSRV_A_READ_STATS_PAGES_INFLIGHT, 15);
		k.reply_and_ack(req, &r);
		return;
	}
	case SMBSRV_CMD_WRITE_STATS_GET: {
		KMsg r(SMBSRV_CMD_WRITE_STATS_GET);
		r.u64(SMBSRV_A_WRITE_STATS_ONE_COPY, 21)
			.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_BYTES, 1ULL << 41)
			.u64(SMBSRV_A_WRITE_STATS_COPIED, 22)
			.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_SIGNED, 23)
			.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_SEALED, 24)
			.u64(SMBSRV_A_WRITE_STATS_INLINE, 25)
			.u64(SMBSRV_A_WRITE_STATS_INLINE_DEPTH, 26)
			.u64(SMBSRV_A_WRITE_STATS_INLINE_DEFERRED, 27);
		k.reply_and_ack(req, &r);
		return;
	}
	case SMBSRV_CMD_STATS_GET: {
		KMsg r(SMBSRV_CMD_STATS_GET);
		r.u64(SMBSRV_A_STATS_WRITE_BYTES, 1ULL << 36)
			.u64(SMBSRV_A_STATS_OPLOCK_BREAKS, 4)
			.u64(SMBSRV_A_STATS_LEASE_BREAKS, 5)
			.u32(SMBSRV_A_STATS_OPEN_FILES, 6)
			.u64(SMBSRV_A_STATS_AUDIT_RECORDS, 7)
			.u64(SMBSRV_A_STATS_AUDIT_DROPPED, 8)
			.u64(SMBSRV_A_STATS_BAD_SIGNATURES, 9);
		for (uint64_t b : {10000ULL, 1000000ULL})
			r.u64(SMBSRV_A_STATS_LATENCY_BOUND, b);
		// READ: 3 requests, one error, two buckets and the unbounded one.
		nlattr *n = nla_nest_start(r.raw(), SMBSRV_A_STATS_COMMAND);
		nla_put_u32(r.raw(), SMBSRV_A_COMMAND_STATS_COMMAND, 8);
		nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_REQUESTS, 3);
		nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_ERRORS, 1);
		nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_LATENCY_NS, 2005000);
		for (uint64_t b : {1ULL, 1ULL, 1ULL})
			nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_LATENCY_BUCKET, b);
		nla_nest_end(r.raw(), n);
		// A command whose histogram does not match the bounds.
		n = nla_nest_start(r.raw(), SMBSRV_A_STATS_COMMAND);
		nla_put_u32(r.raw(), SMBSRV_A_COMMAND_STATS_COMMAND, 9);
		nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_REQUESTS, 2);
		nla_put_u64(r.raw(), SMBSRV_A_COMMAND_STATS_LATENCY_BUCKET, 2);
		nla_nest_end(r.raw(), n);
		k.reply_and_ack(req, &r);
		return;
	}
	default:
		k.inbox.push_back(ack(req, EOPNOTSUPP));
	}
}

// JSON type names as the admin guide's tables spell them.
std::string type_of(const Json &v)
{
	switch (v.type()) {
	case Json::value_t::null: return "null";
	case Json::value_t::boolean: return "boolean";
	case Json::value_t::string: return "string";
	case Json::value_t::array: return "array";
	case Json::value_t::object: return "object";
	default: return "number";
	}
}

// Every key path ("lease.state", "channels[]", "knobs.<knob>.value") with
// the types its values had.  The members of `wild` objects (knob names,
// parameter names) are one path with <placeholder>.
void flatten(const Json &v, const std::string &path, std::map<std::string, std::set<std::string>> &out,
	     const std::map<std::string, std::string> &wild)
{
	// An array's objects are documented by their members.
	bool item_object = v.is_object() && path.size() >= 2 &&
			   path.compare(path.size() - 2, 2, "[]") == 0;
	if (!path.empty() && !item_object)
		out[path].insert(type_of(v));
	if (v.is_object()) {
		auto w = wild.find(path);
		for (const auto &[k, x] : v.items()) {
			std::string key = w != wild.end() ? w->second : k;
			flatten(x, path.empty() ? key : std::string(path).append(".").append(key), out,
				wild);
		}
	} else if (v.is_array()) {
		for (const auto &x : v)
			flatten(x, path + "[]", out, wild);
	}
}

// The table under the admin guide's heading "#### `smbsrvctl -j WHAT`":
// key path -> the types it allows ("string or null": string, null).
std::map<std::string, std::set<std::string>> documented(const std::string &what)
{
	std::string text = slurp("Documentation/admin-guide.md");
	std::string heading = "#### `smbsrvctl -j " + what + "`";
	size_t at = text.find("\n" + heading + "\n");
	REQUIRE(at != std::string::npos);
	std::istringstream in(text.substr(at + heading.size() + 2));
	std::map<std::string, std::set<std::string>> out;
	std::string line;
	bool in_table = false;
	while (std::getline(in, line)) {
		if (line.rfind('#', 0) == 0)
			break;
		if (line.rfind("| `", 0) != 0) {
			if (in_table)
				break;
			continue;
		}
		in_table = true;
		size_t a = line.find('`') + 1, b = line.find('`', a);
		std::string key = line.substr(a, b - a);
		size_t c = line.find('|', b) + 1, d = line.find('|', c);
		std::string types = line.substr(c, d - c);
		std::set<std::string> allowed;
		for (const char *t : {"null", "boolean", "string", "number", "array", "object"})
			if (types.find(t) != std::string::npos)
				allowed.insert(t);
		out[key] = allowed;
	}
	REQUIRE_FALSE(out.empty());
	return out;
}

// What an output holds against what its table documents, both ways.
void check_schema(const std::string &what, const Json &v,
		  const std::map<std::string, std::string> &wild = {})
{
	std::map<std::string, std::set<std::string>> seen;
	// A list's items are documented by their own keys.
	if (v.is_array())
		for (const auto &x : v)
			flatten(x, "", seen, wild);
	else
		flatten(v, "", seen, wild);
	auto doc = documented(what);
	for (const auto &[path, types] : seen) {
		INFO(what << ": " << path);
		REQUIRE(doc.contains(path));
		for (const auto &t : types) {
			INFO("type " << t);
			CHECK(doc[path].contains(t));
		}
	}
	for (const auto &[path, types] : doc) {
		INFO(what << ": documented " << path << " never seen");
		CHECK(seen.contains(path));
	}
}

Config sample_config()
{
	Diagnostics d;
	Config cfg = build_config(parse_conf_text("[global]\n"
						  "[data]\n\tpath = /srv/data\n\tcomment = Team data\n"
						  "[home]\n\tpath = /home\n\tmax connections = 10\n"
						  "\tread only = no\n",
						  "test.conf", d),
				  d);
	REQUIRE_FALSE(d.has_errors());
	return cfg;
}

} // namespace

TEST_CASE("smbsrvctl -j status: values and the documented schema")
{
	FakeModule m;
	m.sock->on_send = fake_module;
	ServerStatus st = m.nl->status();
	Json j = Json::parse(status_json(st, false));
	CHECK(j["module_version"] == "0.9");
	CHECK(j["daemon"]["running"] == true);
	CHECK(j["daemon"]["pid"] == 321);
	CHECK(j["listen_port"] == 445);
	CHECK(j["listen_addresses"] == Json::array({"10.0.0.1", "fe80::1%2"}));
	CHECK(j["connections"] == 3);
	CHECK(j["sessions"] == 2);
	REQUIRE(j["shares"].size() == 2);
	CHECK(j["shares"][0]["name"] == "data");
	CHECK(j["shares"][0]["tree_connects"] == 2);
	CHECK(j["shares"][0]["max_connections"].is_null());
	CHECK(j["shares"][1]["max_connections"] == 10);
	// Only the knobs the module reported; each typed as its parameter.
	CHECK(j["knobs"].size() == 5);
	CHECK(j["knobs"]["tcp_port"]["value"] == 445);
	CHECK(j["knobs"]["smb2_max_read"]["value"] == 4U << 20);
	CHECK(j["knobs"]["signing"]["value"] == "mandatory");
	CHECK(j["knobs"]["inline_reads"]["value"] == false);
	CHECK(j["knobs"]["netbios_name"]["value"] == "FILER");
	CHECK(j["knobs"]["tcp_port"]["in_effect"] == true);
	// One line without -p; the same document indented with it.
	std::string flat = status_json(st, false);
	CHECK(flat.find('\n') == std::string::npos);
	std::string pretty = status_json(st, true);
	CHECK(pretty.find("\n  \"module_version\": \"0.9\",\n") != std::string::npos);
	CHECK(Json::parse(pretty) == j);

	// A module without a daemon and without a listener: nulls, same keys.
	ServerStatus none;
	Json n = Json::parse(status_json(none, false));
	CHECK(n["daemon"]["pid"].is_null());
	CHECK(n["listen_port"].is_null());
	Json both = Json::array({j, n});
	check_schema("status", both, {{"knobs", "<knob>"}});
}

TEST_CASE("smbsrvctl -j sessions, connections, opens: values and the documented schema")
{
	FakeModule m;
	m.sock->on_send = fake_module;

	Json s = Json::parse(sessions_json(list_sessions(*m.nl), false));
	REQUIRE(s.size() == 2);
	// 64-bit ids as hex text, as `kill session` takes them.
	CHECK(s[0]["session_id"] == "0xfedcba9876543210");
	CHECK(s[0]["connection_id"] == 7);
	CHECK(s[0]["user"] == "alice");
	CHECK(s[0]["client"] == "10.0.2.2");
	CHECK(s[0]["dialect"] == "3.1.1");
	CHECK(s[0]["signing"] == true);
	CHECK(s[0]["encryption"] == false);
	CHECK(s[0]["guest"] == false);
	CHECK(s[0]["open_files"] == 5);
	CHECK(s[0]["age_seconds"] == 61);
	CHECK(s[0]["channels"] == Json::array({7, 12}));
	CHECK(s[1]["guest"] == true);
	CHECK(s[1]["encryption"] == true);
	CHECK(s[1]["dialect"].is_null());
	check_schema("sessions", s);

	Json c = Json::parse(connections_json(list_connections(*m.nl), false));
	REQUIRE(c.size() == 2);
	CHECK(c[0]["connection_id"] == 3);
	CHECK(c[0]["client"] == "::1");
	CHECK(c[0]["dialect"] == "2.1");
	CHECK(c[0]["requests"] == 1ULL << 33);
	CHECK(c[1]["dialect"].is_null());
	check_schema("connections", c);

	Json o = Json::parse(opens_json(list_opens(*m.nl), false));
	REQUIRE(o.size() == 2);
	CHECK(o[0]["session_id"] == "0x0000000000000009");
	CHECK(o[0]["tree_id"] == 1);
	CHECK(o[0]["persistent_id"] == "0x0000000100000003");
	CHECK(o[0]["access"] == 0x12019f);
	CHECK(o[0]["oplock"] == "lease");
	CHECK(o[0]["lease"]["state"] == "RWH");
	CHECK(o[0]["lease"]["key"] == "abababababababababababababababab");
	CHECK(o[0]["lease"]["epoch"] == 3);
	CHECK(o[0]["breaking"] == true);
	CHECK(o[0]["durable"] == 2);
	CHECK(o[0]["disconnected_left_seconds"].is_null());
	// The disconnected durable handle: no session, tree or volatile id.
	CHECK(o[1]["session_id"].is_null());
	CHECK(o[1]["tree_id"].is_null());
	CHECK(o[1]["volatile_id"].is_null());
	CHECK(o[1]["oplock"] == "batch");
	CHECK(o[1]["lease"].is_null());
	CHECK(o[1]["disconnected_left_seconds"] == 42);
	check_schema("opens", o);

	// Nothing listed: an empty array, not nothing.
	CHECK(sessions_json({}, false) == "[]");
	CHECK(opens_json({}, true) == "[]");
}

TEST_CASE("smbsrvctl -j stats: values and the documented schema")
{
	FakeModule m;
	m.sock->on_send = fake_module;
	StatsSnapshot snap = read_stats_snapshot(*m.nl);
	Json j = Json::parse(stats_json(snap, false));
	CHECK(j["connections"] == 3);
	CHECK(j["connections_refused"] == 1ULL << 40);
	CHECK(j["connections_idle_closed"] == 7);
	CHECK(j["fold"]["cached"] == 10);
	REQUIRE(j["queues"].size() == 2);
	CHECK(j["queues"][0]["name"] == "smbsrv");
	CHECK(j["queues"][0]["kind"] == "percpu");
	CHECK(j["queues"][0]["inflight_max"] == 17);
	CHECK(j["queues"][0]["wait_ns"] == 5000);
	CHECK(j["queues"][1]["kind"] == "unbound");
	CHECK(j["read"]["spliced_bytes"] == 1ULL << 40);
	CHECK(j["read"]["copy_reasons"]["small"] == 13);
	CHECK(j["read"]["copy_reasons"]["off"] == 0);
	CHECK(j["read"]["pages_inflight"] == 15);
	CHECK(j["write"]["one_copy"] == 21);
	CHECK(j["write"]["one_copy_bytes"] == 1ULL << 41);
	CHECK(j["write"]["copied"] == 22);
	CHECK(j["write"]["one_copy_signed"] == 23);
	CHECK(j["write"]["one_copy_sealed"] == 24);
	CHECK(j["write"]["inline"] == 25);
	CHECK(j["write"]["inline_depth"] == 26);
	CHECK(j["write"]["inline_deferred"] == 27);
	CHECK_FALSE(j["write"]["copy_reasons"].contains("signed"));
	CHECK(j["write"]["copy_reasons"]["small"] == 0);
	CHECK(j["write_bytes"] == 1ULL << 36);
	CHECK(j["oplock_breaks"] == 4);
	CHECK(j["lease_breaks"] == 5);
	CHECK(j["open_files"] == 6);
	CHECK(j["audit_records"] == 7);
	CHECK(j["audit_dropped"] == 8);
	CHECK(j["bad_signatures"] == 9);
	REQUIRE(j["commands"].size() == 2);
	CHECK(j["commands"][0]["command"] == "read");
	CHECK(j["commands"][0]["requests"] == 3);
	CHECK(j["commands"][0]["errors"] == 1);
	CHECK(j["commands"][0]["latency_ns"] == 2005000);
	CHECK(j["commands"][0]["latency_buckets"] ==
	      Json::parse(R"([{"le_ns":10000,"count":1},{"le_ns":1000000,"count":1},)"
			  R"({"le_ns":null,"count":1}])"));
	// A histogram that does not match the bounds is left out, not misread.
	CHECK(j["commands"][1]["command"] == "write");
	CHECK(j["commands"][1]["latency_buckets"].empty());
	check_schema("stats", j);
}

TEST_CASE("smbsrvctl -j share list and share show: the configuration's shares")
{
	Config cfg = sample_config();
	FakeModule m;
	m.sock->on_send = fake_module;
	auto uses = m.nl->status().share_uses;
	Json l = Json::parse(shares_json(cfg, uses, false));
	// IPC$ is a share of the configuration too, without a path.
	REQUIRE(l.size() == 3);
	std::map<std::string, Json> by;
	for (const auto &s : l)
		by[s["name"]] = s;
	CHECK(by["data"]["path"] == "/srv/data");
	CHECK(by["data"]["comment"] == "Team data");
	CHECK(by["data"]["tree_connects"] == 2);
	CHECK(by["data"]["max_connections"].is_null());
	CHECK(by["home"]["tree_connects"] == 1);
	CHECK(by["home"]["max_connections"] == 10);
	CHECK(by["IPC$"]["path"].is_null());
	CHECK(by["IPC$"]["tree_connects"] == 0);
	// Without the module: tree connects unknown, not 0.
	Json offline = Json::parse(shares_json(cfg, std::nullopt, false));
	CHECK(offline[0]["tree_connects"].is_null());
	Json both = l;
	for (const auto &x : offline)
		both.push_back(x);
	check_schema("share list", both);

	const ShareConfig *home = cfg.share("home");
	REQUIRE(home);
	Json s = Json::parse(share_json(*home, false, false));
	CHECK(s["name"] == "home");
	CHECK(s["parameters"]["path"] == "/home");
	CHECK(s["parameters"]["read only"] == "no");
	// Without -a only what differs from the defaults.
	CHECK_FALSE(s["parameters"].contains("browseable"));
	Json all = Json::parse(share_json(*home, true, false));
	CHECK(all["parameters"]["browseable"] == "yes");
	check_schema("share show", all, {{"parameters", "<parameter>"}});
}
