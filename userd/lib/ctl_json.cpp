// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctl_json.hpp"

#include <algorithm>
#include <cstdio>
#include <linux/smbsrv.h>
#include <nlohmann/json.hpp>
#include <strings.h>

#include "knobs_nl.hpp"

namespace smbsrv {

namespace {

// Keys in the order they are set: a reader sees the fields as documented.
using Json = nlohmann::ordered_json;

std::string text(const Json &j, bool pretty)
{
	return pretty ? j.dump(2) : j.dump();
}

// 64-bit identifiers as "0x" and 16 hex digits, as the tables print them
// and `smbsrvctl kill` takes them: a JSON number past 2^53 would not
// survive a JavaScript or jq reader.
std::string hex_id(uint64_t v)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "0x%016llx", static_cast<unsigned long long>(v));
	return buf;
}

Json dialect(uint32_t d)
{
	return d ? Json(dialect_name(d)) : Json(nullptr);
}

// A knob as its parameter's type says: yes/no as a boolean, numbers and
// sizes as the number (bytes, seconds), the rest as the configuration
// spells it.
Json knob_value(const KnobInfo &ki, const Knobs &k)
{
	const ParamDef *def = find_param(ki.param);
	if (ki.field && def) {
		if (def->type == Type::boolean)
			return k.*ki.field != 0;
		if (def->type == Type::integer || def->type == Type::size)
			return k.*ki.field;
	}
	return knob_text(ki, k);
}

std::string key_of(std::string_view spec_name)
{
	std::string s(spec_name);
	std::replace(s.begin(), s.end(), '-', '_');
	return s;
}

} // namespace

StatsSnapshot read_stats_snapshot(GenlChannel &nl)
{
	StatsSnapshot s;
	s.status = nl.status();
	s.queues = list_queues(nl);
	s.read = read_stats(nl);
	s.write = write_stats(nl);
	s.counters = server_counters(nl);
	return s;
}

std::string status_json(const ServerStatus &st, bool pretty)
{
	Json j;
	j["module_version"] = st.module_version;
	j["daemon"] = {{"running", st.daemon_running},
		       {"pid", st.daemon_running ? Json(st.daemon_pid) : Json(nullptr)}};
	j["listen_port"] = st.listen_port ? Json(st.listen_port) : Json(nullptr);
	j["listen_addresses"] = st.listen_addrs;
	j["connections"] = st.connections;
	j["sessions"] = st.sessions;
	Json shares = Json::array();
	for (const auto &u : st.share_uses)
		shares.push_back({{"name", u.name},
				  {"tree_connects", u.trees},
				  {"max_connections", u.max_connections && u.max_connections < 65536
							      ? Json(u.max_connections)
							      : Json(nullptr)}});
	j["shares"] = shares;
	Json knobs = Json::object();
	for (const auto &ki : knob_table()) {
		if (std::find(st.knobs_reported.begin(), st.knobs_reported.end(), ki.attr) ==
		    st.knobs_reported.end())
			continue;
		const ParamDef *def = find_param(ki.param);
		knobs[key_of(ki.name)] = {
			{"value", knob_value(ki, st.knobs)},
			{"in_effect", !(def && def->effect == Effect::not_yet)}};
	}
	j["knobs"] = knobs;
	return text(j, pretty);
}

std::string sessions_json(const std::vector<SessionInfo> &list, bool pretty)
{
	Json a = Json::array();
	for (const auto &s : list)
		a.push_back({{"session_id", hex_id(s.id)},
			     {"connection_id", s.conn_id},
			     {"user", s.user},
			     {"domain", s.domain},
			     {"guest", (s.flags & SMBSRV_SESSION_FLAGS_GUEST) != 0},
			     {"anonymous", (s.flags & SMBSRV_SESSION_FLAGS_ANONYMOUS) != 0},
			     {"client", s.client},
			     {"dialect", dialect(s.dialect)},
			     {"signing", s.signing},
			     {"encryption", s.encryption},
			     {"trees", s.trees},
			     {"open_files", s.open_files},
			     {"age_seconds", s.age},
			     {"channels", s.channels}});
	return text(a, pretty);
}

std::string connections_json(const std::vector<ConnectionInfo> &list, bool pretty)
{
	Json a = Json::array();
	for (const auto &c : list)
		a.push_back({{"connection_id", c.id},
			     {"client", c.client},
			     {"dialect", dialect(c.dialect)},
			     {"sessions", c.sessions},
			     {"credits", c.credits},
			     {"requests", c.requests},
			     {"age_seconds", c.age}});
	return text(a, pretty);
}

std::string opens_json(const std::vector<OpenInfo> &list, bool pretty)
{
	Json a = Json::array();
	for (const auto &o : list) {
		bool lease = o.oplock == 0xff;
		bool disconnected = o.session_id == 0;
		Json l = nullptr;
		if (lease)
			l = {{"state", lease_state_name(o.lease_state)},
			     {"key", o.lease_key},
			     {"epoch", o.lease_epoch}};
		a.push_back({{"session_id", disconnected ? Json(nullptr) : Json(hex_id(o.session_id))},
			     {"tree_id", disconnected ? Json(nullptr) : Json(o.tree_id)},
			     {"share", o.share},
			     {"path", o.path},
			     {"persistent_id", hex_id(o.persistent_id)},
			     {"volatile_id", disconnected ? Json(nullptr) : Json(hex_id(o.volatile_id))},
			     {"access", o.access},
			     {"oplock", oplock_name(o.oplock)},
			     {"lease", l},
			     {"breaking", o.breaking},
			     {"durable", o.durable ? Json(o.durable) : Json(nullptr)},
			     {"disconnected_left_seconds",
			      disconnected && o.durable ? Json(o.disconnected_left) : Json(nullptr)}});
	}
	return text(a, pretty);
}

std::string shares_json(const Config &cfg, const std::optional<std::vector<ShareUse>> &uses,
			bool pretty)
{
	Json a = Json::array();
	for (const auto &s : cfg.shares) {
		Json trees = nullptr;
		if (uses) {
			uint32_t n = 0;
			for (const auto &u : *uses)
				if (strcasecmp(u.name.c_str(), s.name.c_str()) == 0)
					n = u.trees;
			trees = n;
		}
		uint64_t most = s.params.has("max connections") ? s.params.number("max connections") : 0;
		const std::string &path = s.params.str("path");
		a.push_back({{"name", s.name},
			     {"path", path.empty() ? Json(nullptr) : Json(path)},
			     {"comment", s.params.str("comment")},
			     {"tree_connects", trees},
			     {"max_connections",
			      most && most < 65536 ? Json(most) : Json(nullptr)}});
	}
	return text(a, pretty);
}

std::string share_json(const ShareConfig &share, bool all, bool pretty)
{
	Json p = Json::object();
	for (const auto &[k, v] : share_params(share, all))
		p[k] = v;
	Json j = {{"name", share.name}, {"parameters", p}};
	return text(j, pretty);
}

std::string stats_json(const StatsSnapshot &s, bool pretty)
{
	const ServerStatus &st = s.status;
	Json j;
	j["connections"] = st.connections;
	j["sessions"] = st.sessions;
	j["connections_refused"] = st.conns_refused;
	j["connections_evicted"] = st.conns_evicted;
	j["connections_logon_timeouts"] = st.conns_logon_expired;
	j["connections_idle_closed"] = st.conns_idle_closed;
	j["fold"] = {{"scans", st.fold_scans},
		     {"entries", st.fold_entries},
		     {"cached", st.fold_cached}};
	Json qs = Json::array();
	for (const auto &q : s.queues)
		qs.push_back({{"name", q.name},
			      {"kind", q.unbound ? "unbound" : "percpu"},
			      {"queued", q.queued},
			      {"completed", q.completed},
			      {"inflight", q.inflight},
			      {"inflight_max", q.inflight_max},
			      {"wait_ns", q.wait_ns},
			      {"sends", q.sends},
			      {"responses", q.responses},
			      {"batched_sends", q.batched_sends},
			      {"batch_max", q.batch_max}});
	j["queues"] = qs;
	const ReadStats &r = s.read;
	j["read"] = {{"spliced", r.spliced},
		     {"spliced_bytes", r.spliced_bytes},
		     {"copied", r.copied},
		     {"copied_bytes", r.copied_bytes},
		     {"copy_reasons",
		      {{"off", r.copy_off},
		       {"small", r.copy_small},
		       {"stream", r.copy_stream},
		       {"nonreg", r.copy_nonreg},
		       {"compound", r.copy_compound},
		       {"nocache", r.copy_nocache},
		       {"error", r.copy_error}}},
		     {"inline_hits", r.inline_hits},
		     {"inline_misses", r.inline_misses},
		     {"inline_deferred", r.inline_deferred},
		     {"pages_inflight", r.pages_inflight}};
	const WriteStats &w = s.write;
	j["write"] = {{"one_copy", w.one_copy},
		      {"one_copy_bytes", w.one_copy_bytes},
		      {"one_copy_signed", w.one_copy_signed},
		      {"one_copy_sealed", w.one_copy_sealed},
		      {"inline", w.inline_alone},
		      {"inline_depth", w.inline_depth},
		      {"inline_deferred", w.inline_deferred},
		      {"copied", w.copied},
		      {"copied_bytes", w.copied_bytes},
		      {"copy_reasons",
		       {{"off", w.copy_off},
			{"small", w.copy_small},
			{"sealed", w.copy_sealed},
			{"compound", w.copy_compound},
			{"stream", w.copy_stream},
			{"other", w.copy_other}}}};
	const ServerCounters &c = s.counters;
	j["write_bytes"] = c.write_bytes;
	j["open_files"] = c.open_files;
	j["oplock_breaks"] = c.oplock_breaks;
	j["lease_breaks"] = c.lease_breaks;
	j["audit_records"] = c.audit_records;
	j["audit_dropped"] = c.audit_dropped;
	j["bad_signatures"] = c.bad_signatures;
	Json cmds = Json::array();
	for (const auto &x : c.commands) {
		Json b = Json::array();
		for (size_t i = 0; i < x.buckets.size(); i++)
			b.push_back({{"le_ns", i < c.latency_bounds_ns.size()
						       ? Json(c.latency_bounds_ns[i])
						       : Json(nullptr)},
				     {"count", x.buckets[i]}});
		cmds.push_back({{"command", smb2_command_name(x.command)},
				{"requests", x.requests},
				{"errors", x.errors},
				{"latency_ns", x.latency_ns},
				{"latency_buckets", b}});
	}
	j["commands"] = cmds;
	return text(j, pretty);
}

} // namespace smbsrv
