// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/snap.c: @GMT tokens, shadow:format names, TWrp, SRV_SNAPSHOT_ARRAY.
#include <catch2/catch.hpp>

#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "wire_util.hpp"

extern "C" {
#include "snap.h"
}

using namespace wiretest;

namespace {

// The libc's answer, to check the calendar against.
std::string libc_name(const char *fmt, u64 t)
{
	auto tt = static_cast<time_t>(t);
	struct tm tm {};
	gmtime_r(&tt, &tm);
	char buf[256];
	size_t n = strftime(buf, sizeof(buf), fmt, &tm);
	return {buf, n};
}

std::string name(const char *fmt, u64 t)
{
	char buf[SMB_SNAP_NAME_MAX + 1];
	int n = smb_snap_name(fmt, t, buf, sizeof(buf));
	if (n < 0)
		return "error " + std::to_string(n);
	REQUIRE(static_cast<size_t>(n) == strlen(buf));
	return buf;
}

int parse(const char *fmt, const std::string &s, u64 *t)
{
	return smb_snap_parse(fmt, s.data(), static_cast<u32>(s.size()), t);
}

std::string strip(std::string path, u64 *t, int *found)
{
	path.push_back('\0');
	*found = smb_gmt_strip(path.data(), t);
	return path.substr(0, path.find('\0'));
}

std::string utf16le_to_ascii(const uint8_t *p, size_t chars)
{
	std::string s;
	for (size_t i = 0; i < chars; i++)
		s.push_back(static_cast<char>(p[2 * i] | p[2 * i + 1] << 8));
	return s;
}

} // namespace

TEST_CASE("snapshot formats are checked", "[wire][snap]")
{
	CHECK(smb_snap_format_check("@GMT-%Y.%m.%d-%H.%M.%S") == 0);
	CHECK(smb_snap_format_check("snap_%F_%T") == 0);
	CHECK(smb_snap_format_check("%s") == 0);
	CHECK(smb_snap_format_check("daily-%y%j-%H%M%S") == 0);
	CHECK(smb_snap_format_check("100%% %Y%m%d%H%M%S") == 0);
	// A day at least; the time of day may be left out (it is 0 then).
	CHECK(smb_snap_format_check("%Y.%m.%d") == 0);
	CHECK(smb_snap_format_check("auto-%Y-%m-%d-%H%M") == 0);
	CHECK(smb_snap_format_check("%Y.%m-%H.%M.%S") == -EINVAL);
	CHECK(smb_snap_format_check("%m.%d-%H.%M.%S") == -EINVAL);
	CHECK(smb_snap_format_check("plain") == -EINVAL);
	CHECK(smb_snap_format_check("") == -EINVAL);
	// No '/', no conversion smbsrv does not know, no field twice.
	CHECK(smb_snap_format_check("%Y/%m/%d-%H.%M.%S") == -EINVAL);
	CHECK(smb_snap_format_check("%F-%T/x") == -EINVAL);
	CHECK(smb_snap_format_check("%F-%T-%a") == -EINVAL);
	CHECK(smb_snap_format_check("%F-%T-%Y") == -EINVAL);
	CHECK(smb_snap_format_check("%s%s") == -EINVAL);
	// Nothing that reads as a digit right after %s (the fuzzer's find).
	CHECK(smb_snap_format_check("%s%H.%M.%S") == -EINVAL);
	CHECK(smb_snap_format_check("%s0") == -EINVAL);
	CHECK(smb_snap_format_check("%s-%H") == 0);
	CHECK(smb_snap_format_check("%Y.%m%y%d.%S") == -EINVAL);
	CHECK(smb_snap_format_check("%F-%T%") == -EINVAL);
	CHECK(smb_snap_format_check(std::string(200, 'a').append("%s").c_str()) ==
	      -EINVAL);
}

TEST_CASE("snapshot names are what strftime writes", "[wire][snap]")
{
	const char *fmts[] = {
		"@GMT-%Y.%m.%d-%H.%M.%S", "snap_%F_%T", "%s", "x%y%j%H%M%S",
		"%Y%m%d%H%M%S%%",
	};
	const u64 times[] = {
		0, 1, 59, 86399, 86400, 951782400 /* 2000-02-29 */,
		951868799, 1700000000, 4107542400 /* 2100-03-01 */,
		2147483647, 2147483648, SMB_SNAP_TIME_MAX,
	};
	for (const char *f : fmts)
		for (u64 t : times) {
			INFO(f << " " << t);
			// %y names 1969-2068 only: later times have no name.
			if (std::string(f).find("%y") != std::string::npos &&
			    t >= 3124137600) {
				CHECK(name(f, t) == "error -22");
				continue;
			}
			CHECK(name(f, t) == libc_name(f, t));
			u64 back = 0;
			CHECK(parse(f, name(f, t), &back) == 0);
			CHECK(back == t);
		}
	// Every day of four years through a leap year and a century.
	for (u64 t = 946684800 - 86400 * 3; t < 946684800 + 86400 * 1500;
	     t += 86400 + 3661) {
		INFO(t);
		CHECK(name("%F %T %j", t) == libc_name("%F %T %j", t));
		u64 back = 0;
		CHECK(parse("%F %T %j", libc_name("%F %T %j", t), &back) == 0);
		CHECK(back == t);
	}
	CHECK(name("%s", SMB_SNAP_TIME_MAX + 1) == "error -22");
	char small[8];
	CHECK(smb_snap_name("%Y%m%d%H%M%S", 0, small, sizeof(small)) ==
	      -ENAMETOOLONG);
	CHECK(smb_snap_name("%Y.%m.%d-%H.%M.%S", 0, small, 0) == -EINVAL);
}

TEST_CASE("snapshot names parse strictly", "[wire][snap]")
{
	const char *gmt = "@GMT-%Y.%m.%d-%H.%M.%S";
	u64 t = 7;

	CHECK(parse(gmt, "@GMT-2024.01.02-03.04.05", &t) == 0);
	CHECK(t == 1704164645);
	// Not the one name of a time: no lenient widths, no rolled dates.
	CHECK(parse(gmt, "@GMT-2024.1.02-03.04.05", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.02.30-03.04.05", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2023.02.29-00.00.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.02.29-00.00.00", &t) == 0);
	CHECK(parse(gmt, "@GMT-2024.13.01-00.00.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.00.01-00.00.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-24.00.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-23.60.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-23.59.60", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-1969.12.31-23.59.59", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-00.00.00x", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-00.00.0", &t) == -EINVAL);
	CHECK(parse(gmt, "@gmt-2024.01.01-00.00.00", &t) == -EINVAL);
	CHECK(parse(gmt, "@GMT-2024.01.01-00.00.+0", &t) == -EINVAL);
	CHECK(parse(gmt, "", &t) == -EINVAL);
	CHECK(parse("%s", "0", &t) == 0);
	CHECK(t == 0);
	CHECK(parse("%s", "01", &t) == -EINVAL);
	CHECK(parse("%s", "253402300800", &t) == -EINVAL);
	CHECK(parse("%s", "9999999999999", &t) == -EINVAL);
	CHECK(parse("snap-%s.d", "snap-1700000000.d", &t) == 0);
	CHECK(t == 1700000000);
	// %s and the calendar fields must agree.
	CHECK(parse("%s-%Y", "0-1970", &t) == 0);
	CHECK(parse("%s-%Y", "0-1971", &t) == -EINVAL);
	// %j alone names the day.
	CHECK(parse("%Y-%j %T", "2024-366 00:00:00", &t) == 0);
	CHECK(t == 1735603200);
	CHECK(parse("%Y-%j %T", "2023-366 00:00:00", &t) == -EINVAL);
	CHECK(parse("%Y-%j %T", "2023-000 00:00:00", &t) == -EINVAL);
	// %j with %m but no %d: %j names the day, %m must agree.
	CHECK(parse("%j-%Y.%m", "032-2024.02", &t) == 0);
	CHECK(t == 1706745600);
	CHECK(parse("%j-%Y.%m", "032-2024.01", &t) == -EINVAL);
	// Minutes only: the snapshot of every second of that minute.
	CHECK(parse("auto-%Y-%m-%d-%H%M", "auto-2024-01-02-0304", &t) == 0);
	CHECK(t == 1704164640);
	CHECK(name("auto-%Y-%m-%d-%H%M", 1704164645) == "auto-2024-01-02-0304");
	// A format that is not one is no help.
	CHECK(parse("%Y", "2024", &t) == -EINVAL);
	CHECK(parse(gmt, std::string(300, '1'), &t) == -EINVAL);
}

TEST_CASE("@GMT tokens", "[wire][snap]")
{
	u64 t = 0;
	char tok[SMB_GMT_TOKEN_LEN + 1];

	CHECK(smb_gmt_token_parse("@GMT-2024.01.02-03.04.05", 24, &t) == 0);
	CHECK(t == 1704164645);
	smb_gmt_token(t, tok);
	CHECK(std::string(tok) == "@GMT-2024.01.02-03.04.05");
	CHECK(smb_gmt_token_parse("@GMT-2024.01.02-03.04.05", 23, &t) ==
	      -EINVAL);
	CHECK(smb_gmt_token_parse("@GMT-2024.01.02-03.04.05/", 25, &t) ==
	      -EINVAL);
	smb_gmt_token(0, tok);
	CHECK(std::string(tok) == "@GMT-1970.01.01-00.00.00");
	smb_gmt_token(SMB_SNAP_TIME_MAX, tok);
	CHECK(std::string(tok) == "@GMT-9999.12.31-23.59.59");
}

TEST_CASE("@GMT tokens come out of paths", "[wire][snap]")
{
	const std::string tok = "@GMT-2024.01.02-03.04.05";
	u64 t = 0;
	int found = -1;

	CHECK(strip(tok, &t, &found).empty());
	CHECK(found == 1);
	CHECK(t == 1704164645);
	CHECK(strip(tok + "/dir/file", &t, &found) == "dir/file");
	CHECK(found == 1);
	CHECK(strip("dir/" + tok + "/file", &t, &found) == "dir/file");
	CHECK(found == 1);
	CHECK(strip("dir/sub/" + tok, &t, &found) == "dir/sub");
	CHECK(found == 1);
	// Only the first; a second stays an ordinary name.
	CHECK(strip(tok + "/" + tok, &t, &found) == tok);
	CHECK(found == 1);
	// Not a whole component, or not a valid token: ordinary names.
	t = 0;
	CHECK(strip("dir/x" + tok + "/file", &t, &found) == "dir/x" + tok + "/file");
	CHECK(found == 0);
	CHECK(strip(tok + "x/file", &t, &found) == tok + "x/file");
	CHECK(found == 0);
	CHECK(strip("@GMT-2024.13.02-03.04.05/f", &t, &found) ==
	      "@GMT-2024.13.02-03.04.05/f");
	CHECK(found == 0);
	CHECK(strip("@GMT-/f", &t, &found) == "@GMT-/f");
	CHECK(found == 0);
	// The first "@GMT-" decides, as Samba's search does.
	CHECK(strip("a@GMT-/" + tok, &t, &found) == "a@GMT-/" + tok);
	CHECK(found == 0);
	CHECK(t == 0);
	CHECK(strip("", &t, &found).empty());
	CHECK(found == 0);
	CHECK(strip("dir/file", &t, &found) == "dir/file");
	CHECK(found == 0);
}

TEST_CASE("TWrp carries a FILETIME", "[wire][snap]")
{
	Bytes b;
	u64 t = 0;

	put64(b, 0, 116444736000000000ULL + 1704164645ULL * 10000000ULL + 9999999);
	CHECK(smb_twrp_decode(b.data(), 8, &t) == 0);
	CHECK(t == 1704164645);
	CHECK(smb_twrp_decode(b.data(), 7, &t) == -EINVAL);
	CHECK(smb_twrp_decode(nullptr, 0, &t) == -EINVAL);
	put64(b, 0, 116444736000000000ULL - 1);
	CHECK(smb_twrp_decode(b.data(), 8, &t) == -ERANGE);
	put64(b, 0, ~0ULL);
	CHECK(smb_twrp_decode(b.data(), 8, &t) == -ERANGE);
	put64(b, 0, 116444736000000000ULL);
	CHECK(smb_twrp_decode(b.data(), 16, &t) == 0);
	CHECK(t == 0);
}

TEST_CASE("SRV_SNAPSHOT_ARRAY and its two calls", "[wire][snap]")
{
	const u64 times[] = {1704164645, 0};
	const uint32_t full = 12 + 2 * 50 + 2;
	std::vector<uint8_t> out(4096, 0xaa);
	Bytes b;

	CHECK(smb_snap_array_size(0) == 2);
	CHECK(smb_snap_array_size(2) == 102);

	// The first call: room for the counts only.
	CHECK(smb_snap_array_encode(out.data(), 16, times, 2) == 16);
	b.assign(out.begin(), out.begin() + 16);
	CHECK(get32(b, 0) == 2);
	CHECK(get32(b, 4) == 0);
	CHECK(get32(b, 8) == 102);
	CHECK(get32(b, 12) == 0);
	CHECK(out[16] == 0xaa);

	// One byte short is still too small.
	std::fill(out.begin(), out.end(), 0xaa);
	CHECK(smb_snap_array_encode(out.data(), full - 1, times, 2) == 16);
	CHECK(out[16] == 0xaa);

	// The second: everything.
	std::fill(out.begin(), out.end(), 0xaa);
	CHECK(smb_snap_array_encode(out.data(), full, times, 2) == full);
	b.assign(out.begin(), out.begin() + full);
	CHECK(get32(b, 0) == 2);
	CHECK(get32(b, 4) == 2);
	CHECK(get32(b, 8) == 102);
	CHECK(utf16le_to_ascii(out.data() + 12, 25) ==
	      std::string("@GMT-2024.01.02-03.04.05") + '\0');
	CHECK(utf16le_to_ascii(out.data() + 62, 25) ==
	      std::string("@GMT-1970.01.01-00.00.00") + '\0');
	CHECK(get16(b, full - 2) == 0);
	CHECK(out[full] == 0xaa);

	// None: the final NUL alone.
	std::fill(out.begin(), out.end(), 0xaa);
	CHECK(smb_snap_array_encode(out.data(), 16, times, 0) == 14);
	b.assign(out.begin(), out.begin() + 14);
	CHECK(get32(b, 0) == 0);
	CHECK(get32(b, 4) == 0);
	CHECK(get32(b, 8) == 2);
	CHECK(get16(b, 12) == 0);
	CHECK(out[14] == 0xaa);
}

namespace {

// Central European time in 2024: +1, +2 from 31 March 01:00 UTC, +1 again
// from 27 October 01:00 UTC.
const smb_snap_zone berlin_2024[] = {
	{0, 3600, 0},
	{1711846800, 7200, 0},
	{1729990800, 3600, 0},
};

std::string name_in(const char *fmt, const smb_snap_zone *z, u32 n, u64 t)
{
	char buf[SMB_SNAP_NAME_MAX + 1];
	int r = smb_snap_name_in(fmt, z, n, t, buf, sizeof(buf));
	return r < 0 ? "error " + std::to_string(r) : std::string(buf);
}

int parse_in(const char *fmt, const smb_snap_zone *z, u32 n, const std::string &s, u64 *t)
{
	return smb_snap_parse_in(fmt, z, n, s.data(), static_cast<u32>(s.size()), t);
}

} // namespace

TEST_CASE("zones are checked", "[wire][snap]")
{
	CHECK(smb_snap_zone_check(berlin_2024, 3) == 0);
	CHECK(smb_snap_zone_check(berlin_2024, 0) == -EINVAL);
	CHECK(smb_snap_zone_check(berlin_2024 + 1, 2) == -EINVAL); // not from 0
	smb_snap_zone z[3] = {berlin_2024[0], berlin_2024[1], berlin_2024[2]};
	z[2].from = z[1].from;
	CHECK(smb_snap_zone_check(z, 3) == -EINVAL); // not later
	z[2] = berlin_2024[2];
	z[1].off = SMB_SNAP_ZONE_OFF_MAX + 1;
	CHECK(smb_snap_zone_check(z, 3) == -EINVAL);
	z[1].off = -SMB_SNAP_ZONE_OFF_MAX;
	CHECK(smb_snap_zone_check(z, 3) == 0);
	z[1].pad = 1;
	CHECK(smb_snap_zone_check(z, 3) == -EINVAL);
	std::vector<smb_snap_zone> big(SMB_SNAP_ZONE_MAX + 1);
	for (size_t i = 0; i < big.size(); i++)
		big[i] = {i * 1000, 0, 0};
	CHECK(smb_snap_zone_check(big.data(), SMB_SNAP_ZONE_MAX) == 0);
	CHECK(smb_snap_zone_check(big.data(), SMB_SNAP_ZONE_MAX + 1) == -EINVAL);
}

TEST_CASE("snapshot names in local time", "[wire][snap]")
{
	const char *fmt = "@GMT-%Y.%m.%d-%H.%M.%S";
	const u32 n = 3;
	u64 t = 0;

	// Winter: 11:00 UTC is 12:00 local; summer: 10:00 UTC is 12:00.
	CHECK(name_in(fmt, berlin_2024, n, 1705316400) == "@GMT-2024.01.15-12.00.00");
	CHECK(name_in(fmt, berlin_2024, n, 1721037600) == "@GMT-2024.07.15-12.00.00");
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-2024.01.15-12.00.00", &t) == 0);
	CHECK(t == 1705316400);
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-2024.07.15-12.00.00", &t) == 0);
	CHECK(t == 1721037600);
	// No zone: UTC, as smb_snap_name() and smb_snap_parse().
	CHECK(name_in(fmt, berlin_2024, 0, 1705316400) == "@GMT-2024.01.15-11.00.00");
	REQUIRE(parse_in(fmt, nullptr, 0, "@GMT-2024.01.15-11.00.00", &t) == 0);
	CHECK(t == 1705316400);

	// The hour the clocks skip names nothing: 02:30 on 31 March.
	CHECK(parse_in(fmt, berlin_2024, n, "@GMT-2024.03.31-02.30.00", &t) == -EINVAL);
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-2024.03.31-03.00.00", &t) == 0);
	CHECK(t == 1711846800);
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-2024.03.31-01.59.59", &t) == 0);
	CHECK(t == 1711846799);

	// The hour they have twice: 02:30 on 27 October is 00:30 and 01:30 UTC;
	// both name it, it parses to one of them, whose name it is.
	CHECK(name_in(fmt, berlin_2024, n, 1729989000) == "@GMT-2024.10.27-02.30.00");
	CHECK(name_in(fmt, berlin_2024, n, 1729992600) == "@GMT-2024.10.27-02.30.00");
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-2024.10.27-02.30.00", &t) == 0);
	CHECK((t == 1729989000 || t == 1729992600));
	CHECK(name_in(fmt, berlin_2024, n, t) == "@GMT-2024.10.27-02.30.00");

	// Every name a time gets parses back to a time with that name.
	for (u64 s = 1711800000; s < 1730050000; s += 1799) {
		std::string nm = name_in(fmt, berlin_2024, n, s);
		REQUIRE(parse_in(fmt, berlin_2024, n, nm, &t) == 0);
		REQUIRE(name_in(fmt, berlin_2024, n, t) == nm);
	}

	// %s counts UTC seconds whatever the zone.
	CHECK(name_in("%s", berlin_2024, n, 1705316400) == "1705316400");
	REQUIRE(parse_in("%s", berlin_2024, n, "1705316400", &t) == 0);
	CHECK(t == 1705316400);

	// The edges: local times before 1970 or after 9999 name nothing.
	CHECK(name_in(fmt, berlin_2024, n, SMB_SNAP_TIME_MAX).rfind("error", 0) == 0);
	CHECK(parse_in(fmt, berlin_2024, n, "@GMT-1970.01.01-00.30.00", &t) == -EINVAL);
	REQUIRE(parse_in(fmt, berlin_2024, n, "@GMT-1970.01.01-01.00.00", &t) == 0);
	CHECK(t == 0);
	const smb_snap_zone west[] = {{0, -5 * 3600, 0}};
	CHECK(name_in(fmt, west, 1, 3600).rfind("error", 0) == 0);
	CHECK(name_in(fmt, west, 1, 5ULL * 3600) == "@GMT-1970.01.01-00.00.00");
	REQUIRE(parse_in(fmt, west, 1, "@GMT-9999.12.31-23.59.59", &t) == -EINVAL);
}
