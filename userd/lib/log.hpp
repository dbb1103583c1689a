// SPDX-License-Identifier: GPL-2.0-or-later
//
// Logging for the daemon and the CLI: stderr or syslog, with levels.
// Levels are syslog's; on stderr, error and warning lines say so.  When
// stderr is the systemd journal's stream (smbsrvd -F as a simple service)
// each line starts with "<N>", the syslog priority, which the journal
// keeps as the message's level.
#pragma once

#include <string>

namespace smbsrv::log {

enum class Level { error = 3, warning = 4, notice = 5, info = 6, debug = 7 };

void init(const char *ident, bool to_syslog, Level max_level);

// Is fd the stream $JOURNAL_STREAM ("DEVICE:INODE") names?
bool is_journal_stream(const char *journal_stream, int fd);
void set_level(Level max_level);
void write(Level level, const std::string &msg);

inline void error(const std::string &m) { write(Level::error, m); }
inline void warning(const std::string &m) { write(Level::warning, m); }
inline void notice(const std::string &m) { write(Level::notice, m); }
inline void info(const std::string &m) { write(Level::info, m); }
inline void debug(const std::string &m) { write(Level::debug, m); }

} // namespace smbsrv::log
