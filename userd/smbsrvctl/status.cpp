// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl status.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "ctl.hpp"
#include "ctl_json.hpp"
#include "knobs_nl.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv::ctl {

std::string share_use_text(uint32_t trees, uint32_t max_connections, const char *when)
{
	std::string t = std::to_string(trees) + " tree connect" + (trees == 1 ? "" : "s") + when;
	if (max_connections && max_connections < 65536)
		t += " (max connections " + std::to_string(max_connections) + ", enforced)";
	return t;
}

int cmd_status(const Options &o, const Args &args)
{
	if (args.size() > 1)
		throw UsageError("status takes no arguments");
	GenlChannel nl;
	ServerStatus st = nl.status();
	if (o.json) {
		print_json(status_json(st, o.pretty));
		return 0;
	}
	auto row = [](const char *k, const std::string &v) {
		std::printf("%-18s %s\n", k, v.c_str());
	};
	row("module:", "smbsrv " + st.module_version);
	row("daemon:", st.daemon_running
			       ? "running (pid " + std::to_string(st.daemon_pid) + ")"
			       : std::string("not running"));
	// Where: "every address" for the wildcard socket, else each address
	// (interfaces, bind interfaces only).
	std::string where;
	for (const auto &a : st.listen_addrs)
		where += (where.empty() ? " at " : ", ") + a;
	if (st.listen_addrs.size() == 1 && (st.listen_addrs[0] == "::" || st.listen_addrs[0] == "0.0.0.0"))
		where = ", every address";
	row("listening:", st.listen_port ? "TCP port " + std::to_string(st.listen_port) + where
					 : std::string("no"));
	row("connections:", std::to_string(st.connections));
	row("sessions:", std::to_string(st.sessions));
	// Each share with tree connects, against its max connections.
	for (const auto &u : st.share_uses)
		row(("share " + u.name + ":").c_str(), share_use_text(u.trees, u.max_connections));
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
		// A knob the module receives but does not act on yet says so,
		// as --check-config and 'smbsrvctl set' do.
		const ParamDef *def = find_param(ki.param);
		if (def && def->effect == Effect::not_yet)
			v += "  (accepted, not yet in effect)";
		std::printf("  %-20s %s\n", std::string(ki.param).c_str(), v.c_str());
	}
	return 0;
}

} // namespace smbsrv::ctl
