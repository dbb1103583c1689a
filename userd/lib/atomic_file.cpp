// SPDX-License-Identifier: GPL-2.0-or-later
#include "atomic_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace smbsrv {

namespace {

FileError error(const std::string &what, const std::string &path)
{
	return {errno, what + " " + path};
}

std::string dir_of(const std::string &path)
{
	size_t slash = path.rfind('/');
	if (slash == std::string::npos)
		return ".";
	return slash == 0 ? "/" : path.substr(0, slash);
}

class Fd {
public:
	explicit Fd(int fd) : fd_(fd) {}
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	[[nodiscard]] int get() const { return fd_; }
	int release()
	{
		int fd = fd_;
		fd_ = -1;
		return fd;
	}

private:
	int fd_;
};

} // namespace

std::optional<std::string> read_file(const std::string &path)
{
	Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
	if (fd.get() < 0) {
		if (errno == ENOENT)
			return std::nullopt;
		throw error("cannot open", path);
	}
	std::string data;
	char buf[65536];
	for (;;) {
		ssize_t n = read(fd.get(), buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw error("cannot read", path);
		}
		if (n == 0)
			break;
		data.append(buf, static_cast<size_t>(n));
	}
	return data;
}

void write_file_atomic(const std::string &path, const std::string &data,
		       mode_t mode, bool force_mode)
{
	struct stat old {};
	bool exists = stat(path.c_str(), &old) == 0;
	if (!exists && errno != ENOENT)
		throw error("cannot stat", path);

	std::string tmpl = path + ".XXXXXX";
	Fd fd(mkostemp(tmpl.data(), O_CLOEXEC));
	if (fd.get() < 0)
		throw error("cannot create a temporary file next to", path);
	auto fail = [&](const std::string &what) {
		int e = errno;
		unlink(tmpl.c_str());
		errno = e;
		throw error(what, path);
	};
	if (exists && !force_mode)
		mode = old.st_mode & 07777;
	if (fchmod(fd.get(), mode) < 0)
		fail("cannot set the mode for");
	if (exists && fchown(fd.get(), old.st_uid, old.st_gid) < 0 && errno != EPERM)
		fail("cannot set the owner for");
	size_t off = 0;
	while (off < data.size()) {
		ssize_t n = write(fd.get(), data.data() + off, data.size() - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("cannot write");
		}
		off += static_cast<size_t>(n);
	}
	if (fsync(fd.get()) < 0)
		fail("cannot sync");
	if (close(fd.release()) < 0)
		fail("cannot close");
	if (rename(tmpl.c_str(), path.c_str()) < 0)
		fail("cannot replace");
	// The rename itself must survive a crash too.
	Fd dir(open(dir_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (dir.get() >= 0)
		fsync(dir.get());
}

DirLock::DirLock(const std::string &path)
{
	std::string dir = dir_of(path);
	fd_ = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd_ < 0)
		throw error("cannot open directory", dir);
	while (flock(fd_, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		int e = errno;
		close(fd_);
		errno = e;
		throw error("cannot lock directory", dir);
	}
}

DirLock::~DirLock()
{
	if (fd_ >= 0)
		close(fd_);
}

} // namespace smbsrv
