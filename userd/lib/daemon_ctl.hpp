// SPDX-License-Identifier: GPL-2.0-or-later
//
// Finding the running smbsrvd from the admin tools, to tell it to reload.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

namespace smbsrv {

constexpr const char *default_config_path = "/etc/smbsrv/smbsrv.conf";
constexpr const char *default_pidfile_path = "/run/smbsrvd.pid";
constexpr const char *default_userdb_path = "/etc/smbsrv/smbsrvpwd.db";

// The pid in pidfile, if the file exists, holds a number, and that process
// is alive and runs a program named `comm` (a stale pid file may name an
// unrelated process by now: that one is never signalled).
std::optional<pid_t> daemon_pid(const std::string &pidfile,
				const std::string &comm = "smbsrvd");

// Whether pid is alive and its command name is comm.
bool process_is(pid_t pid, const std::string &comm);

} // namespace smbsrv
