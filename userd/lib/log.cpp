// SPDX-License-Identifier: GPL-2.0-or-later
#include "log.hpp"

#include <cstdio>
#include <mutex>
#include <syslog.h>

namespace smbsrv::log {

namespace {
std::mutex mu;
const char *g_ident = "smbsrv";
bool g_syslog = false;
Level g_level = Level::info;

const char *prefix(Level l)
{
	switch (l) {
	case Level::error: return "error: ";
	case Level::warning: return "warning: ";
	case Level::debug: return "debug: ";
	default: return "";
	}
}
} // namespace

void init(const char *ident, bool to_syslog, Level max_level)
{
	std::lock_guard lk(mu);
	g_ident = ident;
	g_syslog = to_syslog;
	g_level = max_level;
	if (to_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void set_level(Level max_level)
{
	std::lock_guard lk(mu);
	g_level = max_level;
}

void write(Level level, const std::string &msg)
{
	std::lock_guard lk(mu);
	if (static_cast<int>(level) > static_cast<int>(g_level))
		return;
	if (g_syslog)
		syslog(static_cast<int>(level), "%s", msg.c_str());
	else
		std::fprintf(stderr, "%s: %s%s\n", g_ident, prefix(level),
			     msg.c_str());
}

} // namespace smbsrv::log
