// SPDX-License-Identifier: GPL-2.0-or-later
#include "metrics.hpp"

#include <cstdio>
#include <utility>
#include <vector>

namespace smbsrv {

namespace {

// A label value: backslash, double quote and newline escaped.
std::string escape(const std::string &v)
{
	std::string out;
	for (char c : v) {
		if (c == '\\' || c == '"')
			out += '\\';
		if (c == '\n') {
			out += "\\n";
			continue;
		}
		out += c;
	}
	return out;
}

std::string num(uint64_t v)
{
	return std::to_string(v);
}

// Seconds from nanoseconds, exactly enough for a histogram bound or sum.
std::string seconds(uint64_t ns)
{
	char buf[40];
	std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(ns) / 1e9);
	return buf;
}

class Writer {
public:
	// A family's HELP and TYPE lines.
	void family(const char *name, const char *type, const char *help)
	{
		out_ += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " +
			type + "\n";
	}
	void sample(const std::string &name, const std::string &labels, const std::string &value)
	{
		out_ += name;
		if (!labels.empty())
			out_ += "{" + labels + "}";
		out_ += " " + value + "\n";
	}
	// A family of one sample without labels.
	void single(const char *name, const char *type, const char *help, const std::string &value)
	{
		family(name, type, help);
		sample(name, "", value);
	}
	std::string take() { return std::move(out_); }

private:
	std::string out_;
};

std::string label(const char *k, const std::string &v)
{
	return std::string(k) + "=\"" + escape(v) + "\"";
}

} // namespace

std::string prometheus_text(const StatsSnapshot &s)
{
	const ServerStatus &st = s.status;
	const ServerCounters &c = s.counters;
	const ReadStats &r = s.read;
	Writer w;

	w.single("smbsrv_up", "gauge", "1 when the smbsrv module answered this scrape.", "1");
	w.family("smbsrv_module_info", "gauge", "The smbsrv module's version, as a label.");
	w.sample("smbsrv_module_info", label("version", st.module_version), "1");
	w.single("smbsrv_daemon_running", "gauge", "1 while smbsrvd is attached to the module.",
		 st.daemon_running ? "1" : "0");
	w.single("smbsrv_listening", "gauge", "1 while the module listens for SMB connections.",
		 st.listen_port ? "1" : "0");

	w.single("smbsrv_connections", "gauge", "TCP connections now.", num(st.connections));
	w.single("smbsrv_sessions", "gauge", "Established sessions now.", num(st.sessions));
	w.single("smbsrv_open_files", "gauge",
		 "Open files now, disconnected durable handles included.", num(c.open_files));
	w.family("smbsrv_share_tree_connects", "gauge", "Tree connects to a share now.");
	for (const auto &u : st.share_uses)
		w.sample("smbsrv_share_tree_connects", label("share", u.name), num(u.trees));

	w.single("smbsrv_connections_refused_total", "counter",
		 "Connections refused at accept (limits, hosts allow/deny).",
		 num(st.conns_refused));
	w.single("smbsrv_connections_evicted_total", "counter",
		 "Connections without a session closed to admit another.", num(st.conns_evicted));
	w.single("smbsrv_connections_logon_timeouts_total", "counter",
		 "Connections closed for not logging on within logon timeout.",
		 num(st.conns_logon_expired));
	w.single("smbsrv_connections_idle_closed_total", "counter",
		 "Connections closed by deadtime.", num(st.conns_idle_closed));

	w.family("smbsrv_requests_total", "counter", "SMB2 requests ended, by command.");
	for (const auto &x : c.commands)
		w.sample("smbsrv_requests_total", label("command", smb2_command_name(x.command)),
			 num(x.requests));
	w.family("smbsrv_request_errors_total", "counter",
		 "SMB2 requests ended with an error status, by command.");
	for (const auto &x : c.commands)
		w.sample("smbsrv_request_errors_total",
			 label("command", smb2_command_name(x.command)), num(x.errors));
	w.family("smbsrv_request_duration_seconds", "histogram",
		 "Time from a request's decode to its final status, by command.");
	for (const auto &x : c.commands) {
		if (x.buckets.size() != c.latency_bounds_ns.size() + 1)
			continue;
		std::string cmd = label("command", smb2_command_name(x.command));
		uint64_t cum = 0;
		for (size_t i = 0; i < x.buckets.size(); i++) {
			cum += x.buckets[i];
			std::string le = i < c.latency_bounds_ns.size()
						 ? seconds(c.latency_bounds_ns[i])
						 : "+Inf";
			w.sample("smbsrv_request_duration_seconds_bucket",
				 cmd + "," + label("le", le), num(cum));
		}
		w.sample("smbsrv_request_duration_seconds_sum", cmd, seconds(x.latency_ns));
		w.sample("smbsrv_request_duration_seconds_count", cmd, num(cum));
	}

	w.single("smbsrv_read_bytes_total", "counter", "Payload bytes sent in READ responses.",
		 num(r.spliced_bytes + r.copied_bytes));
	w.single("smbsrv_write_bytes_total", "counter", "Bytes written by WRITE requests.",
		 num(c.write_bytes));
	w.family("smbsrv_read_responses_total", "counter",
		 "READ responses with data, by how the payload went out.");
	w.sample("smbsrv_read_responses_total", label("method", "spliced"), num(r.spliced));
	w.sample("smbsrv_read_responses_total", label("method", "copied"), num(r.copied));
	w.family("smbsrv_read_copies_total", "counter",
		 "READ responses copied, by the first reason they were not spliced.");
	const std::pair<const char *, uint64_t> reasons[] = {
		{"off", r.copy_off},	       {"small", r.copy_small},
		{"stream", r.copy_stream},     {"nonreg", r.copy_nonreg},
		{"compound", r.copy_compound}, {"nocache", r.copy_nocache},
		{"error", r.copy_error},
	};
	for (const auto &[why, n] : reasons)
		w.sample("smbsrv_read_copies_total", label("reason", why), num(n));
	w.family("smbsrv_inline_reads_total", "counter",
		 "READs tried by the receiver itself, by outcome.");
	w.sample("smbsrv_inline_reads_total", label("outcome", "hit"), num(r.inline_hits));
	w.sample("smbsrv_inline_reads_total", label("outcome", "miss"), num(r.inline_misses));
	w.sample("smbsrv_inline_reads_total", label("outcome", "deferred"),
		 num(r.inline_deferred));
	w.single("smbsrv_read_pages_in_flight", "gauge",
		 "Page references held for READ responses being sent.", num(r.pages_inflight));

	w.family("smbsrv_breaks_total", "counter",
		 "Oplock and lease break notifications queued for clients, by kind.");
	w.sample("smbsrv_breaks_total", label("kind", "oplock"), num(c.oplock_breaks));
	w.sample("smbsrv_breaks_total", label("kind", "lease"), num(c.lease_breaks));

	w.single("smbsrv_audit_records_total", "counter",
		 "Audit records handed to smbsrvd.", num(c.audit_records));
	w.single("smbsrv_audit_dropped_total", "counter",
		 "Audit records dropped: over audit rate, smbsrvd's socket full or gone.",
		 num(c.audit_dropped));
	w.single("smbsrv_bad_signatures_total", "counter",
		 "Signed requests refused because their signature did not verify.",
		 num(c.bad_signatures));

	struct QueueMetric {
		const char *name, *type, *help;
		std::string (*value)(const QueueInfo &);
	};
	static const QueueMetric qm[] = {
		{"smbsrv_queue_messages_queued_total", "counter", "Messages queued to a workqueue.",
		 [](const QueueInfo &q) { return num(q.queued); }},
		{"smbsrv_queue_messages_completed_total", "counter",
		 "Messages a workqueue finished.",
		 [](const QueueInfo &q) { return num(q.completed); }},
		{"smbsrv_queue_messages_in_flight", "gauge",
		 "Messages queued or running now (the queue depth).",
		 [](const QueueInfo &q) { return num(q.inflight); }},
		{"smbsrv_queue_messages_in_flight_max", "gauge",
		 "Most messages queued or running at once.",
		 [](const QueueInfo &q) { return num(q.inflight_max); }},
		{"smbsrv_queue_wait_seconds_total", "counter",
		 "Time from queueing to start, summed over the messages.",
		 [](const QueueInfo &q) { return seconds(q.wait_ns); }},
		{"smbsrv_queue_sends_total", "counter", "Socket writes by a workqueue's workers.",
		 [](const QueueInfo &q) { return num(q.sends); }},
		{"smbsrv_queue_responses_total", "counter", "Responses in those writes.",
		 [](const QueueInfo &q) { return num(q.responses); }},
		{"smbsrv_queue_batched_sends_total", "counter",
		 "Writes that carried more than one response.",
		 [](const QueueInfo &q) { return num(q.batched_sends); }},
	};
	for (const auto &m : qm) {
		w.family(m.name, m.type, m.help);
		for (const auto &q : s.queues)
			w.sample(m.name,
				 label("queue", q.name) + "," +
					 label("kind", q.unbound ? "unbound" : "percpu"),
				 m.value(q));
	}

	w.single("smbsrv_fold_scans_total", "counter",
		 "Directories read to match a name without case.", num(st.fold_scans));
	w.single("smbsrv_fold_entries_total", "counter",
		 "Directory entries those reads went through.", num(st.fold_entries));
	w.single("smbsrv_fold_cached_total", "counter",
		 "Names matched without case from a cached listing.", num(st.fold_cached));
	return w.take();
}

std::string prometheus_down_text(const std::string &why)
{
	std::string one_line;
	for (char c : why)
		one_line += c == '\n' ? ' ' : c;
	Writer w;
	w.single("smbsrv_up", "gauge", "1 when the smbsrv module answered this scrape.", "0");
	return "# " + one_line + "\n" + w.take();
}

} // namespace smbsrv
