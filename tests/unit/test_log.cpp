// SPDX-License-Identifier: GPL-2.0-or-later
// The journal's stream is recognised by $JOURNAL_STREAM, nothing else.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "log.hpp"

using namespace smbsrv;

TEST_CASE("log: stderr is the journal only when JOURNAL_STREAM names it")
{
	FILE *f = std::tmpfile();
	REQUIRE(f != nullptr);
	int fd = fileno(f);
	struct stat st {};
	REQUIRE(fstat(fd, &st) == 0);
	std::string dev = std::to_string(st.st_dev), ino = std::to_string(st.st_ino);
	CHECK(log::is_journal_stream((dev + ":" + ino).c_str(), fd));
	CHECK_FALSE(log::is_journal_stream(nullptr, fd));
	CHECK_FALSE(log::is_journal_stream("", fd));
	CHECK_FALSE(log::is_journal_stream((dev + ":" + std::to_string(st.st_ino + 1)).c_str(),
					   fd));
	CHECK_FALSE(log::is_journal_stream((dev + ":").c_str(), fd));
	CHECK_FALSE(log::is_journal_stream((dev + ":" + ino + "x").c_str(), fd));
	CHECK_FALSE(log::is_journal_stream((dev + ino).c_str(), fd));
	CHECK_FALSE(log::is_journal_stream((dev + ":" + ino).c_str(), -1));
	std::fclose(f);
}
