// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl: look at and control a running smbsrv, and edit its shares
// and users.
#include <cstdio>
#include <getopt.h>
#include <iostream>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "ctl.hpp"
#include "netlink.hpp"

using namespace smbsrv;
using namespace smbsrv::ctl;

namespace {

void usage(FILE *f)
{
	std::fprintf(f,
		"Usage: smbsrvctl [-c FILE] [-u USERDB] [-P PIDFILE] [-n] [-j [-p]] COMMAND [ARGS]\n"
		"\n"
		"Server:\n"
		"  status                       module, daemon, listener and knobs\n"
		"  reload                       make smbsrvd re-read its configuration\n"
		"  sessions                     sessions: user, client, dialect, signing,\n"
		"                               encryption, trees, open files\n"
		"  connections                  TCP connections\n"
		"  opens                        open files: oplock or lease, durability\n"
		"  kill session ID | kill connection ID\n"
		"  set KNOB VALUE               change a knob of the running module\n"
		"                               (until smbsrvd reloads or restarts)\n"
		"  stats [--prometheus [-o FILE]]  the module's counters (in the\n"
		"                               Prometheus text format, to FILE atomically)\n"
		"\n"
		"Shares (edit the configuration file, then reload smbsrvd):\n"
		"  share list                   every share with its path and comment\n"
		"  share show NAME [-a]         a share's parameters (-a: with defaults)\n"
		"  share add NAME -o \"path = DIR\" [-o \"KEY = VALUE\"]...\n"
		"  share update NAME -o \"KEY = VALUE\"...  (empty VALUE: back to default)\n"
		"  share del NAME\n"
		"\n"
		"Users (the user database; smbsrvd sees changes at the next logon):\n"
		"  user list                    every user, with its Unix account\n"
		"  user add NAME                add a user; the password is asked twice\n"
		"                               on a terminal, or read as one line of stdin\n"
		"  user passwd NAME             change a user's password\n"
		"  user del NAME                remove a user\n"
		"\n"
		"Other:\n"
		"  version                      print smbsrvctl's version\n"
		"  help                         print this help\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE   configuration file (default %s)\n"
		"  -u, --userdb FILE   user database (default %s)\n"
		"  -P, --pidfile FILE  smbsrvd's pid file (default %s)\n"
		"  -n, --no-reload     change files without telling smbsrvd\n"
		"  -j, --json          JSON output (status, sessions, connections, opens,\n"
		"                      stats, share list, share show)\n"
		"  -p, --pretty        with -j: indented JSON\n",
		default_config_path, default_userdb_path, default_pidfile_path);
}

} // namespace

void smbsrv::ctl::print_json(const std::string &text)
{
	std::fwrite(text.data(), 1, text.size(), stdout);
	std::fputc('\n', stdout);
}

int main(int argc, char **argv)
{
	static const option longopts[] = {
		{"config", required_argument, nullptr, 'c'},
		{"pidfile", required_argument, nullptr, 'P'},
		{"userdb", required_argument, nullptr, 'u'},
		{"no-reload", no_argument, nullptr, 'n'},
		{"json", no_argument, nullptr, 'j'},
		{"pretty", no_argument, nullptr, 'p'},
		{"version", no_argument, nullptr, 'V'},
		{"help", no_argument, nullptr, 'h'},
		{nullptr, 0, nullptr, 0},
	};
	Options o;
	int c;
	// '+': options end at the command, whose own options follow it.
	while ((c = getopt_long(argc, argv, "+c:P:u:njpVh", longopts, nullptr)) != -1) {
		switch (c) {
		case 'c':
			o.config = optarg;
			break;
		case 'P':
			o.pidfile = optarg;
			break;
		case 'u':
			o.userdb = optarg;
			break;
		case 'n':
			o.reload = false;
			break;
		case 'j':
			o.json = true;
			break;
		case 'p':
			o.pretty = true;
			break;
		case 'V':
			std::cout << "smbsrvctl " SMBSRV_VERSION "\n";
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	Args args(argv + optind, argv + argc);
	if (args.empty()) {
		usage(stderr);
		return 2;
	}
	const std::string &cmd = args[0];
	try {
		if (o.pretty && !o.json)
			throw UsageError("-p (pretty) goes with -j (JSON)");
		if (o.json && cmd != "status" && cmd != "sessions" && cmd != "connections" &&
		    cmd != "opens" && cmd != "stats" && cmd != "share")
			throw UsageError("no JSON output for '" + cmd + "'");
		if (cmd == "status")
			return cmd_status(o, args);
		if (cmd == "reload")
			return cmd_reload(o, args);
		if (cmd == "share")
			return cmd_share(o, args);
		if (cmd == "user")
			return cmd_user(o, args);
		if (cmd == "sessions")
			return cmd_sessions(o, args);
		if (cmd == "opens")
			return cmd_opens(o, args);
		if (cmd == "connections")
			return cmd_connections(o, args);
		if (cmd == "kill")
			return cmd_kill(o, args);
		if (cmd == "set")
			return cmd_set(o, args);
		if (cmd == "stats")
			return cmd_stats(o, args);
		if (cmd == "version") {
			std::cout << "smbsrvctl " SMBSRV_VERSION "\n";
			return 0;
		}
		if (cmd == "help") {
			usage(stdout);
			return 0;
		}
		throw UsageError("unknown command '" + cmd + "'");
	} catch (const UsageError &e) {
		std::cerr << "smbsrvctl: " << e.what() << "\n"
			  << "Try 'smbsrvctl help'.\n";
		return 2;
	} catch (const NlError &e) {
		std::cerr << "smbsrvctl: " << e.what() << "\n";
		return 1;
	} catch (const Failure &e) {
		std::cerr << "smbsrvctl: " << e.what() << "\n";
		return 1;
	} catch (const FileError &e) {
		std::cerr << "smbsrvctl: " << e.what() << "\n";
		return 1;
	}
}
