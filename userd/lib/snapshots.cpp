// SPDX-License-Identifier: GPL-2.0-or-later
#include "snapshots.hpp"

#include <linux/smbsrv.h>
#include <sys/stat.h>

#include <cstdlib>
#include <ctime>
#include <mutex>
#include <tuple>

namespace smbsrv {

namespace {

// Whether @path is @base or below it, component by component.
bool below(const std::string &path, const std::string &base)
{
	if (base == "/")
		return path.starts_with('/');
	return path == base || (path.starts_with(base) && path[base.size()] == '/');
}

// @path relative to @base (below(path, base)): "" for base itself.
std::string relative(const std::string &path, const std::string &base)
{
	if (path.size() <= base.size())
		return "";
	return path.substr(base == "/" ? 1 : base.size() + 1);
}

std::string strip_slashes(std::string s)
{
	while (s.size() > 1 && s.ends_with('/'))
		s.pop_back();
	return s;
}

long utc_offset(time_t t)
{
	struct tm tm {};
	localtime_r(&t, &tm);
	return tm.tm_gmtoff;
}

std::vector<smb_snap_zone> compute_zone()
{
	tzset();
	std::vector<smb_snap_zone> z{{0, static_cast<int>(utc_offset(0)), 0}};
	constexpr time_t step = 86400;
	constexpr time_t end = 4102444800; // 2100-01-01 00:00:00 UTC
	for (time_t t = step; t <= end && z.size() < SMB_SNAP_ZONE_MAX; t += step) {
		long off = utc_offset(t);
		if (off == z.back().off)
			continue;
		// The second it changed: the offset before it held at lo.
		time_t lo = t - step, hi = t;
		while (hi - lo > 1) {
			time_t mid = lo + (hi - lo) / 2;
			(utc_offset(mid) == z.back().off ? lo : hi) = mid;
		}
		z.push_back({static_cast<uint64_t>(hi), static_cast<int>(off), 0});
	}
	return z;
}

} // namespace

std::vector<smb_snap_zone> local_zone()
{
	// What the zone was worked out from: TZ and the zone file it names
	// or /etc/localtime (the link and the file it leads to).
	const char *env = std::getenv("TZ");
	std::string tz = env ? std::string("=") + env : "";
	struct stat st {};
	std::string file = "/etc/localtime";
	if (env && *env && *env != ':' && std::string(env).find('/') != std::string::npos)
		file = env;
	else if (env && *env == ':')
		file = env + 1;
	if (::lstat(file.c_str(), &st) == 0)
		tz += "|" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtime);
	if (::stat(file.c_str(), &st) == 0)
		tz += "|" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtime) +
		      ":" + std::to_string(st.st_size);

	static std::mutex lock;
	static std::string key;
	static std::vector<smb_snap_zone> zone;
	std::scoped_lock guard(lock);
	if (zone.empty() || key != tz) {
		zone = compute_zone();
		key = tz;
	}
	return zone;
}

std::optional<std::string> find_mount_point(const std::string &path)
{
	struct stat st {};
	if (::stat(path.c_str(), &st) != 0)
		return std::nullopt;
	dev_t dev = st.st_dev;
	std::string cur = path;
	while (cur != "/") {
		size_t slash = cur.rfind('/');
		std::string up = slash == 0 ? "/" : cur.substr(0, slash);
		if (::stat(up.c_str(), &st) != 0)
			return std::nullopt;
		if (st.st_dev != dev)
			break;
		cur = up;
	}
	return cur;
}

std::optional<SnapConfig> shadow_copy_config(const ParamSet &p, const std::string &path,
					     std::string *why)
{
	std::string mount = strip_slashes(p.str("shadow:mountpoint"));
	if (!mount.empty() && (!mount.starts_with('/') || !below(path, mount))) {
		*why = "shadow:mountpoint " + mount + " is not an absolute path above " + path;
		return std::nullopt;
	}
	if (mount.empty()) {
		auto m = find_mount_point(path);
		if (!m) {
			*why = "cannot stat " + path + " or a directory above it";
			return std::nullopt;
		}
		mount = *m;
	}
	std::string base = strip_slashes(p.str("shadow:basedir"));
	if (base.empty()) {
		base = mount;
	} else if (!base.starts_with('/') || !below(base, mount) || !below(path, base)) {
		*why = "shadow:basedir " + base + " is not an absolute path between " +
		       mount + " and " + path;
		return std::nullopt;
	}
	SnapConfig c;
	std::string dir = strip_slashes(p.str("shadow:snapdir"));
	if (dir.empty()) {
		*why = "shadow:snapdir is empty";
		return std::nullopt;
	}
	c.dir = dir.starts_with('/') ? dir : (mount == "/" ? "" : mount) + "/" + dir;
	c.subdir = relative(path, base);
	c.format = p.str("shadow:format");
	const std::string &sort = p.str("shadow:sort");
	// Samba sorts for "asc" and "desc" and leaves any other value unsorted.
	c.sort = sort == "asc"	  ? SMBSRV_SNAP_SORT_ASC
		 : sort == "desc" ? SMBSRV_SNAP_SORT_DESC
				  : SMBSRV_SNAP_SORT_UNSORTED;
	if (p.boolean("shadow:localtime"))
		c.zone = local_zone();
	return c;
}

} // namespace smbsrv
