// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl status.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "ctl.hpp"
#include "knobs_nl.hpp"
#include "netlink.hpp"

namespace smbsrv::ctl {

int cmd_status(const Options &, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("status takes no arguments");
	GenlChannel nl;
	ServerStatus st = nl.status();
	auto row = [](const char *k, const std::string &v) {
		std::printf("%-18s %s\n", k, v.c_str());
	};
	row("module:", "smbsrv " + st.module_version);
	row("daemon:", st.daemon_running
			       ? "running (pid " + std::to_string(st.daemon_pid) + ")"
			       : std::string("not running"));
	row("listening:", st.listen_port ? "TCP port " + std::to_string(st.listen_port)
					 : std::string("no"));
	row("connections:", std::to_string(st.connections));
	row("sessions:", std::to_string(st.sessions));
	// Each share with tree connects, against its max connections.
	for (const auto &u : st.share_uses)
		row(("share " + u.name + ":").c_str(),
		    std::to_string(u.trees) + " tree connect" + (u.trees == 1 ? "" : "s") +
			    (u.max_connections && u.max_connections < 65536
				     ? " (max connections " + std::to_string(u.max_connections) +
					       ", enforced)"
				     : ""));
	std::printf("knobs:\n");
	for (const auto &ki : knob_table()) {
		if (std::find(st.knobs_reported.begin(), st.knobs_reported.end(),
			      ki.attr) == st.knobs_reported.end())
			continue;
		std::string v = knob_text(ki, st.knobs);
		// Sizes: the number of bytes, then as the configuration writes it.
		if (ki.field && !v.empty() && !std::isdigit(static_cast<unsigned char>(v.back())) &&
		    std::isdigit(static_cast<unsigned char>(v.front())))
			v = std::to_string(st.knobs.*ki.field).append(" (").append(v).append(")");
		std::printf("  %-20s %s\n", std::string(ki.param).c_str(), v.c_str());
	}
	return 0;
}

} // namespace smbsrv::ctl
