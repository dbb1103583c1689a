// SPDX-License-Identifier: GPL-2.0-or-later
//
// Previous versions (vfs objects = shadow_copy2): where a share's
// snapshots are, by Samba's vfs_shadow_copy2 rules, for the module that
// lists and opens them.  A snapshot directory holds one directory per
// snapshot, named by shadow:format; the share root is found inside each at
// the share path's place below shadow:basedir (by default the file
// system's mount point, found as Samba finds it: the highest directory
// above the share on the same device).  A relative shadow:snapdir is taken
// from that mount point.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "params.hpp"

extern "C" {
#include "snap.h"
}

namespace smbsrv {

struct SnapConfig {
	std::string dir;    // the snapshot directory, absolute
	std::string subdir; // the share root inside a snapshot, relative or ""
	std::string format; // shadow:format
	uint32_t sort = 0;  // enum smbsrv_snap_sort
	// shadow:localtime: the server's time zone (local_zone()); empty for UTC.
	std::vector<smb_snap_zone> zone;
};

// The snapshots of the share at @path (absolute, no trailing '/') with
// parameters @p; nullopt with *why when they cannot be found (a path that
// does not exist, a basedir or mountpoint the share is not below).
std::optional<SnapConfig> shadow_copy_config(const ParamSet &p, const std::string &path,
					     std::string *why);

// The offsets from UTC of the time zone localtime(3) uses (TZ, else
// /etc/localtime) from 1970 to 2100, as shadow:localtime hands them to the
// module: one entry per change, to the second; at most SMB_SNAP_ZONE_MAX
// (the offset in force at the last one holds after it).  Worked out again
// only when TZ or /etc/localtime change.
std::vector<smb_snap_zone> local_zone();

// Samba's mount point of @path: the highest directory above it (or itself)
// on the same device; nullopt when a stat(2) on the way fails.
std::optional<std::string> find_mount_point(const std::string &path);

} // namespace smbsrv
