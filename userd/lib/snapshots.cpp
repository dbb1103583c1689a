// SPDX-License-Identifier: GPL-2.0-or-later
#include "snapshots.hpp"

#include <linux/smbsrv.h>
#include <sys/stat.h>

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

} // namespace

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
	return c;
}

} // namespace smbsrv
