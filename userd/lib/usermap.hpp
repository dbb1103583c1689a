// SPDX-License-Identifier: GPL-2.0-or-later
//
// Samba's "username map" file: lines "unixname = name name ...", names
// quoted when they have blanks, "*" matching any name, a leading "!"
// ending the processing after a line that mapped, "#" and ";" comments.
// Each line that lists the name replaces it with its left-hand side and
// processing goes on with the new name, as smbd does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"

namespace smbsrv {

class UsernameMap {
public:
	// Problems (with the file's line) go to diags.
	static UsernameMap parse(std::string_view text, const std::string &file,
				 Diagnostics &diags);
	// Reads path (at most max_size bytes); problems go to diags.
	static UsernameMap load(const std::string &path, Diagnostics &diags);

	// The name name maps to, or nullopt when no line maps it.  Names
	// compare without case (ASCII).
	[[nodiscard]] std::optional<std::string> map(const std::string &name) const;
	[[nodiscard]] bool empty() const { return rules_.empty(); }

	static constexpr size_t max_size = 1 << 20;

private:
	struct Rule {
		std::string to;
		std::vector<std::string> from;
		bool stop = false;
	};
	std::vector<Rule> rules_;
};

} // namespace smbsrv
