// SPDX-License-Identifier: GPL-2.0-or-later
//
// The daemon's and CLI's view of smbsrv.ko: the generic netlink family
// "smbsrv" described by Documentation/netlink/specs/smbsrv.yaml.
// KernelChannel is the interface; GenlChannel talks to the module through
// libnl-genl-3, tests substitute a fake.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "params.hpp"

struct nl_sock;
struct nl_msg;

namespace smbsrv {

struct ServerStatus {
	std::string module_version;
	bool daemon_running = false;
	uint32_t daemon_pid = 0;
	uint32_t listen_port = 0; // 0: not listening
	Knobs knobs;
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

class GenlChannel final : public KernelChannel {
public:
	GenlChannel(); // throws ModuleNotLoaded or NlError
	~GenlChannel() override;
	GenlChannel(const GenlChannel &) = delete;
	GenlChannel &operator=(const GenlChannel &) = delete;

	ServerStatus startup(uint32_t pid, const Knobs &knobs) override;
	ServerStatus status() override;

	// For the daemon's poll loop.
	[[nodiscard]] int fd() const;
	// Read and handle whatever the module sent; false if the socket died.
	bool process_input();

private:
	nl_msg *new_msg(uint8_t cmd) const;
	ServerStatus transact_server(nl_msg *msg);

	nl_sock *sk_ = nullptr;
	int family_ = 0;
};

} // namespace smbsrv
