// SPDX-License-Identifier: GPL-2.0-or-later
//
// Whole-file reads and crash-safe replacement of files the admin tools
// edit (the configuration, the user database): a temporary file in the
// same directory, fsync, rename over the old one, fsync the directory.
// A reader sees the old file or the new one, never a mix.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace smbsrv {

class FileError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// The file's contents; std::nullopt if it does not exist.  Throws
// FileError for any other failure.
std::optional<std::string> read_file(const std::string &path);

// Replace (or create) path with data.  An existing file keeps its mode
// and owner; a new one gets new_mode.  Throws FileError.
void write_file_atomic(const std::string &path, const std::string &data,
		       mode_t new_mode = 0644);

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
