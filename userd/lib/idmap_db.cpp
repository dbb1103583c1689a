// SPDX-License-Identifier: GPL-2.0-or-later
#include "idmap_db.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <tdb.h>

namespace smbsrv {

namespace {

// Samba's record names.
constexpr const char *hwm_key[] = {"USER HWM", "GROUP HWM"};
constexpr const char *id_word[] = {"UID", "GID"};

int idx(IdmapDb::Kind k)
{
	return k == IdmapDb::Kind::uid ? 0 : 1;
}

// A C string with its terminating NUL as tdb keys and values are in
// Samba's files.
TDB_DATA tdb_key(const std::string &s)
{
	TDB_DATA d;
	d.dptr = reinterpret_cast<unsigned char *>(const_cast<char *>(s.c_str()));
	d.dsize = s.size() + 1;
	return d;
}

// The record at @key as a string (without the NUL); nullopt if none.
std::optional<std::string> fetch(tdb_context *tdb, const std::string &key)
{
	TDB_DATA v = tdb_fetch(tdb, tdb_key(key));
	if (!v.dptr)
		return std::nullopt;
	std::string s(reinterpret_cast<const char *>(v.dptr), v.dsize);
	std::free(v.dptr);
	while (!s.empty() && s.back() == '\0')
		s.pop_back();
	return s;
}

std::optional<uint32_t> parse_id(std::string_view v, IdmapDb::Kind kind)
{
	std::string_view w = id_word[idx(kind)];
	if (v.size() <= w.size() + 1 || v.substr(0, w.size()) != w || v[w.size()] != ' ')
		return std::nullopt;
	v.remove_prefix(w.size() + 1);
	uint32_t id = 0;
	auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), id);
	if (ec != std::errc() || end != v.data() + v.size())
		return std::nullopt;
	return id;
}

std::string id_str(uint32_t id, IdmapDb::Kind kind)
{
	return std::string(id_word[idx(kind)]) + " " + std::to_string(id);
}

int mkdirs(const std::string &dir)
{
	if (dir.empty())
		return 0;
	struct stat st {};
	if (stat(dir.c_str(), &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	size_t slash = dir.rfind('/');
	if (slash != std::string::npos && slash > 0)
		if (int e = mkdirs(dir.substr(0, slash)))
			return e;
	if (mkdir(dir.c_str(), 0755) < 0 && errno != EEXIST)
		return errno;
	return 0;
}

std::mutex registry_mu;
std::map<std::string, std::weak_ptr<IdmapDb>> registry;

} // namespace

std::shared_ptr<IdmapDb> IdmapDb::open(const std::string &path, std::string *why)
{
	std::lock_guard lock(registry_mu);
	if (auto db = registry[path].lock())
		return db;
	size_t slash = path.rfind('/');
	if (slash != std::string::npos && slash > 0) {
		if (int e = mkdirs(path.substr(0, slash))) {
			if (why)
				*why = "cannot make the directory of " + path + ": " + std::strerror(e);
			return nullptr;
		}
	}
	errno = 0;
	tdb_context *tdb = tdb_open(path.c_str(), 0, TDB_DEFAULT, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (!tdb) {
		if (why)
			*why = "cannot open " + path + ": " +
			       (errno ? std::strerror(errno) : "not a tdb file");
		return nullptr;
	}
	std::shared_ptr<IdmapDb> db(new IdmapDb(tdb, path));
	registry[path] = db;
	return db;
}

IdmapDb::~IdmapDb()
{
	tdb_close(tdb_);
}

std::optional<uint32_t> IdmapDb::stored(const Sid &sid, Kind kind)
{
	auto v = fetch(tdb_, sid.str());
	return v ? parse_id(*v, kind) : std::nullopt;
}

std::optional<uint32_t> IdmapDb::lookup(const Sid &sid, Kind kind)
{
	std::lock_guard lock(mu_);
	return stored(sid, kind);
}

bool IdmapDb::first_exhaustion(Kind kind)
{
	return !exhausted_logged_[idx(kind)].exchange(true);
}

IdmapDb::Answer IdmapDb::id(const Sid &sid, Kind kind, uint32_t low, uint32_t high)
{
	Answer a;
	std::lock_guard lock(mu_);
	// Most logons find their ids: no transaction (tdb reads lock the
	// record's chain themselves).
	if (auto have = stored(sid, kind); have && *have >= low && *have <= high) {
		a.id = have;
		return a;
	}
	if (tdb_transaction_start(tdb_) != 0) {
		a.error = std::string("cannot lock ") + path_ + ": " + tdb_errorstr(tdb_);
		return a;
	}
	auto fail = [&](const std::string &what) {
		a.error = what + " in " + path_ + ": " + tdb_errorstr(tdb_);
		tdb_transaction_cancel(tdb_);
		return a;
	};
	// Again under the transaction's lock: another process may have
	// allocated meanwhile.
	auto have = stored(sid, kind);
	if (have && *have >= low && *have <= high) {
		tdb_transaction_cancel(tdb_);
		a.id = have;
		return a;
	}
	std::string hk = hwm_key[idx(kind)];
	uint64_t next = low;
	TDB_DATA hv = tdb_fetch(tdb_, tdb_key(hk));
	if (hv.dptr) {
		if (hv.dsize == 4) {
			uint32_t v = static_cast<uint32_t>(hv.dptr[0]) |
				     static_cast<uint32_t>(hv.dptr[1]) << 8 |
				     static_cast<uint32_t>(hv.dptr[2]) << 16 |
				     static_cast<uint32_t>(hv.dptr[3]) << 24;
			next = std::max<uint64_t>(v, low);
		}
		std::free(hv.dptr);
	}
	// Skip ids a record already holds (written by another tool, or a
	// range moved back over old allocations).
	while (next <= high && tdb_exists(tdb_, tdb_key(id_str(static_cast<uint32_t>(next), kind))))
		next++;
	if (next > high) {
		tdb_transaction_cancel(tdb_);
		a.exhausted = true;
		return a;
	}
	auto id = static_cast<uint32_t>(next);
	std::string sk = sid.str(), ik = id_str(id, kind);
	uint32_t after = id + 1; // high <= 2^32-2: no wrap
	unsigned char le[4] = {static_cast<unsigned char>(after), static_cast<unsigned char>(after >> 8),
			       static_cast<unsigned char>(after >> 16),
			       static_cast<unsigned char>(after >> 24)};
	TDB_DATA hwm{le, sizeof(le)};
	// An id of an older range is given up: its record goes with it.
	if (have && tdb_delete(tdb_, tdb_key(id_str(*have, kind))) != 0)
		return fail("cannot delete " + id_str(*have, kind));
	if (tdb_store(tdb_, tdb_key(sk), tdb_key(ik), TDB_REPLACE) != 0)
		return fail("cannot store " + sk);
	if (tdb_store(tdb_, tdb_key(ik), tdb_key(sk), TDB_REPLACE) != 0)
		return fail("cannot store " + ik);
	if (tdb_store(tdb_, tdb_key(hk), hwm, TDB_REPLACE) != 0)
		return fail("cannot store " + hk);
	if (tdb_transaction_commit(tdb_) != 0) {
		a.error = "cannot commit " + sk + " -> " + ik + " to " + path_ + ": " +
			  tdb_errorstr(tdb_);
		return a;
	}
	exhausted_logged_[idx(kind)] = false;
	a.id = id;
	return a;
}

} // namespace smbsrv
