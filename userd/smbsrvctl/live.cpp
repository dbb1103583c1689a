// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl sessions|connections|kill|set|stats: what the module is doing
// now, and run-time changes to it.
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <linux/smbsrv.h>

#include "atomic_file.hpp"
#include "config.hpp"
#include "ctl.hpp"
#include "ctl_json.hpp"
#include "ctl_netlink.hpp"
#include "knobs_nl.hpp"
#include "metrics.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv::ctl {

namespace {

std::string age(uint32_t s)
{
	char buf[32];
	if (s < 3600)
		std::snprintf(buf, sizeof(buf), "%um%02us", s / 60, s % 60);
	else
		std::snprintf(buf, sizeof(buf), "%uh%02um", s / 3600, s / 60 % 60);
	return buf;
}

std::string hex64(uint64_t v)
{
	char buf[20];
	std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
	return buf;
}

uint64_t number(const std::string &s, uint64_t max)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(s.c_str(), &end, 0);
	if (s.empty() || *end || errno || v > max || s[0] == '-')
		throw UsageError("'" + s + "' is not an id");
	return v;
}

// READ responses by how their payload went out, and the inline reads:
// one "name: N" line each, for people and for scripts (make bench).
void print_read_stats(const ReadStats &r)
{
	const std::pair<const char *, uint64_t> rows[] = {
		{"read spliced", r.spliced},
		{"read spliced bytes", r.spliced_bytes},
		{"read copied", r.copied},
		{"read copied bytes", r.copied_bytes},
		{"read copy off", r.copy_off},
		{"read copy small", r.copy_small},
		{"read copy stream", r.copy_stream},
		{"read copy nonreg", r.copy_nonreg},
		{"read copy compound", r.copy_compound},
		{"read copy nocache", r.copy_nocache},
		{"read copy error", r.copy_error},
		{"inline hits", r.inline_hits},
		{"inline misses", r.inline_misses},
		{"inline deferred", r.inline_deferred},
		{"read pages in flight", r.pages_inflight},
	};
	std::printf("\n");
	for (const auto &[name, v] : rows)
		std::printf("%s: %llu\n", name, static_cast<unsigned long long>(v));
}

// WRITEs by how their data reached the file, the same way.
void print_write_stats(const WriteStats &w)
{
	const std::pair<const char *, uint64_t> rows[] = {
		{"write one copy", w.one_copy},
		{"write one copy bytes", w.one_copy_bytes},
		{"write one copy signed", w.one_copy_signed},
		{"write one copy sealed", w.one_copy_sealed},
		{"write copied", w.copied},
		{"write copied bytes", w.copied_bytes},
		{"write copy off", w.copy_off},
		{"write copy small", w.copy_small},
		{"write copy sealed", w.copy_sealed},
		{"write copy compound", w.copy_compound},
		{"write copy stream", w.copy_stream},
		{"write copy other", w.copy_other},
		{"write inline", w.inline_alone},
		{"write inline depth", w.inline_depth},
		{"write inline deferred", w.inline_deferred},
	};
	std::printf("\n");
	for (const auto &[name, v] : rows)
		std::printf("%s: %llu\n", name, static_cast<unsigned long long>(v));
}

} // namespace

int cmd_sessions(const Options &opt, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("sessions takes no arguments");
	GenlChannel nl;
	auto list = list_sessions(nl);
	if (opt.json) {
		print_json(sessions_json(list, opt.pretty));
		return 0;
	}
	std::printf("%-18s %-16s %-24s %-7s %-8s %-10s %5s %5s %-8s %-9s %-24s %s\n", "SESSION",
		    "USER", "CLIENT", "DIALECT", "SIGNING", "ENCRYPTION", "TREES", "OPENS", "AGE",
		    "LOGON", "PRINCIPAL", "CHANNELS");
	for (const auto &s : list) {
		std::string user = s.flags & SMBSRV_SESSION_FLAGS_ANONYMOUS ? "(anonymous)"
				   : s.flags & SMBSRV_SESSION_FLAGS_GUEST   ? s.user + " (guest)"
									    : s.user;
		// How the client logged on; a Kerberos principal mapped to
		// the guest account is a guest with a principal.
		const char *logon = s.flags & SMBSRV_SESSION_FLAGS_ANONYMOUS ? "anonymous"
				    : s.flags & SMBSRV_SESSION_FLAGS_GUEST   ? "guest"
				    : s.flags & SMBSRV_SESSION_FLAGS_KERBEROS ? "kerberos"
									      : "ntlmv2";
		// The connection ids of its channels, as `connections` lists them.
		std::string chans;
		for (uint32_t c : s.channels)
			chans += (chans.empty() ? "" : ",") + std::to_string(c);
		std::printf("0x%016llx %-16s %-24s %-7s %-8s %-10s %5u %5u %-8s %-9s %-24s %s\n",
			    static_cast<unsigned long long>(s.id), user.c_str(), s.client.c_str(),
			    dialect_name(s.dialect).c_str(), s.signing ? "yes" : "no",
			    s.encryption ? "yes" : "no", s.trees, s.open_files, age(s.age).c_str(),
			    logon, s.principal.empty() ? "-" : s.principal.c_str(),
			    chans.empty() ? "-" : chans.c_str());
	}
	return 0;
}

int cmd_opens(const Options &opt, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("opens takes no arguments");
	GenlChannel nl;
	auto list = list_opens(nl);
	if (opt.json) {
		print_json(opens_json(list, opt.pretty));
		return 0;
	}
	std::printf("%-18s %-12s %-10s %-14s %-32s %-5s %-8s %s\n", "SESSION", "SHARE", "FILEID",
		    "CACHING", "LEASE KEY", "EPOCH", "DURABLE", "PATH");
	for (const auto &o : list) {
		// One token per column: "lease:RWH", "lease:-", "batch", ...
		std::string caching = o.oplock == 0xff ? "lease:" + lease_state_name(o.lease_state)
						       : oplock_name(o.oplock);
		if (o.oplock == 0xff && !o.lease_state)
			caching += "-";
		if (o.breaking)
			caching += "/breaking";
		std::string durable = o.durable ? "v" + std::to_string(o.durable) : "no";
		if (o.session_id == 0 && o.durable)
			durable += "(" + std::to_string(o.disconnected_left) + "s)";
		std::string session = o.session_id ? "0x" + hex64(o.session_id) : "(disconnected)";
		std::printf("%-18s %-12s %-10llx %-14s %-32s %-5s %-8s %s\n", session.c_str(),
			    o.share.c_str(), static_cast<unsigned long long>(o.persistent_id),
			    caching.c_str(), o.lease_key.empty() ? "-" : o.lease_key.c_str(),
			    o.oplock == 0xff ? std::to_string(o.lease_epoch).c_str() : "-",
			    durable.c_str(), o.path.c_str());
	}
	return 0;
}

int cmd_connections(const Options &opt, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("connections takes no arguments");
	GenlChannel nl;
	auto list = list_connections(nl);
	if (opt.json) {
		print_json(connections_json(list, opt.pretty));
		return 0;
	}
	std::printf("%-10s %-24s %-7s %8s %7s %10s %s\n", "CONNECTION", "CLIENT", "DIALECT",
		    "SESSIONS", "CREDITS", "REQUESTS", "AGE");
	for (const auto &c : list)
		std::printf("%-10u %-24s %-7s %8u %7u %10llu %s\n", c.id, c.client.c_str(),
			    dialect_name(c.dialect).c_str(), c.sessions, c.credits,
			    static_cast<unsigned long long>(c.requests), age(c.age).c_str());
	return 0;
}

int cmd_kill(const Options &, const Args &args)
{
	if (args.size() != 3 || (args[1] != "session" && args[1] != "connection"))
		throw UsageError("kill session ID | kill connection ID");
	GenlChannel nl;
	if (args[1] == "session") {
		uint64_t id = number(args[2], ~0ULL);
		kill_session(nl, id);
	} else {
		kill_connection(nl, static_cast<uint32_t>(number(args[2], 0xffffffffU)));
	}
	std::printf("%s %s disconnected\n", args[1].c_str(), args[2].c_str());
	return 0;
}

int cmd_set(const Options &, const Args &args)
{
	if (args.size() < 3)
		throw UsageError("set KNOB VALUE (knobs: see 'smbsrvctl status')");
	const KnobInfo *ki = find_knob(args[1]);
	if (!ki)
		throw UsageError("no knob '" + args[1] + "'");
	// The value as the configuration would read it: one parser, one set
	// of checks and messages.
	std::string value;
	for (size_t i = 2; i < args.size(); i++)
		value += (i > 2 ? " " : "") + args[i];
	Diagnostics d;
	Config cfg = build_config(
		parse_conf_text("[global]\n" + std::string(ki->param) + " = " + value + "\n",
				"command line", d),
		d);
	for (const auto &x : d.all())
		std::fprintf(stderr, "smbsrvctl: %s\n", x.message.c_str());
	if (d.has_errors())
		return 1;
	GenlChannel nl;
	int attr = ki->attr;
	Knobs now = set_knobs(nl, cfg.knobs, std::span<const int>(&attr, 1));
	std::printf("%s = %s (until smbsrvd reloads or restarts, which apply the "
		    "configuration file)\n",
		    std::string(ki->param).c_str(), knob_text(*ki, now).c_str());
	return 0;
}

namespace {

// stats --prometheus [-o FILE]: the metrics to stdout, or to FILE replaced
// atomically (node_exporter's textfile collector must never read half a
// file).  Without the module, smbsrv_up 0 is written and the status is 1.
int stats_prometheus(const std::string &file)
{
	std::string text;
	int rc = 0;
	try {
		GenlChannel nl;
		text = prometheus_text(read_stats_snapshot(nl));
	} catch (const NlError &e) {
		std::fprintf(stderr, "smbsrvctl: %s\n", e.what());
		text = prometheus_down_text(e.what());
		rc = 1;
	}
	if (file.empty())
		std::fwrite(text.data(), 1, text.size(), stdout);
	else
		write_file_atomic(file, text, 0644);
	return rc;
}

} // namespace

int cmd_stats(const Options &opt, const Args &args)
{
	bool prom = false;
	std::string file;
	for (size_t i = 1; i < args.size(); i++) {
		if (args[i] == "--prometheus")
			prom = true;
		else if (args[i] == "-o" && i + 1 < args.size() && prom)
			file = args[++i];
		else
			throw UsageError("stats [--prometheus [-o FILE]]");
	}
	if (prom && opt.json)
		throw UsageError("-j and --prometheus are two different outputs: pick one");
	if (prom)
		return stats_prometheus(file);
	GenlChannel nl;
	StatsSnapshot snap = read_stats_snapshot(nl);
	if (opt.json) {
		print_json(stats_json(snap, opt.pretty));
		return 0;
	}
	const ServerStatus &st = snap.status;
	std::printf("connections: %u\nsessions:    %u\n", st.connections, st.sessions);
	// Admission and idleness since the module was loaded, one counter a
	// line ("name: N", as benchmark scripts read them).
	std::printf("connections refused: %llu\nconnections evicted: %llu\n"
		    "connections logon timeouts: %llu\nconnections idle closed: %llu\n",
		    static_cast<unsigned long long>(st.conns_refused),
		    static_cast<unsigned long long>(st.conns_evicted),
		    static_cast<unsigned long long>(st.conns_logon_expired),
		    static_cast<unsigned long long>(st.conns_idle_closed));
	// Names matched without case (case sensitive = no): directories read,
	// the entries those reads went through, names answered from a cache.
	std::printf("fold scans: %llu\nfold entries: %llu\nfold cached: %llu\n",
		    static_cast<unsigned long long>(st.fold_scans),
		    static_cast<unsigned long long>(st.fold_entries),
		    static_cast<unsigned long long>(st.fold_cached));
	// The budget of opens: held now, and refused at either limit.
	std::printf("opens: %u\nopens refused (server max open files): %llu\n"
		    "opens refused (max open files per user): %llu\n",
		    st.opens, static_cast<unsigned long long>(st.opens_refused),
		    static_cast<unsigned long long>(st.opens_refused_user));
	const KnobInfo *rp = find_knob("route-policy");
	std::printf("route policy: %s\nresponse batch: %u\n",
		    rp ? knob_text(*rp, st.knobs).c_str() : "?", st.knobs.response_batch);
	std::printf("splice threshold: %u%s\ninline reads: %s\n", st.knobs.splice_threshold,
		    st.knobs.splice_threshold ? "" : " (off: every READ is copied)",
		    st.knobs.inline_reads ? "yes" : "no");
	std::printf("min receivefile size: %u%s\n\n", st.knobs.min_receivefile_size,
		    st.knobs.min_receivefile_size ? "" : " (off: every WRITE is copied twice)");
	// Requests per workqueue; WAIT is the mean time from queueing to
	// start, BATCHED the socket writes that carried several responses.
	std::printf("%-16s %-7s %10s %10s %8s %8s %10s %10s %10s %8s %5s\n", "QUEUE", "KIND",
		    "QUEUED", "COMPLETED", "INFLIGHT", "MAX", "WAIT-US", "SENDS", "RESPONSES",
		    "BATCHED", "BATCH");
	for (const auto &q : snap.queues) {
		uint64_t started = q.completed + q.inflight;
		std::printf("%-16s %-7s %10llu %10llu %8u %8u %10.1f %10llu %10llu %8llu %5u\n",
			    q.name.c_str(), q.unbound ? "unbound" : "percpu",
			    static_cast<unsigned long long>(q.queued),
			    static_cast<unsigned long long>(q.completed), q.inflight,
			    q.inflight_max,
			    started ? static_cast<double>(q.wait_ns) / 1000.0 /
					      static_cast<double>(started)
				    : 0.0,
			    static_cast<unsigned long long>(q.sends),
			    static_cast<unsigned long long>(q.responses),
			    static_cast<unsigned long long>(q.batched_sends), q.batch_max);
	}
	print_read_stats(snap.read);
	print_write_stats(snap.write);
	// Requests per SMB2 command: how many ended, with an error status,
	// and their mean time from decode to final status.
	const ServerCounters &c = snap.counters;
	std::printf("\nwrite bytes: %llu\nopen files: %u\noplock breaks: %llu\n"
		    "lease breaks: %llu\naudit records: %llu\naudit dropped: %llu\n"
		    "bad signatures: %llu\n\n",
		    static_cast<unsigned long long>(c.write_bytes), c.open_files,
		    static_cast<unsigned long long>(c.oplock_breaks),
		    static_cast<unsigned long long>(c.lease_breaks),
		    static_cast<unsigned long long>(c.audit_records),
		    static_cast<unsigned long long>(c.audit_dropped),
		    static_cast<unsigned long long>(c.bad_signatures));
	std::printf("%-16s %10s %8s %10s\n", "COMMAND", "REQUESTS", "ERRORS", "MEAN-US");
	for (const auto &x : c.commands)
		std::printf("%-16s %10llu %8llu %10.1f\n", smb2_command_name(x.command).c_str(),
			    static_cast<unsigned long long>(x.requests),
			    static_cast<unsigned long long>(x.errors),
			    x.requests ? static_cast<double>(x.latency_ns) / 1000.0 /
						 static_cast<double>(x.requests)
				       : 0.0);
	return 0;
}

} // namespace smbsrv::ctl
