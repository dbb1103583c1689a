// SPDX-License-Identifier: GPL-2.0-or-later
//
// Ids from "idmap config * : range": allocation, persistence across
// handles (a daemon restart), the range's bound, a changed range, and
// concurrent allocation by threads of one process and by two processes.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sys/wait.h>
#include <tdb.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "idmap_db.hpp"

using namespace smbsrv;
using K = IdmapDb::Kind;

namespace {

struct TmpDir {
	std::string path;
	TmpDir()
	{
		char tmpl[] = "/tmp/smbsrv-idmap.XXXXXX";
		REQUIRE(mkdtemp(tmpl));
		path = tmpl;
	}
	~TmpDir() { std::filesystem::remove_all(path); }
};

Sid sid(uint32_t rid)
{
	return *Sid::parse("S-1-5-21-11-22-33-" + std::to_string(rid));
}

std::shared_ptr<IdmapDb> open_db(const std::string &path)
{
	std::string why;
	auto db = IdmapDb::open(path, &why);
	INFO(why);
	REQUIRE(db);
	return db;
}

} // namespace

TEST_CASE("idmap * range: allocation, persistence, Samba's records", "[idmap]")
{
	TmpDir t;
	std::string path = t.path + "/sub/dir/idmap.tdb"; // directories made
	{
		auto db = open_db(path);
		CHECK(IdmapDb::open(path, nullptr) == db); // one handle per file
		CHECK(db->id(sid(1105), K::uid, 3000, 3999).id == 3000u);
		CHECK(db->id(sid(1106), K::uid, 3000, 3999).id == 3001u);
		CHECK(db->id(sid(1105), K::uid, 3000, 3999).id == 3000u);
		// Groups count apart from users, from the same range.
		CHECK(db->id(sid(513), K::gid, 3000, 3999).id == 3000u);
		CHECK(db->lookup(sid(1106), K::uid) == 3001u);
		CHECK_FALSE(db->lookup(sid(1106), K::gid)); // a uid, not a gid
		CHECK_FALSE(db->lookup(sid(9999), K::uid));
	}
	// The records, read with tdb itself: Samba's idmap_tdb layout.
	tdb_context *raw = tdb_open(path.c_str(), 0, TDB_DEFAULT, O_RDONLY, 0);
	REQUIRE(raw);
	auto get = [&](const std::string &k) {
		TDB_DATA key{reinterpret_cast<unsigned char *>(const_cast<char *>(k.c_str())), k.size() + 1};
		TDB_DATA v = tdb_fetch(raw, key);
		std::string s = v.dptr ? std::string(reinterpret_cast<char *>(v.dptr), v.dsize) : "";
		free(v.dptr);
		return s;
	};
	// Strings with their NUL, as Samba stores them.
	const char nul = '\0';
	CHECK(get("S-1-5-21-11-22-33-1105") == std::string("UID 3000") + nul);
	CHECK(get("UID 3001") == std::string("S-1-5-21-11-22-33-1106") + nul);
	CHECK(get("GID 3000") == std::string("S-1-5-21-11-22-33-513") + nul);
	// 3002, little-endian.
	CHECK(get("USER HWM") == std::string{'\xba', '\x0b', nul, nul});
	tdb_close(raw);

	// Opened again (the daemon restarted): the same ids, and the next
	// new one follows on.
	auto db = open_db(path);
	CHECK(db->id(sid(1106), K::uid, 3000, 3999).id == 3001u);
	CHECK(db->id(sid(1105), K::uid, 3000, 3999).id == 3000u);
	CHECK(db->id(sid(1107), K::uid, 3000, 3999).id == 3002u);
}

TEST_CASE("idmap * range: bounded, and a changed range", "[idmap]")
{
	TmpDir t;
	auto db = open_db(t.path + "/idmap.tdb");
	CHECK(db->id(sid(1), K::uid, 5000, 5001).id == 5000u);
	CHECK(db->id(sid(2), K::uid, 5000, 5001).id == 5001u);
	auto full = db->id(sid(3), K::uid, 5000, 5001);
	CHECK_FALSE(full.id);
	CHECK(full.exhausted);
	CHECK(full.error.empty());
	// Said once.
	CHECK(db->first_exhaustion(K::uid));
	CHECK_FALSE(db->first_exhaustion(K::uid));
	CHECK(db->id(sid(3), K::uid, 5000, 5001).exhausted);
	// Mapped SIDs still get theirs when the range is full.
	CHECK(db->id(sid(1), K::uid, 5000, 5001).id == 5000u);
	// The range widened: allocation goes on, and a later exhaustion is
	// said again.
	CHECK(db->id(sid(3), K::uid, 5000, 5002).id == 5002u);
	CHECK(db->first_exhaustion(K::uid));
	// The range moved: an id outside it is not used; a new one is
	// allocated, and the old one's record is gone.
	CHECK(db->id(sid(1), K::uid, 6000, 6999).id == 6000u);
	CHECK(db->lookup(sid(1), K::uid) == 6000u);
	CHECK(db->id(sid(2), K::uid, 5001, 6999).id == 5001u);
	// Allocation goes on from the high-water mark, as Samba's does.
	CHECK(db->id(sid(4), K::uid, 5000, 6999).id == 6001u);
}

TEST_CASE("idmap * range: concurrent threads and processes", "[idmap]")
{
	TmpDir t;
	std::string path = t.path + "/idmap.tdb";
	// Two processes (each its own handle, tdb's locks between them),
	// then four threads of this one, on overlapping SIDs.
	std::vector<pid_t> kids;
	// Nothing buffered to be written twice by the children.
	std::cout.flush();
	std::cerr.flush();
	std::fflush(nullptr);
	for (int k = 0; k < 2; k++) {
		// No assertion in the child: Catch would report it too.
		pid_t pid = fork();
		if (pid == 0) {
			std::string why;
			auto db = IdmapDb::open(path, &why);
			int bad = db ? 0 : 1;
			for (uint32_t r = 0; db && r < 60; r++)
				bad += db->id(sid(k == 0 ? r : 59 - r), K::uid, 10000, 10999).id ? 0 : 1;
			_exit(bad);
		}
		REQUIRE(pid > 0);
		kids.push_back(pid);
	}
	for (pid_t p : kids) {
		int st = 0;
		REQUIRE(waitpid(p, &st, 0) == p);
		CHECK(WIFEXITED(st));
		CHECK(WEXITSTATUS(st) == 0);
	}
	auto db = open_db(path);
	std::vector<std::map<uint32_t, uint32_t>> seen(4);
	std::vector<std::thread> threads;
	threads.reserve(4);
	for (int i = 0; i < 4; i++)
		threads.emplace_back([&, i] {
			for (uint32_t r = 30; r < 130; r++) {
				uint32_t rid = i % 2 ? 159 - r : r;
				if (auto id = db->id(sid(rid), K::uid, 10000, 10999).id)
					seen[i][rid] = *id;
			}
		});
	for (auto &th : threads)
		th.join();
	// Every SID one id, the same for every thread; no id twice.
	std::map<uint32_t, uint32_t> all;
	for (const auto &m : seen) {
		CHECK(m.size() == 100);
		for (auto [rid, id] : m) {
			auto [it, fresh] = all.emplace(rid, id);
			CHECK(it->second == id);
		}
	}
	for (uint32_t r = 0; r < 60; r++)
		all.emplace(r, *db->lookup(sid(r), K::uid));
	CHECK(all.size() == 130);
	std::set<uint32_t> ids;
	for (auto [rid, id] : all) {
		CHECK(id >= 10000);
		CHECK(id < 10130);
		ids.insert(id);
	}
	CHECK(ids.size() == 130);
}
