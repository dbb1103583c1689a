// SPDX-License-Identifier: GPL-2.0-or-later
//
// Whole-file reads and crash-safe replacement of files the admin tools
// edit (the configuration, the user database): a temporary file in the
// same directory, fsync, rename over the old one, fsync the directory.
// A reader sees the old file or the new one, never a mix.
#pragma once

#include <cerrno>
#include <optional>
#include <string>
#include <sys/types.h>
#include <system_error>

namespace smbsrv {

// what(): "cannot write /etc/smbsrv/smbsrv.conf: No space left on device".
class FileError : public std::system_error {
public:
	FileError(int err, const std::string &what)
		: std::system_error(err, std::generic_category(), what)
	{
	}
};

// The file's contents; std::nullopt if it does not exist.  Throws
// FileError for any other failure.
std::optional<std::string> read_file(const std::string &path);

// Replace (or create) path with data.  An existing file keeps its mode
// and owner; a new one gets `mode`.  With force_mode, the file gets `mode`
// whatever it had (the user database is 0600, always).  Throws FileError.
void write_file_atomic(const std::string &path, const std::string &data,
		       mode_t mode = 0644, bool force_mode = false);

// An exclusive lock on the directory holding path, so that two editors of
// files in it take turns (the files themselves are replaced by rename, so
// they cannot carry the lock).  Released when destroyed.
class DirLock {
public:
	explicit DirLock(const std::string &path);
	~DirLock();
	DirLock(const DirLock &) = delete;
	DirLock &operator=(const DirLock &) = delete;

private:
	int fd_ = -1;
};

} // namespace smbsrv
