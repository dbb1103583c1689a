// SPDX-License-Identifier: GPL-2.0-or-later
#include "daemon_ctl.hpp"

#include <cerrno>
#include <cstdlib>
#include <csignal>

#include "atomic_file.hpp"
#include "config.hpp"

namespace smbsrv {

bool process_is(pid_t pid, const std::string &comm)
{
	if (pid <= 0)
		return false;
	std::optional<std::string> c;
	try {
		c = read_file("/proc/" + std::to_string(pid) + "/comm");
	} catch (const FileError &) {
		return false;
	}
	return c && trim(c->substr(0, c->find('\n'))) == comm;
}

std::optional<pid_t> daemon_pid(const std::string &pidfile, const std::string &comm)
{
	std::optional<std::string> text;
	try {
		text = read_file(pidfile);
	} catch (const FileError &) {
		return std::nullopt;
	}
	if (!text)
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	long v = std::strtol(text->c_str(), &end, 10);
	if (errno || end == text->c_str() || v <= 0 || v > 0x3fffffff)
		return std::nullopt;
	auto pid = static_cast<pid_t>(v);
	if (!process_is(pid, comm))
		return std::nullopt;
	return pid;
}

} // namespace smbsrv
