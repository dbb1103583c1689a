// SPDX-License-Identifier: GPL-2.0-or-later
#include "conf_edit.hpp"

#include <algorithm>
#include <stdexcept>

#include "config.hpp"
#include "params.hpp"

namespace smbsrv {

namespace {

bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

// The physical line ends with a '\' that continues it (as the parser reads
// it: not inside a comment).
bool continues(std::string_view phys)
{
	std::string t = trim(phys);
	return !t.empty() && t.back() == '\\' &&
	       t.find_first_of(";#") == std::string::npos;
}

std::string leading_blanks(std::string_view s)
{
	size_t n = 0;
	while (n < s.size() && (s[n] == ' ' || s[n] == '\t'))
		n++;
	return std::string(s.substr(0, n));
}

// The canonical name of a parameter key: the table's name, or for an
// unknown key its normalized spelling.
std::string canonical(std::string_view key)
{
	const ParamDef *d = find_param(key);
	return d ? std::string(d->name) : normalize_key(key);
}

void check_text(std::string_view what, std::string_view s)
{
	if (s.find_first_of("\n\r;#") != std::string_view::npos)
		throw std::invalid_argument(
			std::string(what) + " '" + std::string(s) +
			"' contains a line break, ';' or '#', which ksmbd.conf cannot hold");
}

} // namespace

ConfEditor::ConfEditor(std::string_view text)
{
	final_newline_ = text.empty() || text.back() == '\n';
	size_t pos = 0;
	while (pos < text.size()) {
		Line l;
		for (;;) {
			size_t nl = text.find('\n', pos);
			std::string_view phys =
				text.substr(pos, nl == std::string_view::npos
							 ? std::string_view::npos
							 : nl - pos);
			pos = nl == std::string_view::npos ? text.size() : nl + 1;
			l.text += phys;
			if (!continues(phys) || pos >= text.size())
				break;
			l.text += '\n';
		}
		classify(l);
		lines_.push_back(std::move(l));
	}
	if (!lines_.empty() && !lines_.front().text.empty() &&
	    lines_.front().text.back() == '\r')
		cr_ = "\r";
}

void ConfEditor::classify(Line &l) const
{
	// The parser's view: continuations joined, comment cut off.
	std::string joined;
	for (char c : l.text)
		if (c != '\n')
			joined += c;
	size_t cpos = joined.find_first_of(";#");
	std::string t = trim(std::string_view(joined).substr(0, cpos));
	if (!t.empty() && t.back() == '\\')
		t.pop_back();
	l.kind = Kind::other;
	l.name.clear();
	if (!t.empty() && t.front() == '[') {
		size_t close = t.find(']');
		if (close != std::string::npos) {
			l.kind = Kind::section;
			l.name = normalize_section(t.substr(1, close - 1));
		}
		return;
	}
	size_t eq = t.find('=');
	if (eq != std::string::npos && eq > 0) {
		l.kind = Kind::param;
		l.name = canonical(trim(std::string_view(t).substr(0, eq)));
	}
}

std::string ConfEditor::text() const
{
	std::string out;
	for (size_t i = 0; i < lines_.size(); i++) {
		out += lines_[i].text;
		if (i + 1 < lines_.size() || final_newline_)
			out += '\n';
	}
	return out;
}

bool ConfEditor::has_section(std::string_view name) const
{
	return !blocks(name).empty();
}

std::vector<std::pair<size_t, size_t>>
ConfEditor::blocks(std::string_view section) const
{
	std::string norm = normalize_section(section);
	std::vector<std::pair<size_t, size_t>> out;
	for (size_t i = 0; i < lines_.size(); i++) {
		if (lines_[i].kind != Kind::section || lines_[i].name != norm)
			continue;
		size_t end = i + 1;
		while (end < lines_.size() && lines_[end].kind != Kind::section)
			end++;
		out.emplace_back(i, end);
	}
	return out;
}

std::string ConfEditor::indent() const
{
	for (const auto &l : lines_)
		if (l.kind == Kind::param)
			return leading_blanks(l.text);
	return "\t";
}

std::string ConfEditor::assign(std::string_view key, std::string_view value) const
{
	// Follow the file: "key=value" if that is how its first parameter
	// is written, "key = value" otherwise.
	std::string sep = " = ";
	for (const auto &l : lines_) {
		if (l.kind != Kind::param)
			continue;
		size_t eq = l.text.find('=');
		if (eq > 0 && eq + 1 < l.text.size() && !is_blank(l.text[eq - 1]) &&
		    !is_blank(l.text[eq + 1]))
			sep = "=";
		break;
	}
	return std::string(key) + sep + std::string(value);
}

bool ConfEditor::add_section(
	std::string_view name,
	const std::vector<std::pair<std::string, std::string>> &params)
{
	check_text("section name", name);
	if (has_section(name))
		return false;
	for (const auto &[k, v] : params) {
		check_text("parameter", k);
		check_text("value", v);
	}
	std::string ind = indent();
	if (!lines_.empty() && !trim(lines_.back().text).empty())
		lines_.push_back({cr_, Kind::other, {}});
	Line header{"[" + std::string(name) + "]" + cr_, Kind::other, {}};
	classify(header);
	lines_.push_back(std::move(header));
	for (const auto &[k, v] : params) {
		Line l{ind + assign(k, v) + cr_, Kind::other, {}};
		classify(l);
		lines_.push_back(std::move(l));
	}
	final_newline_ = true;
	return true;
}

bool ConfEditor::remove_section(std::string_view name)
{
	auto bl = blocks(name);
	if (bl.empty())
		return false;
	auto is_comment = [](const Line &l) {
		std::string t = trim(l.text);
		return !t.empty() && (t[0] == ';' || t[0] == '#');
	};
	// Back to front, so that earlier indices stay valid.
	for (size_t b = bl.size(); b-- > 0;) {
		auto [start, end] = bl[b];
		size_t header = start;
		// Comments right above a header describe it: they go with it,
		// and those right above the next header stay with that one.
		while (start > 0 && is_comment(lines_[start - 1]))
			start--;
		if (end < lines_.size())
			while (end - 1 > header && is_comment(lines_[end - 1]))
				end--;
		lines_.erase(lines_.begin() + static_cast<long>(start),
			     lines_.begin() + static_cast<long>(end));
		// Do not leave two blank lines, or a blank line at either end.
		auto blank = [&](size_t i) { return trim(lines_[i].text).empty(); };
		if (start > 0 && start <= lines_.size() && blank(start - 1) &&
		    (start == lines_.size() || blank(start)))
			lines_.erase(lines_.begin() + static_cast<long>(start - 1));
		else if (start == 0 && !lines_.empty() && blank(0))
			lines_.erase(lines_.begin());
	}
	return true;
}

bool ConfEditor::set(std::string_view section, std::string_view key,
		     std::string_view value)
{
	check_text("parameter", key);
	check_text("value", value);
	auto bl = blocks(section);
	if (bl.empty())
		return false;
	std::string canon = canonical(key);
	for (auto [start, end] : bl) {
		for (size_t i = start + 1; i < end; i++) {
			Line &l = lines_[i];
			if (l.kind != Kind::param || l.name != canon)
				continue;
			// Keep the line's indentation and its trailing comment.
			std::string comment = cr_;
			if (l.text.find('\n') == std::string::npos) {
				size_t c = l.text.find_first_of(";#");
				if (c != std::string::npos) {
					size_t b = c;
					while (b > 0 && is_blank(l.text[b - 1]))
						b--;
					comment = l.text.substr(b);
				}
			}
			l.text = leading_blanks(l.text) + assign(key, value) + comment;
			classify(l);
			return true;
		}
	}
	// Not set yet: after the first block's last parameter, indented
	// like it.
	auto [start, end] = bl.front();
	size_t at = start + 1;
	std::string ind = indent();
	for (size_t i = start + 1; i < end; i++)
		if (lines_[i].kind == Kind::param) {
			at = i + 1;
			ind = leading_blanks(lines_[i].text);
		}
	Line l{ind + assign(key, value) + cr_, Kind::other, {}};
	classify(l);
	lines_.insert(lines_.begin() + static_cast<long>(at), std::move(l));
	return true;
}

bool ConfEditor::unset(std::string_view section, std::string_view key)
{
	std::string canon = canonical(key);
	bool found = false;
	auto bl = blocks(section);
	for (size_t b = bl.size(); b-- > 0;)
		for (size_t i = bl[b].second; i-- > bl[b].first + 1;)
			if (lines_[i].kind == Kind::param && lines_[i].name == canon) {
				lines_.erase(lines_.begin() + static_cast<long>(i));
				found = true;
			}
	return found;
}

} // namespace smbsrv
