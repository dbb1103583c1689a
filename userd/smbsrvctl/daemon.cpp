// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl reload, and the reload after an edit.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "ctl.hpp"
#include "netlink.hpp"

namespace smbsrv::ctl {

namespace {

// The daemon by its pid file, or else as the module knows it (a daemon
// started with another pid file).
std::optional<pid_t> find_daemon(const Options &o)
{
	if (auto pid = daemon_pid(o.pidfile))
		return pid;
	try {
		GenlChannel nl;
		ServerStatus st = nl.status();
		auto pid = static_cast<pid_t>(st.daemon_pid);
		if (st.daemon_running && process_is(pid, "smbsrvd"))
			return pid;
	} catch (const NlError &) {
	}
	return std::nullopt;
}

} // namespace

int reload_daemon(const Options &o, bool required)
{
	std::optional<pid_t> pid = find_daemon(o);
	if (!pid) {
		if (required) {
			std::fprintf(stderr, "smbsrvctl: smbsrvd is not running (no live "
					     "smbsrvd in %s, none attached to the module)\n",
				     o.pidfile.c_str());
			return 1;
		}
		std::printf("smbsrvd is not running; the change applies when it starts\n");
		return 0;
	}
	if (kill(*pid, SIGHUP) < 0) {
		std::fprintf(stderr, "smbsrvctl: cannot signal smbsrvd (pid %d): %s\n",
			     static_cast<int>(*pid), std::strerror(errno));
		return 1;
	}
	std::printf("smbsrvd (pid %d) told to reload\n", static_cast<int>(*pid));
	return 0;
}

int cmd_reload(const Options &o, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("reload takes no arguments");
	return reload_daemon(o, true);
}

} // namespace smbsrv::ctl
