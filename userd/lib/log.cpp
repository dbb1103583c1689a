// SPDX-License-Identifier: GPL-2.0-or-later
#include "log.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <mutex>
#include <sys/stat.h>
#include <syslog.h>

namespace smbsrv::log {

namespace {
std::mutex mu;
const char *g_ident = "smbsrv";
bool g_syslog = false;
bool g_journal = false;
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
	g_journal = !to_syslog && is_journal_stream(std::getenv("JOURNAL_STREAM"), 2);
	if (to_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

bool is_journal_stream(const char *journal_stream, int fd)
{
	if (!journal_stream)
		return false;
	std::string_view v(journal_stream);
	unsigned long long dev = 0, ino = 0;
	auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), dev);
	if (ec != std::errc() || p == v.data() + v.size() || *p != ':')
		return false;
	auto [q, ec2] = std::from_chars(p + 1, v.data() + v.size(), ino);
	struct stat st {};
	if (ec2 != std::errc() || q != v.data() + v.size() || q == p + 1 || fstat(fd, &st) != 0)
		return false;
	return static_cast<unsigned long long>(st.st_dev) == dev &&
	       static_cast<unsigned long long>(st.st_ino) == ino;
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
	else if (g_journal)
		std::fprintf(stderr, "<%d>%s%s\n", static_cast<int>(level), prefix(level),
			     msg.c_str());
	else
		std::fprintf(stderr, "%s: %s%s\n", g_ident, prefix(level),
			     msg.c_str());
}

} // namespace smbsrv::log
