// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvd's metrics endpoint: the request-head parser on good, short,
// malformed and oversized input, `metrics listen` addresses, and the
// server itself over real loopback sockets (GET, HEAD, 404, 405, 400, a
// client that sends nothing and is dropped at the deadline, more clients
// than it serves at once), driven through its poll interface.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

#include "config.hpp"
#include "http.hpp"
#include "metrics_server.hpp"
#include "params.hpp"

using namespace smbsrv;

TEST_CASE("http: request heads")
{
	http::Request r;
	CHECK(http::parse_request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", r) ==
	      http::Parse::ok);
	CHECK(r.method == "GET");
	CHECK(r.path == "/metrics");
	CHECK(r.minor == 1);
	// The query is not part of the path; bare LF line ends work.
	CHECK(http::parse_request("HEAD /metrics?x=1 HTTP/1.0\n\n", r) == http::Parse::ok);
	CHECK(r.method == "HEAD");
	CHECK(r.path == "/metrics");
	CHECK(r.minor == 0);
	// Not yet a whole head.
	CHECK(http::parse_request("", r) == http::Parse::incomplete);
	CHECK(http::parse_request("GET /metrics HTTP/1.1\r\n", r) == http::Parse::incomplete);
	CHECK(http::parse_request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r", r) ==
	      http::Parse::incomplete);
	// Malformed.
	for (const char *bad : {"GET\r\n\r\n", "GET  /metrics HTTP/1.1\r\n\r\n",
				"GET metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTP/2.0\r\n\r\n",
				"GET /metrics HTTP/1.1x\r\n\r\n", "G(T /metrics HTTP/1.1\r\n\r\n",
				"GET /me\x01trics HTTP/1.1\r\n\r\n",
				"GET /metrics HTTP/1.1\r\nno colon\r\n\r\n",
				"GET /metrics HTTP/1.1\r\n folded: x\r\n\r\n",
				"GET /metrics HTTP/1.1\r\n: empty name\r\n\r\n",
				"\r\n\r\n"}) {
		INFO(bad);
		CHECK(http::parse_request(bad, r) == http::Parse::bad);
	}
	// A head that never ends within max_head bytes.
	std::string big = "GET /metrics HTTP/1.1\r\nX: " + std::string(http::max_head, 'a');
	CHECK(http::parse_request(big, r) == http::Parse::too_large);
	// An end past max_head does not count.
	CHECK(http::parse_request(big + "\r\n\r\n", r) == http::Parse::too_large);
}

TEST_CASE("http: responses")
{
	std::string r = http::response(200, "OK", "text/plain", "abc");
	CHECK(r == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n"
		   "Connection: close\r\n\r\nabc");
	CHECK(http::response(200, "OK", "text/plain", "abc", true).find("\r\n\r\n") + 4 ==
	      http::response(200, "OK", "text/plain", "abc", true).size());
	CHECK(http::response(405, "Method Not Allowed", "text/plain", "")
		      .find("Allow: GET, HEAD\r\n") != std::string::npos);
}

TEST_CASE("metrics listen: addresses, and the configuration says where they are wrong")
{
	sockaddr_storage ss{};
	socklen_t len = 0;
	CHECK(http::parse_listen("127.0.0.1:9922", ss, len).empty());
	CHECK(ss.ss_family == AF_INET);
	CHECK(ntohs(reinterpret_cast<sockaddr_in *>(&ss)->sin_port) == 9922);
	CHECK(http::parse_listen("[::1]:80", ss, len).empty());
	CHECK(ss.ss_family == AF_INET6);
	CHECK(len == sizeof(sockaddr_in6));
	for (const char *bad : {"9922", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0",
				"127.0.0.1:65536", "127.0.0.1:99999999", "host:80", "::1:80",
				"[::1]80", "[::1]:", "[nonsense]:80", "127.0.0.1:8x"}) {
		INFO(bad);
		CHECK_FALSE(http::parse_listen(bad, ss, len).empty());
	}

	Diagnostics d;
	build_config(parse_conf_text("[global]\n\tmetrics listen = localhost:9922\n", "m.conf", d),
		     d);
	REQUIRE(d.has_errors());
	CHECK(d.all()[0].str().find("m.conf:2:") != std::string::npos);
	CHECK(d.all()[0].str().find("metrics listen") != std::string::npos);
	Diagnostics ok;
	Config cfg = build_config(
		parse_conf_text("[global]\n\tmetrics listen = 127.0.0.1:9922\n", "m.conf", ok), ok);
	CHECK_FALSE(ok.has_errors());
	CHECK(cfg.global.str("metrics listen") == "127.0.0.1:9922");
}

namespace {

int connect_to(unsigned port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	REQUIRE(fd >= 0);
	sockaddr_in a{};
	a.sin_family = AF_INET;
	a.sin_port = htons(static_cast<uint16_t>(port));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	REQUIRE(connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == 0);
	return fd;
}

// Run the server's side until the client fd has the whole answer (the
// server closed), or until `rounds` polls passed.
std::string exchange(MetricsServer &srv, int fd, const std::string &send_this, int rounds = 200)
{
	if (!send_this.empty())
		REQUIRE(send(fd, send_this.data(), send_this.size(), 0) ==
			static_cast<ssize_t>(send_this.size()));
	std::string got;
	for (int i = 0; i < rounds; i++) {
		std::vector<pollfd> fds;
		srv.add_pollfds(fds);
		poll(fds.data(), fds.size(), 20);
		srv.on_poll(fds);
		pollfd c{fd, POLLIN, 0};
		if (poll(&c, 1, 0) == 1) {
			char buf[4096];
			ssize_t n = recv(fd, buf, sizeof(buf), 0);
			if (n <= 0)
				break;
			got.append(buf, static_cast<size_t>(n));
		}
	}
	close(fd);
	return got;
}

} // namespace

TEST_CASE("metrics server: GET, HEAD and the errors, over loopback")
{
	int renders = 0;
	MetricsServer srv([&] {
		renders++;
		return std::string("smbsrv_up 1\n");
	});
	srv.listen("127.0.0.1:0");
	unsigned port = srv.port();
	REQUIRE(port != 0);

	std::string r = exchange(srv, connect_to(port), "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
	CHECK(r.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
	CHECK(r.find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n") !=
	      std::string::npos);
	CHECK(r.size() >= 12);
	CHECK(r.substr(r.size() - 12) == "smbsrv_up 1\n");
	CHECK(renders == 1);
	CHECK(srv.scrapes() == 1);

	r = exchange(srv, connect_to(port), "HEAD /metrics HTTP/1.0\r\n\r\n");
	CHECK(r.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
	CHECK(r.find("Content-Length: 12\r\n") != std::string::npos);
	CHECK(r.substr(r.size() - 4) == "\r\n\r\n");

	CHECK(exchange(srv, connect_to(port), "GET / HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0) ==
	      0);
	CHECK(exchange(srv, connect_to(port), "POST /metrics HTTP/1.1\r\n\r\n")
		      .rfind("HTTP/1.1 405", 0) == 0);
	CHECK(exchange(srv, connect_to(port), "hello\r\n\r\n").rfind("HTTP/1.1 400", 0) == 0);
	CHECK(exchange(srv, connect_to(port), std::string(http::max_head + 10, 'x'))
		      .rfind("HTTP/1.1 431", 0) == 0);
	// Only the GETs and the HEAD of /metrics asked the module.
	CHECK(renders == 2);

	// Moving it: the old port is closed, the new one answers.
	srv.listen("");
	CHECK(srv.port() == 0);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	sockaddr_in a{};
	a.sin_family = AF_INET;
	a.sin_port = htons(static_cast<uint16_t>(port));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) != 0);
	close(fd);
	CHECK_THROWS_AS(srv.listen("nonsense"), std::runtime_error);
}

TEST_CASE("metrics server: a silent client is dropped at the deadline, the rest served")
{
	MetricsServer srv([] { return std::string("x 1\n"); });
	srv.listen("127.0.0.1:0");
	unsigned port = srv.port();
	// max_clients + 2 clients that send nothing: the oldest go for the
	// newest, the server never holds more than max_clients.
	std::vector<int> silent;
	for (size_t i = 0; i < MetricsServer::max_clients + 2; i++)
		silent.push_back(connect_to(port));
	for (int i = 0; i < 20; i++) {
		std::vector<pollfd> fds;
		srv.add_pollfds(fds);
		poll(fds.data(), fds.size(), 10);
		srv.on_poll(fds);
	}
	std::vector<pollfd> fds;
	srv.add_pollfds(fds);
	CHECK(fds.size() == 1 + MetricsServer::max_clients);
	CHECK(srv.timeout_ms() > 0);
	CHECK(srv.timeout_ms() <= MetricsServer::deadline.count());
	// A real scrape still gets its answer meanwhile.
	CHECK(exchange(srv, connect_to(port), "GET /metrics HTTP/1.1\r\n\r\n").find("x 1\n") !=
	      std::string::npos);
	// After the deadline every silent one is closed by the server.
	auto until = std::chrono::steady_clock::now() + MetricsServer::deadline +
		     std::chrono::seconds(1);
	while (std::chrono::steady_clock::now() < until) {
		if (srv.timeout_ms() < 0)
			break; // no client left
		std::vector<pollfd> f;
		srv.add_pollfds(f);
		poll(f.data(), f.size(), srv.timeout_ms());
		srv.on_poll(f);
	}
	fds.clear();
	srv.add_pollfds(fds);
	CHECK(fds.size() == 1);
	CHECK(srv.timeout_ms() == -1);
	for (int fd : silent) {
		char c;
		CHECK(recv(fd, &c, 1, MSG_DONTWAIT) == 0); // closed by the server
		close(fd);
	}
}
