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

#include "config.hpp"
#include "params.hpp"
#include "rpc/rpc.hpp"

using namespace smbsrv;

namespace {

Bytes unhex(const std::string &s)
{
	Bytes b;
	for (size_t i = 0; i + 1 < s.size(); i += 2)
		b.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
	return b;
}

std::string hex(const Bytes &b)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (uint8_t c : b) {
		s += digits[c >> 4];
		s += digits[c & 15];
	}
	return s.empty() ? "-" : s;
}

} // namespace

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
	for (std::string line; std::getline(std::cin, line);)
		std::cout << hex(pipe->process(unhex(line))) << std::endl;
	return 0;
}
