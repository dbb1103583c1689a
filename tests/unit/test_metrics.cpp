// SPDX-License-Identifier: GPL-2.0-or-later
//
// The Prometheus text of `smbsrvctl stats --prometheus` and smbsrvd's
// metrics endpoint: every family has HELP and TYPE, counters end in
// _total, histograms are cumulative with _count the +Inf bucket and _sum
// in seconds, label values are escaped, the values are the module's, and
// Prometheus' own promtool accepts the whole text.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "metrics.hpp"

using namespace smbsrv;

namespace {

StatsSnapshot sample()
{
	StatsSnapshot s;
	s.status.module_version = "0.9";
	s.status.daemon_running = true;
	s.status.listen_port = 445;
	s.status.connections = 3;
	s.status.sessions = 2;
	s.status.conns_refused = 7;
	s.status.share_uses = {{"data", 2, 0}, {"we\"ird\\", 1, 0}};
	QueueInfo q;
	q.name = "smbsrv";
	q.queued = 10;
	q.completed = 9;
	q.inflight = 1;
	q.wait_ns = 1500000000;
	s.queues = {q};
	s.read.spliced_bytes = 1000;
	s.read.copied_bytes = 24;
	s.read.copy_small = 5;
	s.counters.write_bytes = 4096;
	s.counters.open_files = 4;
	s.counters.lease_breaks = 2;
	s.counters.latency_bounds_ns = {10000, 1000000};
	s.counters.commands = {{8, 6, 1, 2500000, {3, 2, 1}}, {9, 0, 0, 0, {0, 0, 0}}};
	return s;
}

// name{labels} -> value, and the TYPE of each family.
struct Parsed {
	std::map<std::string, std::string> samples;
	std::map<std::string, std::string> types;
	std::set<std::string> helps;
};

Parsed parse(const std::string &text)
{
	Parsed p;
	std::istringstream in(text);
	std::string line;
	while (std::getline(in, line)) {
		if (line.rfind("# TYPE ", 0) == 0) {
			std::istringstream l(line.substr(7));
			std::string name, type;
			l >> name >> type;
			p.types[name] = type;
		} else if (line.rfind("# HELP ", 0) == 0) {
			std::istringstream l(line.substr(7));
			std::string name;
			l >> name;
			p.helps.insert(name);
		} else if (!line.empty() && line[0] != '#') {
			size_t sp = line.rfind(' ');
			p.samples[line.substr(0, sp)] = line.substr(sp + 1);
		}
	}
	return p;
}

// The family a sample belongs to (histogram suffixes removed).
std::string family_of(const std::string &sample, const Parsed &p)
{
	std::string name = sample.substr(0, sample.find('{'));
	if (p.types.contains(name))
		return name;
	for (const char *suffix : {"_bucket", "_sum", "_count"}) {
		std::string s(suffix);
		if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0)
			return name.substr(0, name.size() - s.size());
	}
	return name;
}

// promtool check metrics < text: (exit status, what it said).
std::pair<int, std::string> promtool(const std::string &text)
{
	int in[2], out[2];
	REQUIRE(pipe(in) == 0);
	REQUIRE(pipe(out) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[1]);
		close(out[0]);
		execlp("promtool", "promtool", "check", "metrics", nullptr);
		_exit(127);
	}
	REQUIRE(pid > 0);
	close(in[0]);
	close(out[1]);
	REQUIRE(write(in[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
	close(in[1]);
	std::string said;
	char buf[512];
	for (ssize_t n; (n = read(out[0], buf, sizeof(buf))) > 0;)
		said.append(buf, static_cast<size_t>(n));
	close(out[0]);
	int st = 0;
	REQUIRE(waitpid(pid, &st, 0) == pid);
	REQUIRE(WIFEXITED(st));
	return {WEXITSTATUS(st), said};
}

} // namespace

TEST_CASE("metrics: the module's values under Prometheus names")
{
	std::string text = prometheus_text(sample());
	Parsed p = parse(text);
	CAPTURE(text);
	CHECK(p.samples["smbsrv_up"] == "1");
	CHECK(p.samples["smbsrv_module_info{version=\"0.9\"}"] == "1");
	CHECK(p.samples["smbsrv_connections"] == "3");
	CHECK(p.samples["smbsrv_sessions"] == "2");
	CHECK(p.samples["smbsrv_open_files"] == "4");
	CHECK(p.samples["smbsrv_connections_refused_total"] == "7");
	CHECK(p.samples["smbsrv_share_tree_connects{share=\"data\"}"] == "2");
	// A share name's quote and backslash escaped.
	CHECK(p.samples["smbsrv_share_tree_connects{share=\"we\\\"ird\\\\\"}"] == "1");
	CHECK(p.samples["smbsrv_read_bytes_total"] == "1024");
	CHECK(p.samples["smbsrv_write_bytes_total"] == "4096");
	CHECK(p.samples["smbsrv_read_copies_total{reason=\"small\"}"] == "5");
	CHECK(p.samples["smbsrv_breaks_total{kind=\"lease\"}"] == "2");
	CHECK(p.samples["smbsrv_requests_total{command=\"read\"}"] == "6");
	CHECK(p.samples["smbsrv_request_errors_total{command=\"read\"}"] == "1");
	CHECK(p.samples["smbsrv_queue_messages_in_flight{queue=\"smbsrv\",kind=\"percpu\"}"] ==
	      "1");
	CHECK(p.samples["smbsrv_queue_wait_seconds_total{queue=\"smbsrv\",kind=\"percpu\"}"] ==
	      "1.5");

	// The histogram: cumulative, +Inf equal to _count, _sum in seconds.
	CHECK(p.samples["smbsrv_request_duration_seconds_bucket{command=\"read\",le=\"1e-05\"}"] ==
	      "3");
	CHECK(p.samples["smbsrv_request_duration_seconds_bucket{command=\"read\",le=\"0.001\"}"] ==
	      "5");
	CHECK(p.samples["smbsrv_request_duration_seconds_bucket{command=\"read\",le=\"+Inf\"}"] ==
	      "6");
	CHECK(p.samples["smbsrv_request_duration_seconds_count{command=\"read\"}"] == "6");
	CHECK(p.samples["smbsrv_request_duration_seconds_sum{command=\"read\"}"] == "0.0025");
	CHECK(p.types["smbsrv_request_duration_seconds"] == "histogram");

	// Every sample's family has HELP and TYPE; counters end in _total.
	for (const auto &[s, v] : p.samples) {
		std::string f = family_of(s, p);
		INFO(s);
		CHECK(p.types.contains(f));
		CHECK(p.helps.contains(f));
		if (p.types[f] == "counter")
			CHECK(f.compare(f.size() - 6, 6, "_total") == 0);
	}
}

TEST_CASE("metrics: promtool check metrics accepts the text, up and down")
{
	auto [rc, said] = promtool(prometheus_text(sample()));
	CAPTURE(said);
	CHECK(rc == 0);
	CHECK(said.empty());
	std::string down = prometheus_down_text("the smbsrv kernel module is not loaded;\nload it");
	CHECK(parse(down).samples["smbsrv_up"] == "0");
	auto [rc2, said2] = promtool(down);
	CAPTURE(said2);
	CHECK(rc2 == 0);

	// And it would say so: a counter without _total is reported.
	auto [rc3, said3] = promtool("# HELP x_bytes b\n# TYPE x_bytes counter\nx_bytes 1\n");
	CHECK(said3.find("counter metrics should have \"_total\" suffix") != std::string::npos);
	(void)rc3;
}
