// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.hpp"

#include <algorithm>
#include <cctype>

namespace smbsrv {

std::string Diagnostic::str() const
{
	std::string s = file;
	if (line > 0)
		s += ":" + std::to_string(line);
	s += severity == Severity::error ? ": error: " : ": warning: ";
	s += message;
	return s;
}

void Diagnostics::warn(const std::string &file, int line, std::string msg)
{
	list_.push_back({file, line, Severity::warning, std::move(msg)});
}

void Diagnostics::error(const std::string &file, int line, std::string msg)
{
	list_.push_back({file, line, Severity::error, std::move(msg)});
}

bool Diagnostics::has_errors() const
{
	return std::any_of(list_.begin(), list_.end(), [](const Diagnostic &d) {
		return d.severity == Severity::error;
	});
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

std::string trim(std::string_view s)
{
	size_t b = 0, e = s.size();
	while (b < e && is_blank(s[b]))
		b++;
	while (e > b && is_blank(s[e - 1]))
		e--;
	return std::string(s.substr(b, e - b));
}

std::string normalize_key(std::string_view key)
{
	std::string out;
	for (char c : key) {
		if (is_blank(c))
			continue;
		out += static_cast<char>(
			std::tolower(static_cast<unsigned char>(c)));
	}
	return out;
}

std::string normalize_section(std::string_view name)
{
	std::string out = trim(name);
	for (auto &c : out)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return out;
}

static bool printable(std::string_view s)
{
	return std::all_of(s.begin(), s.end(), [](char c) {
		auto u = static_cast<unsigned char>(c);
		return u >= 0x20 || c == '\t';
	});
}

std::string check_section_name(std::string_view name)
{
	if (name.empty() || name.size() >= 64)
		return "section name must be 1 to 63 bytes";
	if (name.find_first_of("\\/[]:|<>+=;,*?\"") != std::string_view::npos)
		return "invalid character in section name [" + std::string(name) + "]";
	if (!printable(name))
		return "control character in section name";
	return "";
}

// ';' and '#' start a comment anywhere on a line, as ksmbd-tools reads them.
static std::string_view strip_comment(std::string_view line)
{
	size_t pos = line.find_first_of(";#");
	return pos == std::string_view::npos ? line : line.substr(0, pos);
}

RawConfig parse_conf_text(std::string_view text, const std::string &file,
			  Diagnostics &diags)
{
	RawConfig cfg;
	cfg.file = file;
	RawSection *cur = nullptr;
	int lineno = 0;
	size_t pos = 0;

	while (pos < text.size()) {
		// Join continuation lines: a trailing '\' glues the next line on.
		std::string logical;
		int first_line = lineno + 1;
		for (;;) {
			size_t nl = text.find('\n', pos);
			std::string_view phys = text.substr(
				pos, nl == std::string_view::npos ? text.size() - pos
								  : nl - pos);
			pos = nl == std::string_view::npos ? text.size() : nl + 1;
			lineno++;
			std::string t = trim(phys);
			if (!t.empty() && t.back() == '\\' && pos < text.size() &&
			    t.find_first_of(";#") == std::string::npos) {
				t.pop_back();
				logical += trim(t);
				logical += ' ';
				continue;
			}
			// A continued line's leading blanks are not part of the value.
			logical += logical.empty() ? std::string(phys) : trim(phys);
			break;
		}

		std::string line = trim(strip_comment(logical));
		if (line.empty())
			continue;
		if (!printable(line)) {
			diags.error(file, first_line,
				    "line contains a control character");
			continue;
		}

		if (line.front() == '[') {
			size_t close = line.find(']');
			if (close == std::string::npos) {
				diags.error(file, first_line,
					    "section header without ']'");
				cur = nullptr;
				continue;
			}
			if (!trim(std::string_view(line).substr(close + 1)).empty()) {
				diags.error(file, first_line,
					    "text after section header");
				cur = nullptr;
				continue;
			}
			std::string name = trim(line.substr(1, close - 1));
			std::string bad = check_section_name(name);
			if (!bad.empty()) {
				diags.error(file, first_line, bad);
				cur = nullptr;
				continue;
			}
			// A repeated section continues the earlier one.
			auto norm = normalize_section(name);
			auto it = std::find_if(
				cfg.sections.begin(), cfg.sections.end(),
				[&](const RawSection &s) {
					return normalize_section(s.name) == norm;
				});
			if (it != cfg.sections.end()) {
				cur = &*it;
			} else {
				cfg.sections.push_back({name, first_line, {}});
				cur = &cfg.sections.back();
			}
			continue;
		}

		size_t eq = line.find('=');
		if (eq == std::string::npos) {
			diags.error(file, first_line,
				    "expected 'parameter = value' or '[section]', got '" +
					    line + "'");
			continue;
		}
		std::string key = trim(std::string_view(line).substr(0, eq));
		if (key.empty()) {
			diags.error(file, first_line, "parameter name missing");
			continue;
		}
		if (!cur) {
			diags.error(file, first_line,
				    "parameter '" + key +
					    "' outside any section");
			continue;
		}
		cur->params.push_back(
			{key, trim(std::string_view(line).substr(eq + 1)),
			 first_line});
	}
	return cfg;
}

} // namespace smbsrv
