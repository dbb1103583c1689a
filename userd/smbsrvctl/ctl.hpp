// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl's commands, one file per family.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon_ctl.hpp"

namespace smbsrv::ctl {

// Options every command may use.
struct Options {
	std::string config = default_config_path;
	std::string pidfile = default_pidfile_path;
	std::string userdb = default_userdb_path;
	bool reload = true; // tell smbsrvd after changing its files
	bool json = false;   // -j: JSON instead of tables
	bool pretty = false; // -p: that JSON indented
};

// Print a JSON text and its newline.
void print_json(const std::string &text);

// A command line smbsrvctl cannot make sense of: exit status 2.
class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// A command that could not do its job (exit status 1); already explained
// on stderr when the message is empty.
class Failure : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

int cmd_status(const Options &o, const Args &args);
int cmd_reload(const Options &o, const Args &args);
int cmd_share(const Options &o, const Args &args);
int cmd_user(const Options &o, const Args &args);
int cmd_sessions(const Options &o, const Args &args);
int cmd_opens(const Options &o, const Args &args);
int cmd_connections(const Options &o, const Args &args);
int cmd_kill(const Options &o, const Args &args);
int cmd_set(const Options &o, const Args &args);
int cmd_stats(const Options &o, const Args &args);

// SIGHUP to the running smbsrvd so that it re-reads its files.  With
// `required`, a daemon that is not running is an error; otherwise a note.
// Returns the exit status for the command.
int reload_daemon(const Options &o, bool required);

// "N tree connects" + @when, and "(max connections M, enforced)" when the
// share has a limit (M below 65536): status and share show say it alike.
std::string share_use_text(uint32_t trees, uint32_t max_connections, const char *when = "");

} // namespace smbsrv::ctl
