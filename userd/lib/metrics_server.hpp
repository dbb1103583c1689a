// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvd's metrics endpoint (`metrics listen = ADDR:PORT`): GET /metrics
// answers the Prometheus text.  It lives in the daemon's poll loop and
// never blocks it: sockets are non-blocking, at most max_clients are
// served at once (the oldest goes for a new one), each within a deadline.
#pragma once

#include <chrono>
#include <functional>
#include <poll.h>
#include <string>
#include <vector>

namespace smbsrv {

class MetricsServer {
public:
	using Render = std::function<std::string()>;
	static constexpr size_t max_clients = 8;
	static constexpr std::chrono::milliseconds deadline{5000};

	explicit MetricsServer(Render render) : render_(std::move(render)) {}
	~MetricsServer();
	MetricsServer(const MetricsServer &) = delete;
	MetricsServer &operator=(const MetricsServer &) = delete;

	// Listen on "ADDR:PORT" instead of where it listened ("ADDR:0": any
	// free port); "" stops.
	// Throws std::runtime_error (the address, or the socket's errno).
	void listen(const std::string &where);
	[[nodiscard]] const std::string &where() const { return where_; }
	// The port bound (for "ADDR:0" in tests), 0 when not listening.
	[[nodiscard]] unsigned port() const;

	// Add the descriptors to poll; the poll timeout it needs (-1: none).
	void add_pollfds(std::vector<pollfd> &fds) const;
	[[nodiscard]] int timeout_ms() const;
	// After poll: serve what is ready (fds as polled), end what is late.
	void on_poll(const std::vector<pollfd> &fds);

	[[nodiscard]] uint64_t scrapes() const { return scrapes_; }

private:
	struct Client {
		int fd = -1;
		std::string in, out;
		size_t sent = 0;
		std::chrono::steady_clock::time_point until;
	};
	void accept_clients();
	// False when the client is done (answered or gone).
	bool serve(Client &c, short revents);
	void answer(Client &c);
	void drop(size_t i);

	Render render_;
	int lfd_ = -1;
	std::string where_;
	std::vector<Client> clients_;
	uint64_t scrapes_ = 0;
};

} // namespace smbsrv
