// SPDX-License-Identifier: GPL-2.0-or-later
//
// The user database, in ksmbdpwd.db(5) format: one "user:base64(NT hash)"
// per line, where the NT hash is MD4 of the UTF-16LE password.  An
// unmodified ksmbdpwd.db works.  Writes are atomic (temporary file in the
// same directory, fsync, rename) and leave the file mode 0600.
#pragma once

#include <array>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"

namespace smbsrv {

using NtHash = std::array<uint8_t, 16>;

// MD4(UTF-16LE(password)); nullopt if password is not valid UTF-8.
std::optional<NtHash> nt_hash(std::string_view password);

// What ksmbdpwd.db(5) allows: a UTF-8 user name of 1 to 47 bytes without
// ':' or a newline, and a UTF-8 password of at most 128 bytes.  Return ""
// when fine, else why not.
std::string check_user_name(std::string_view name);
std::string check_password(std::string_view password);

struct UserEntry {
	std::string name;
	NtHash hash{};
};

class UserDb {
public:
	// Parse a database's text.  Malformed lines are reported (file:line)
	// and skipped; a repeated user keeps its first entry, as ksmbd does.
	static UserDb parse(std::string_view text, const std::string &file,
			    Diagnostics &diags);
	// Read a file.  A missing file is an empty database (and no error);
	// an unreadable one is an error in diags.
	static UserDb load(const std::string &path, Diagnostics &diags);

	// Exact name first; otherwise the one entry equal ignoring case
	// (Windows clients do not preserve the case an admin typed).
	[[nodiscard]] const UserEntry *find(std::string_view name) const;
	// Add a user or replace its hash.
	void set(std::string_view name, const NtHash &hash);
	// false if there was no such user (exact name).
	bool remove(std::string_view name);
	[[nodiscard]] const std::vector<UserEntry> &users() const { return users_; }

	[[nodiscard]] std::string serialize() const;
	// Atomically replace path with this database, mode 0600 (atomic_file.hpp);
	// throws FileError, a std::system_error.
	void save(const std::string &path) const;

private:
	std::vector<UserEntry> users_;
};

// The database file as the daemon sees it: current() re-reads the file
// whenever it changed (another inode after a rename, or another size,
// mtime or ctime), so that a removed or re-passworded user loses new
// logons at once without a reload.
class UserDbFile {
public:
	explicit UserDbFile(std::string path) : path_(std::move(path)) {}
	// The database as the file is now (read again when it changed).  The
	// reference is good until the next call: single-threaded use only.
	const UserDb &current();
	// One user of the database as the file is now; safe from any thread.
	std::optional<UserEntry> find(const std::string &name);
	[[nodiscard]] const std::string &path() const { return path_; }

private:
	struct Stamp {
		bool exists = false;
		dev_t dev = 0;
		ino_t ino = 0;
		off_t size = 0;
		timespec mtime{}, ctime{};
		bool operator==(const Stamp &o) const;
	};
	std::string path_;
	std::mutex mu_; // find() against find()
	std::optional<Stamp> stamp_;
	UserDb db_;
};

} // namespace smbsrv
