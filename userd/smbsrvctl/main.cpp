// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl: look at and control a running smbsrv.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

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

std::string human_size(uint32_t v)
{
	if (v && v % (1U << 20) == 0)
		return std::to_string(v) + " (" + std::to_string(v >> 20) + "M)";
	if (v && v % (1U << 10) == 0)
		return std::to_string(v) + " (" + std::to_string(v >> 10) + "K)";
	return std::to_string(v);
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
	std::printf("knobs:\n");
	const Knobs &k = st.knobs;
	auto knob = [](const char *name, const std::string &v) {
		std::printf("  %-20s %s\n", name, v.c_str());
	};
	knob("tcp port", std::to_string(k.tcp_port));
	knob("max connections", std::to_string(k.max_connections));
	knob("smb2 max read", human_size(k.smb2_max_read));
	knob("smb2 max write", human_size(k.smb2_max_write));
	knob("smb2 max trans", human_size(k.smb2_max_trans));
	knob("smb2 max credits", std::to_string(k.smb2_max_credits));
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
