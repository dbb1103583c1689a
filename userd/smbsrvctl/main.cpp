// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl: look at and control a running smbsrv.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "knobs_nl.hpp"
#include "netlink.hpp"

using namespace smbsrv;

namespace {

void usage(FILE *f)
{
	std::fprintf(f,
		"Usage: smbsrvctl COMMAND\n"
		"\n"
		"Commands:\n"
		"  status     module version, daemon state, listener and knobs\n"
		"  version    print smbsrvctl's version\n"
		"  help       print this help\n");
}

int cmd_status()
{
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

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	if (args.empty()) {
		usage(stderr);
		return 2;
	}
	const std::string &cmd = args[0];
	try {
		if (cmd == "status")
			return cmd_status();
		if (cmd == "version" || cmd == "--version" || cmd == "-V") {
			std::cout << "smbsrvctl " SMBSRV_VERSION "\n";
			return 0;
		}
		if (cmd == "help" || cmd == "--help" || cmd == "-h") {
			usage(stdout);
			return 0;
		}
	} catch (const NlError &e) {
		std::cerr << "smbsrvctl: " << e.what() << "\n";
		return 1;
	}
	std::cerr << "smbsrvctl: unknown command '" << cmd << "'\n";
	usage(stderr);
	return 2;
}
