// SPDX-License-Identifier: GPL-2.0-or-later
#include "idmap.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

#include "params.hpp"

namespace smbsrv {

namespace {

constexpr std::string_view prefix = "idmap config ";

std::string upper(std::string_view s)
{
	std::string out(s);
	for (auto &c : out)
		c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
	return out;
}

std::string lower(std::string_view s)
{
	std::string out(s);
	for (auto &c : out)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return out;
}

std::string_view strip(std::string_view s)
{
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
		s.remove_prefix(1);
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
		s.remove_suffix(1);
	return s;
}

std::optional<uint32_t> id_number(std::string_view s)
{
	s = strip(s);
	uint64_t v = 0;
	if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
		return std::nullopt;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
	// 0 is root's and 2^32-1 is (uid_t)-1: neither is an id to hand out.
	if (ec != std::errc() || end != s.data() + s.size() || v == 0 || v >= 0xffffffffULL)
		return std::nullopt;
	return static_cast<uint32_t>(v);
}

} // namespace

namespace idmap_key {

bool parse(std::string_view key, std::string *domain, std::string *option)
{
	// Blanks are free around the words, as in Samba ("idmap config
	// DOM:range" and "idmap  config DOM : range" are the same key).
	std::string words;
	std::string_view k = strip(key);
	for (char ch : k) {
		bool blank = std::isspace(static_cast<unsigned char>(ch));
		if (blank && (words.empty() || words.back() == ' '))
			continue;
		words += blank ? ' ' : ch;
	}
	if (words.size() <= prefix.size() || lower(words.substr(0, prefix.size())) != prefix)
		return false;
	std::string_view rest = std::string_view(words).substr(prefix.size());
	size_t colon = rest.rfind(':');
	if (colon == std::string_view::npos)
		return false;
	std::string_view dom = strip(rest.substr(0, colon));
	std::string_view opt = strip(rest.substr(colon + 1));
	if (dom.empty() || opt.empty())
		return false;
	*domain = upper(dom);
	*option = lower(opt);
	return true;
}

std::string make(const std::string &domain, const std::string &option)
{
	return std::string(prefix) + domain + " : " + option;
}

std::optional<std::pair<uint32_t, uint32_t>> range(std::string_view v)
{
	size_t dash = v.find('-');
	if (dash == std::string_view::npos)
		return std::nullopt;
	auto lo = id_number(v.substr(0, dash));
	auto hi = id_number(v.substr(dash + 1));
	if (!lo || !hi || *lo > *hi)
		return std::nullopt;
	return std::make_pair(*lo, *hi);
}

std::string check(const std::string &domain, const std::string &option,
		  const std::string &value, Diagnostics &diags, const std::string &file, int line)
{
	std::string key = make(domain, option);
	if (option == "range") {
		// Empty for * is its default, no range (what a dump writes).
		if (domain == "*" && strip(value).empty())
			return "";
		if (!range(value)) {
			diags.error(file, line, key + ": invalid range '" + value +
							"' (low - high, ids from 1 to 4294967294)");
			return "";
		}
		return value;
	}
	if (option != "backend") {
		diags.warn(file, line, "'" + key + "' is not supported (smbsrv knows backend and "
						   "range); ignored");
		return "";
	}
	std::string b = lower(strip(value));
	if (domain == "*") {
		if (b != "tdb")
			diags.warn(file, line, "'" + key + " = " + b +
						       "' is accepted but not supported (only tdb): smbsrv "
						       "allocates no ids from the * range");
		return b;
	}
	if (b != "rid")
		diags.warn(file, line, "'" + key + " = " + b +
					       "' is accepted but not supported: only backend = rid maps a "
					       "domain by itself; " + domain + "'s SIDs get ids from the * "
					       "range (idmap config * : range), or none without one");
	return b;
}

void check_all(const ParamSet &global, const std::map<std::string, int> &lines,
	       Diagnostics &diags, const std::string &file)
{
	struct R {
		std::string dom;
		uint32_t lo, hi;
		int line;
	};
	std::vector<R> ranges;
	auto line_of = [&](const std::string &k) {
		auto it = lines.find(k);
		return it == lines.end() ? 0 : it->second;
	};
	for (const auto &[k, v] : global.all()) {
		std::string dom, opt;
		if (!parse(k, &dom, &opt))
			continue;
		if (opt == "range" && !v.empty()) {
			if (auto r = range(v))
				ranges.push_back({dom, r->first, r->second, line_of(k)});
		} else if (opt == "backend" && lower(v) == "rid" && dom != "*" &&
			   global.str(make(dom, "range")).empty()) {
			diags.error(file, line_of(k), k + " = rid without '" + make(dom, "range") + "'");
		}
	}
	for (size_t i = 0; i < ranges.size(); i++)
		for (size_t j = i + 1; j < ranges.size(); j++)
			if (ranges[i].lo <= ranges[j].hi && ranges[j].lo <= ranges[i].hi)
				diags.error(file, std::max(ranges[i].line, ranges[j].line),
					    "idmap ranges of " + ranges[i].dom + " and " + ranges[j].dom +
						    " overlap");
}

} // namespace idmap_key

Idmap Idmap::from_params(const ParamSet &global)
{
	Idmap m;
	for (const auto &[k, v] : global.all()) {
		std::string dom, opt;
		if (!idmap_key::parse(k, &dom, &opt) || dom == "*" || opt != "backend" ||
		    lower(v) != "rid")
			continue;
		auto r = idmap_key::range(global.str(idmap_key::make(dom, "range")));
		if (!r)
			continue;
		IdmapRange ir;
		ir.backend = "rid";
		ir.low = r->first;
		ir.high = r->second;
		ir.has_range = true;
		m.domains_[dom] = ir;
	}
	if (lower(global.str(idmap_key::make("*", "backend"))) == "tdb")
		m.default_range_ = idmap_key::range(global.str(idmap_key::make("*", "range")));
	return m;
}

bool Idmap::maps(const std::string &domain) const
{
	return domains_.contains(upper(domain));
}

std::optional<uint32_t> Idmap::id(const std::string &domain, uint32_t rid) const
{
	auto it = domains_.find(upper(domain));
	if (it == domains_.end())
		return std::nullopt;
	const IdmapRange &r = it->second;
	if (rid > r.high - r.low)
		return std::nullopt;
	return r.low + rid;
}

} // namespace smbsrv
