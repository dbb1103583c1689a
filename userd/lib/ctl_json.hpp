// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl -j: what status, sessions, connections, opens, share list/show
// and stats print, as JSON (the schema is Documentation/admin-guide.md's
// "Machine-readable output").  Keys are only ever added, never renamed or
// retyped; a value that does not apply is null, never a missing key.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "ctl_netlink.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv {

// Everything `smbsrvctl stats` shows, read once.
struct StatsSnapshot {
	ServerStatus status;
	std::vector<QueueInfo> queues;
	ReadStats read;
	WriteStats write;
	ServerCounters counters;
};

StatsSnapshot read_stats_snapshot(GenlChannel &nl);

// Each returns one JSON text without a final newline; pretty: indented
// by two blanks, else on one line.
std::string status_json(const ServerStatus &st, bool pretty);
std::string sessions_json(const std::vector<SessionInfo> &list, bool pretty);
std::string connections_json(const std::vector<ConnectionInfo> &list, bool pretty);
std::string opens_json(const std::vector<OpenInfo> &list, bool pretty);
// The configuration's shares with their tree connects now (uses: nullopt
// when the module could not be asked).
std::string shares_json(const Config &cfg, const std::optional<std::vector<ShareUse>> &uses,
			bool pretty);
// One share's effective parameters (with defaults when all).
std::string share_json(const ShareConfig &share, bool all, bool pretty);
std::string stats_json(const StatsSnapshot &s, bool pretty);

} // namespace smbsrv
