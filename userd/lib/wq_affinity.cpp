// SPDX-License-Identifier: GPL-2.0-or-later
#include "wq_affinity.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace smbsrv {

namespace {

// A sysfs attribute takes one write (O_TRUNC as a shell's > does, so a
// plain file in the unit tests reads back the same); "" or an error.
std::string write_attr(const std::string &path, const std::string &value)
{
	int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return "cannot open " + path + ": " + std::strerror(errno);
	ssize_t n = ::write(fd, value.data(), value.size());
	int err = errno;
	::close(fd);
	if (n != static_cast<ssize_t>(value.size()))
		return "cannot write '" + value.substr(0, value.size() - 1) + "' to " + path +
		       ": " + std::strerror(n < 0 ? err : EIO);
	return {};
}

} // namespace

std::vector<std::string> tune_unbound_queues(const std::vector<QueueInfo> &qs,
					     const std::string &sysfs)
{
	std::vector<std::string> problems;
	for (const auto &q : qs) {
		// A name from the module becomes a path: nothing but a plain name.
		if (!q.unbound)
			continue;
		if (q.name.empty() || q.name.find('/') != std::string::npos || q.name == "." ||
		    q.name == "..") {
			problems.push_back("unbound queue with an unusable name '" + q.name + "'");
			continue;
		}
		std::string dir = sysfs + "/" + q.name + "/";
		for (const auto &[attr, value] :
		     {std::pair<const char *, const char *>{"affinity_scope", "cpu\n"},
		      {"affinity_strict", "0\n"}}) {
			std::string e = write_attr(dir + attr, value);
			if (!e.empty())
				problems.push_back(e);
		}
	}
	return problems;
}

} // namespace smbsrv
