// SPDX-License-Identifier: GPL-2.0-or-later
//
// Edits ksmbd.conf text the way a careful person would with an editor:
// only the lines that must change do; comments, blank lines, order,
// indentation and everything else stay byte for byte (ksmbd.addshare
// rewrites the whole file; this does not).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace smbsrv {

class ConfEditor {
public:
	explicit ConfEditor(std::string_view text);

	[[nodiscard]] std::string text() const;
	[[nodiscard]] bool has_section(std::string_view name) const;

	// Append a section at the end of the file, its parameters indented
	// as the file's are.  False if the section exists.
	bool add_section(std::string_view name,
			 const std::vector<std::pair<std::string, std::string>> &params);

	// Remove every block of a section, with the comment lines attached
	// to its header.  False if there is no such section.
	bool remove_section(std::string_view name);

	// Set a parameter in a section: the line that sets it now (under any
	// of its names, "writeable" for "read only") is rewritten in place,
	// keeping its indentation and trailing comment; otherwise a line is
	// added after the section's last parameter.  False if the section
	// does not exist.
	bool set(std::string_view section, std::string_view key,
		 std::string_view value);

	// Remove the lines setting a parameter in a section; false if none.
	bool unset(std::string_view section, std::string_view key);

private:
	enum class Kind { other, section, param };
	struct Line {
		std::string text; // one logical line: continuations joined by '\n'
		Kind kind = Kind::other;
		std::string name; // section: normalized name; param: canonical key
	};

	void classify(Line &l) const;
	[[nodiscard]] std::string indent() const;
	[[nodiscard]] std::string assign(std::string_view key,
					 std::string_view value) const;
	// [first, end) of each block of a section: header to next header.
	[[nodiscard]] std::vector<std::pair<size_t, size_t>>
	blocks(std::string_view section) const;

	std::vector<Line> lines_;
	bool final_newline_ = true;
	std::string cr_; // "\r" in a file with CRLF line ends
};

} // namespace smbsrv
