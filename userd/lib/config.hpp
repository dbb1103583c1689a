// SPDX-License-Identifier: GPL-2.0-or-later
//
// The ksmbd.conf file syntax: sections, parameters, comments, continuation
// lines, with a diagnostic (file:line) for every problem.  This layer knows
// no parameter; params.hpp gives them types and meaning.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace smbsrv {

enum class Severity { warning, error };

struct Diagnostic {
	std::string file;
	int line = 0; // 0: the problem is not tied to a line
	Severity severity = Severity::error;
	std::string message;

	// "file:line: error: message", the shape compilers and testparm use.
	[[nodiscard]] std::string str() const;
};

class Diagnostics {
public:
	void warn(const std::string &file, int line, std::string msg);
	void error(const std::string &file, int line, std::string msg);
	[[nodiscard]] const std::vector<Diagnostic> &all() const { return list_; }
	[[nodiscard]] bool has_errors() const;
	void clear() { list_.clear(); }

private:
	std::vector<Diagnostic> list_;
};

struct RawParam {
	std::string key;   // as written, trimmed
	std::string value; // trimmed, comments removed
	int line = 0;
};

struct RawSection {
	std::string name; // as written, trimmed
	int line = 0;
	std::vector<RawParam> params;
};

struct RawConfig {
	std::string file;
	std::vector<RawSection> sections;
};

// Parse ksmbd.conf text.  Problems go to diags; parsing continues past them
// so that every problem in a file is reported at once.
RawConfig parse_conf_text(std::string_view text, const std::string &file,
			  Diagnostics &diags);

// Keys compare without case and without blanks: "Tcp Port" == "tcpport".
std::string normalize_key(std::string_view key);

// "" if name may be a section (share) name, else what is wrong with it.
std::string check_section_name(std::string_view name);

// Section (share) names compare without case.
std::string normalize_section(std::string_view name);

std::string trim(std::string_view s);

} // namespace smbsrv
