// SPDX-License-Identifier: GPL-2.0-or-later
//
// Ids allocated from "idmap config * : range" (Samba's default tdb
// backend): a SID of a domain without a rid line gets the next free uid
// (or gid) of the range the first time it is seen, and keeps it. The
// mappings live in a tdb file (Samba's trivial database, libtdb) laid out
// as Samba's idmap_tdb lays out its own:
//
//   "S-1-5-21-...-1105\0" -> "UID 3000\0"    and back
//   "UID 3000\0"          -> "S-1-5-21-...-1105\0"
//   "USER HWM\0", "GROUP HWM\0" -> the next id to try (int32, LE)
//
// Each allocation is one tdb transaction (fsync'd, all or nothing; tdb's
// fcntl locks order it against other processes using the file), and a
// mutex serialises this process' threads on the one handle.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "sid.hpp"

struct tdb_context;

namespace smbsrv {

class IdmapDb {
public:
	enum class Kind { uid, gid };
	struct Answer {
		std::optional<uint32_t> id;
		// No id because every id of the range is taken.
		bool exhausted = false;
		// No id because the database failed (why, for the log).
		std::string error;
	};

	// The database at @path, created (with its directory) when missing;
	// one handle per file in this process (tdb refuses a second open of
	// a file by one process), shared by every caller.  Null with *why
	// when it cannot be opened.
	static std::shared_ptr<IdmapDb> open(const std::string &path, std::string *why);
	~IdmapDb();
	IdmapDb(const IdmapDb &) = delete;
	IdmapDb &operator=(const IdmapDb &) = delete;

	// @sid's id of @kind, allocated from [low, high] when it has none (or
	// its stored one lies outside the range: the range was changed).
	// Thread-safe.
	Answer id(const Sid &sid, Kind kind, uint32_t low, uint32_t high);
	// The stored id without allocating (tests, tools).
	std::optional<uint32_t> lookup(const Sid &sid, Kind kind);

	// True the first time it is called after the range of @kind ran out,
	// so that exhaustion is logged once (again after an allocation has
	// succeeded since).
	bool first_exhaustion(Kind kind);

	[[nodiscard]] const std::string &path() const { return path_; }

private:
	IdmapDb(tdb_context *tdb, std::string path) : tdb_(tdb), path_(std::move(path)) {}
	std::optional<uint32_t> stored(const Sid &sid, Kind kind);

	std::mutex mu_;
	tdb_context *tdb_;
	std::string path_;
	std::atomic<bool> exhausted_logged_[2] = {false, false};
};

} // namespace smbsrv
