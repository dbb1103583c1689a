// SPDX-License-Identifier: GPL-2.0-or-later
//
// rpc-driver: one IPC$ pipe of smbsrv's RPC library on stdin/stdout, so
// that real clients' DCE/RPC code (impacket) can talk to it without a
// kernel, and their exchanges be recorded for the unit tests.
//
//   rpc-driver CONFIG PIPE [--admin]
//
// Each input line is the hex of bytes the client writes to the pipe; each
// output line is the hex of what the pipe answers ("-" for nothing).
#include <cstdio>
#include <iostream>
#include <string>

#include "bytes.hpp"
#include "config.hpp"
#include "params.hpp"
#include "rpc/rpc.hpp"

using namespace smbsrv;


int main(int argc, char **argv)
{
	if (argc < 3) {
		std::cerr << "usage: rpc-driver CONFIG PIPE [--admin]\n";
		return 2;
	}
	Diagnostics d;
	Config cfg = load_config_file(argv[1], d);
	if (d.has_errors()) {
		for (const auto &x : d.all())
			std::cerr << x.str() << "\n";
		return 1;
	}
	bool admin = argc > 3 && std::string(argv[3]) == "--admin";
	auto pipe = rpc::open_pipe(argv[2], rpc::server_info(cfg), admin);
	if (!pipe) {
		std::cout << "NO-SUCH-PIPE" << std::endl;
		return 0;
	}
	for (std::string line; std::getline(std::cin, line);) {
		Bytes in;
		if (!from_hex(line, in)) {
			std::cerr << "rpc-driver: not hex: " << line << "\n";
			return 2;
		}
		Bytes out = pipe->process(in);
		std::cout << (out.empty() ? "-" : to_hex(out)) << std::endl;
	}
	return 0;
}
