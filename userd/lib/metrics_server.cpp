// SPDX-License-Identifier: GPL-2.0-or-later
#include "metrics_server.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

#include "http.hpp"
#include "metrics.hpp"

namespace smbsrv {

MetricsServer::~MetricsServer()
{
	for (auto &c : clients_)
		close(c.fd);
	if (lfd_ >= 0)
		close(lfd_);
}

void MetricsServer::listen(const std::string &where)
{
	if (where == where_ && (lfd_ >= 0 || where.empty()))
		return;
	int fd = -1;
	if (!where.empty()) {
		sockaddr_storage ss{};
		socklen_t len = 0;
		std::string why = http::parse_listen(where, ss, len, true);
		if (!why.empty())
			throw std::runtime_error("metrics listen: " + why);
		fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			throw std::runtime_error("metrics listen: socket: " +
						 std::string(std::strerror(errno)));
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ss.ss_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (bind(fd, reinterpret_cast<sockaddr *>(&ss), len) < 0 ||
		    ::listen(fd, 16) < 0) {
			int e = errno;
			close(fd);
			throw std::runtime_error("metrics listen: " + where + ": " +
						 std::strerror(e));
		}
	}
	if (lfd_ >= 0)
		close(lfd_);
	lfd_ = fd;
	where_ = where;
}

unsigned MetricsServer::port() const
{
	if (lfd_ < 0)
		return 0;
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (getsockname(lfd_, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_port);
	return ntohs(reinterpret_cast<sockaddr_in *>(&ss)->sin_port);
}

void MetricsServer::add_pollfds(std::vector<pollfd> &fds) const
{
	if (lfd_ >= 0)
		fds.push_back({lfd_, POLLIN, 0});
	for (const auto &c : clients_)
		fds.push_back({c.fd, static_cast<short>(c.out.empty() ? POLLIN : POLLOUT), 0});
}

int MetricsServer::timeout_ms() const
{
	if (clients_.empty())
		return -1;
	auto now = std::chrono::steady_clock::now();
	auto first = std::min_element(clients_.begin(), clients_.end(),
				      [](const Client &a, const Client &b) {
					      return a.until < b.until;
				      })->until;
	if (first <= now)
		return 0;
	return static_cast<int>(
		std::chrono::ceil<std::chrono::milliseconds>(first - now).count());
}

void MetricsServer::drop(size_t i)
{
	close(clients_[i].fd);
	clients_.erase(clients_.begin() + static_cast<std::ptrdiff_t>(i));
}

void MetricsServer::accept_clients()
{
	for (;;) {
		int fd = accept4(lfd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return; // EAGAIN, or a client that went already
		if (clients_.size() >= max_clients)
			drop(0); // the oldest
		Client c;
		c.fd = fd;
		c.until = std::chrono::steady_clock::now() + deadline;
		clients_.push_back(std::move(c));
	}
}

void MetricsServer::answer(Client &c)
{
	http::Request req;
	switch (http::parse_request(c.in, req)) {
	case http::Parse::incomplete:
		return;
	case http::Parse::bad:
		c.out = http::response(400, "Bad Request", "text/plain", "bad request\n");
		return;
	case http::Parse::too_large:
		c.out = http::response(431, "Request Header Fields Too Large", "text/plain",
				       "request head too large\n");
		return;
	case http::Parse::ok:
		break;
	}
	bool head = req.method == "HEAD";
	if (req.method != "GET" && !head)
		c.out = http::response(405, "Method Not Allowed", "text/plain",
				       "only GET and HEAD\n");
	else if (req.path != "/metrics")
		c.out = http::response(404, "Not Found", "text/plain",
				       "the metrics are at /metrics\n", head);
	else {
		scrapes_++;
		c.out = http::response(200, "OK", prometheus_content_type, render_(), head);
	}
}

bool MetricsServer::serve(Client &c, short revents)
{
	if (revents & (POLLERR | POLLNVAL))
		return false;
	if (c.out.empty() && (revents & (POLLIN | POLLHUP))) {
		char buf[2048];
		ssize_t n = recv(c.fd, buf, std::min(sizeof(buf), http::max_head + 1 - c.in.size()),
				 0);
		if (n <= 0)
			return n < 0 && (errno == EAGAIN || errno == EINTR);
		c.in.append(buf, static_cast<size_t>(n));
		answer(c);
		if (c.out.empty())
			return true;
	}
	if (!c.out.empty()) {
		ssize_t n = send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0)
			return errno == EAGAIN || errno == EINTR;
		c.sent += static_cast<size_t>(n);
		if (c.sent == c.out.size()) {
			shutdown(c.fd, SHUT_WR);
			return false;
		}
	}
	return true;
}

void MetricsServer::on_poll(const std::vector<pollfd> &fds)
{
	for (const auto &p : fds) {
		if (p.fd == lfd_ && lfd_ >= 0 && (p.revents & POLLIN))
			accept_clients();
	}
	for (const auto &p : fds) {
		if (!p.revents || p.fd == lfd_)
			continue;
		for (size_t i = 0; i < clients_.size(); i++) {
			if (clients_[i].fd != p.fd)
				continue;
			if (!serve(clients_[i], p.revents))
				drop(i);
			break;
		}
	}
	auto now = std::chrono::steady_clock::now();
	for (size_t i = clients_.size(); i-- > 0;)
		if (clients_[i].until <= now)
			drop(i);
}

} // namespace smbsrv
