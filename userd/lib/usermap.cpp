// SPDX-License-Identifier: GPL-2.0-or-later
#include "usermap.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace smbsrv {

namespace {

bool iequal(std::string_view a, std::string_view b)
{
	if (a.size() != b.size())
		return false;
	for (size_t i = 0; i < a.size(); i++)
		if (std::tolower(static_cast<unsigned char>(a[i])) !=
		    std::tolower(static_cast<unsigned char>(b[i])))
			return false;
	return true;
}

// Blank-separated names, "double quoted" ones with blanks in them; false
// on an unterminated quote.
bool split_names(std::string_view s, std::vector<std::string> &out)
{
	size_t i = 0;
	while (i < s.size()) {
		if (std::isspace(static_cast<unsigned char>(s[i]))) {
			i++;
			continue;
		}
		if (s[i] == '"') {
			size_t end = s.find('"', i + 1);
			if (end == std::string_view::npos)
				return false;
			out.emplace_back(s.substr(i + 1, end - i - 1));
			i = end + 1;
			continue;
		}
		size_t end = i;
		while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])))
			end++;
		out.emplace_back(s.substr(i, end - i));
		i = end;
	}
	return true;
}

} // namespace

UsernameMap UsernameMap::parse(std::string_view text, const std::string &file,
			       Diagnostics &diags)
{
	UsernameMap m;
	int lineno = 0;
	size_t pos = 0;
	while (pos <= text.size()) {
		size_t nl = text.find('\n', pos);
		std::string_view raw = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
		pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
		lineno++;
		std::string line = trim(raw);
		if (line.empty() || line[0] == '#' || line[0] == ';')
			continue;
		Rule r;
		if (line[0] == '!') {
			r.stop = true;
			line = trim(std::string_view(line).substr(1));
		}
		size_t eq = line.find('=');
		if (eq == std::string::npos) {
			diags.warn(file, lineno, "no '=' in this username map line; ignored");
			continue;
		}
		r.to = trim(std::string_view(line).substr(0, eq));
		if (r.to.size() >= 2 && r.to.front() == '"' && r.to.back() == '"')
			r.to = r.to.substr(1, r.to.size() - 2);
		if (r.to.empty() || !split_names(std::string_view(line).substr(eq + 1), r.from) ||
		    r.from.empty()) {
			diags.warn(file, lineno, "malformed username map line; ignored");
			continue;
		}
		for (const auto &n : r.from)
			if (n.size() > 1 && (n[0] == '@' || n[0] == '+' || n[0] == '&'))
				diags.warn(file, lineno, "'" + n +
					   "': group entries in a username map are not "
					   "supported yet; it matches nothing");
		m.rules_.push_back(std::move(r));
	}
	return m;
}

UsernameMap UsernameMap::load(const std::string &path, Diagnostics &diags)
{
	std::ifstream f(path, std::ios::binary);
	if (!f) {
		diags.warn(path, 0, "cannot read the username map; no name is mapped");
		return {};
	}
	std::string text(max_size + 1, '\0');
	f.read(text.data(), static_cast<std::streamsize>(text.size()));
	text.resize(static_cast<size_t>(f.gcount()));
	if (text.size() > max_size) {
		diags.warn(path, 0, "the username map is larger than 1 MiB; no name is mapped");
		return {};
	}
	return parse(text, path, diags);
}

std::optional<std::string> UsernameMap::map(const std::string &name) const
{
	std::optional<std::string> out;
	std::string cur = name;
	for (const auto &r : rules_) {
		bool hit = false;
		for (const auto &n : r.from) {
			bool group = n.size() > 1 && (n[0] == '@' || n[0] == '+' || n[0] == '&');
			if (n == "*" || (!group && iequal(n, cur))) {
				hit = true;
				break;
			}
		}
		if (!hit)
			continue;
		cur = r.to;
		out = cur;
		if (r.stop)
			break;
	}
	return out;
}

} // namespace smbsrv
