// SPDX-License-Identifier: GPL-2.0-or-later
//
// The daemon's and CLI's view of smbsrv.ko: the generic netlink family
// "smbsrv" described by Documentation/netlink/specs/smbsrv.yaml.
// KernelChannel is the interface; GenlChannel talks to the module through
// libnl-genl-3, tests substitute a fake.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "params.hpp"

struct nl_sock;
struct nl_msg;
struct nl_cb;

namespace smbsrv {

struct ServerStatus {
	std::string module_version;
	bool daemon_running = false;
	uint32_t daemon_pid = 0;
	uint32_t listen_port = 0; // 0: not listening
	uint32_t connections = 0;
	uint32_t sessions = 0;
	Knobs knobs;
	std::vector<int> knobs_reported; // SMBSRV_A_KNOBS_* the module sent
};

// A failed exchange with the module: errno-style code and the module's
// own explanation (netlink extended ack) when it gave one.
class NlError : public std::runtime_error {
public:
	NlError(int err, const std::string &what)
		: std::runtime_error(what), err_(err)
	{
	}
	[[nodiscard]] int err() const { return err_; }

private:
	int err_;
};

// The family is not registered: smbsrv.ko is not loaded.
class ModuleNotLoaded : public NlError {
public:
	ModuleNotLoaded()
		: NlError(2, "the smbsrv kernel module is not loaded; load it "
			     "with 'modprobe smbsrv' (or 'insmod smbsrv.ko') "
			     "and try again")
	{
	}
};

class KernelChannel {
public:
	virtual ~KernelChannel() = default;
	// The daemon announces itself and its knobs; the module starts or
	// moves its listener and answers with its state.
	virtual ServerStatus startup(uint32_t pid, const Knobs &knobs) = 0;
	virtual ServerStatus status() = 0;
};

// Something the kernel told us without being asked.
enum class KernelEvent {
	module_loaded,	 // the smbsrv family (re)appeared
	module_unloaded, // the smbsrv family went away
};

class GenlChannel final : public KernelChannel {
public:
	// Throws ModuleNotLoaded or NlError.  With watch_module, the channel
	// follows the family's registration (nlctrl notifications) so that a
	// daemon can wait for the module to be reloaded.
	explicit GenlChannel(bool watch_module = false);
	~GenlChannel() override;
	GenlChannel(const GenlChannel &) = delete;
	GenlChannel &operator=(const GenlChannel &) = delete;

	ServerStatus startup(uint32_t pid, const Knobs &knobs) override;
	ServerStatus status() override;

	// For the daemon's poll loop.
	[[nodiscard]] int fd() const;
	void on_event(std::function<void(KernelEvent)> handler) { event_handler_ = std::move(handler); }
	// Read and handle whatever the kernel sent; false if the socket died.
	bool process_input();
	[[nodiscard]] bool module_present() const { return family_ > 0; }
	[[nodiscard]] const std::string &last_error() const { return last_error_; }

	struct Transaction; // one request in flight

private:
	nl_msg *new_msg(uint8_t cmd) const;
	ServerStatus transact_server(nl_msg *msg);
	static int dispatch(nl_msg *msg, void *arg);
	void handle_ctrl(nl_msg *msg);

	nl_sock *sk_ = nullptr;
	nl_cb *cb_ = nullptr;
	int family_ = 0;
	Transaction *current_ = nullptr;
	std::function<void(KernelEvent)> event_handler_;
	std::string last_error_;
};

} // namespace smbsrv
