// SPDX-License-Identifier: GPL-2.0-or-later
#include "params.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace smbsrv {

namespace {

using enum Scope;
using enum Type;

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

// The table follows ksmbd.conf(5) (ksmbd-tools 3.4) and adds smbsrv's own.
// "applied = false" parameters are accepted and reported as not supported.
const ParamDef table[] = {
	// Global parameters.
	{"bind interfaces only", global, boolean, "no", false, {}},
	{"deadtime", global, integer, "0", false, {}},
	{"durable handles", global, boolean, "no", false, {}},
	{"interfaces", global, list, "", false, {}},
	{"ipc timeout", global, integer, "0", false, {}},
	{"kerberos keytab file", global, string, "", false, {}},
	{"kerberos service name", global, string, "", false, {}},
	{"map to guest", global, choice, "never", false,
	 "never|bad user|bad password|bad uid"},
	{"max active sessions", global, integer, "1024", false, {}, 1, 65536},
	{"max connections", global, integer, "128", true, {}},
	{"max open files", global, integer, "10000", false, {}},
	{"netbios name", global, string, "SMBSRV", false, {}},
	{"restrict anonymous", global, choice, "0", false, "0|1|2"},
	{"root directory", global, string, "", false, {}},
	{"server max protocol", global, choice, "SMB3_11", false,
	 "smb2_02|smb2_10|smb3_00|smb3_02|smb3_11|smb2|smb3"},
	{"server min protocol", global, choice, "SMB2_02", false,
	 "smb2_02|smb2_10|smb3_00|smb3_02|smb3_11|smb2|smb3"},
	{"server multi channel support", global, boolean, "no", false, {}},
	{"server signing", global, choice, "disabled", false,
	 "disabled|auto|mandatory|enabled|no|yes"},
	{"server string", global, string, "SMB SERVER", false, {}},
	{"share:fake_fscaps", global, integer, "64", false, {}},
	{"smb2 leases", global, boolean, "no", false, {}},
	{"smb2 max credits", global, size, "8192", true, {}, 1, 65535},
	{"smb2 max read", global, size, "4M", true, {}, 64 * KiB, 8 * MiB},
	{"smb2 max trans", global, size, "1M", true, {}, 64 * KiB, 8 * MiB},
	{"smb2 max write", global, size, "4M", true, {}, 64 * KiB, 8 * MiB},
	{"smb3 encryption", global, choice, "auto", false,
	 "disabled|auto|mandatory|enabled|no|yes"},
	{"smbd max io size", global, size, "8M", false, {}},
	{"tcp port", global, integer, "445", true, {}, 1, 65535},
	{"workgroup", global, string, "WORKGROUP", false, {}},

	// Share parameters; in [global] they set every share's default.
	{"browseable", share, boolean, "yes", false, {}},
	{"comment", share, string, "", true, {}},
	{"create mask", share, octal, "0744", false, {}, 0, 07777},
	{"crossmnt", share, boolean, "yes", false, {}},
	{"directory mask", share, octal, "0755", false, {}, 0, 07777},
	{"follow symlinks", share, boolean, "yes", false, {}},
	{"force create mode", share, octal, "0000", false, {}, 0, 07777},
	{"force directory mode", share, octal, "0000", false, {}, 0, 07777},
	{"force group", share, string, "", false, {}},
	{"force user", share, string, "", false, {}},
	{"guest account", share, string, "nobody", false, {}},
	{"guest ok", share, boolean, "no", false, {}},
	{"hide dot files", share, boolean, "yes", false, {}},
	{"hosts allow", share, list, "", false, {}},
	{"hosts deny", share, list, "", false, {}},
	{"inherit owner", share, boolean, "no", false, {}},
	{"invalid users", share, list, "", false, {}},
	{"oplocks", share, boolean, "yes", false, {}},
	{"path", share, string, "", true, {}},
	{"read list", share, list, "", false, {}},
	{"read only", share, boolean, "yes", false, {}},
	{"store dos attributes", share, boolean, "yes", false, {}},
	{"valid users", share, list, "", false, {}},
	{"veto files", share, string, "", false, {}},
	{"vfs objects", share, list, "", false, {}},
	{"write list", share, list, "", false, {}},
};

struct Synonym {
	std::string_view alias;
	std::string_view name;
	bool inverted;
};

const Synonym synonyms[] = {
	{"browsable", "browseable", false},
	{"public", "guest ok", false},
	{"writeable", "read only", true},
	{"writable", "read only", true},
	{"write ok", "read only", true},
	{"allow hosts", "hosts allow", false},
	{"deny hosts", "hosts deny", false},
};

size_t edit_distance(std::string_view a, std::string_view b)
{
	std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
	for (size_t j = 0; j <= b.size(); j++)
		prev[j] = j;
	for (size_t i = 1; i <= a.size(); i++) {
		cur[0] = i;
		for (size_t j = 1; j <= b.size(); j++) {
			size_t subst = prev[j - 1] + (a[i - 1] != b[j - 1]);
			cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
		}
		std::swap(prev, cur);
	}
	return prev[b.size()];
}

std::string lower(std::string_view s)
{
	std::string out(s);
	for (auto &c : out)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return out;
}

// Check a value against its definition; returns an error message or "".
std::string check_value(const ParamDef &def, const std::string &value)
{
	switch (def.type) {
	case boolean:
		if (!parse_bool(value))
			return "invalid boolean '" + value +
			       "' (use yes/no, true/false, 1/0)";
		break;
	case integer:
	case size: {
		auto n = def.type == size ? parse_size(value) : std::nullopt;
		if (def.type == integer) {
			char *end = nullptr;
			errno = 0;
			unsigned long long v = std::strtoull(value.c_str(), &end, 10);
			if (!value.empty() && value[0] != '-' && *end == '\0' &&
			    errno == 0)
				n = v;
		}
		if (!n)
			return "invalid number '" + value + "'";
		break;
	}
	case octal: {
		char *end = nullptr;
		if (value.empty() || value[0] == '-' ||
		    (std::strtoul(value.c_str(), &end, 8), *end != '\0'))
			return "invalid octal mode '" + value + "'";
		break;
	}
	case choice: {
		std::string v = lower(value);
		std::string_view rest = def.choices;
		while (!rest.empty()) {
			size_t bar = rest.find('|');
			if (rest.substr(0, bar) == v)
				return "";
			rest = bar == std::string_view::npos ? std::string_view{}
							     : rest.substr(bar + 1);
		}
		std::string opts(def.choices);
		std::replace(opts.begin(), opts.end(), '|', ',');
		return "invalid value '" + value + "' (one of: " + opts + ")";
	}
	case string:
	case list:
		break;
	}
	return "";
}

// Equal values: numbers by value ("4MB" == "4M"), choices without case.
bool same_value(const ParamDef &def, const std::string &a, std::string_view b)
{
	switch (def.type) {
	case integer:
	case size:
		return parse_size(a) == parse_size(b);
	case octal:
		return std::strtoul(a.c_str(), nullptr, 8) ==
		       std::strtoul(std::string(b).c_str(), nullptr, 8);
	case boolean:
		return parse_bool(a) == parse_bool(b);
	case choice:
		return lower(a) == lower(b);
	case string:
	case list:
		break;
	}
	return a == b;
}

void fill_defaults(ParamSet &set, Scope scope)
{
	for (const auto &d : table)
		if (d.scope == scope)
			set.set(d.name, std::string(d.def));
}

} // namespace

std::span<const ParamDef> param_table()
{
	return table;
}

const ParamDef *find_param(std::string_view key, bool *inverted)
{
	std::string norm = normalize_key(key);
	if (inverted)
		*inverted = false;
	for (const auto &s : synonyms) {
		if (normalize_key(s.alias) == norm) {
			if (inverted)
				*inverted = s.inverted;
			norm = normalize_key(s.name);
			break;
		}
	}
	for (const auto &d : table)
		if (normalize_key(d.name) == norm)
			return &d;
	return nullptr;
}

std::string suggest_param(std::string_view key)
{
	std::string norm = normalize_key(key);
	std::string best;
	size_t best_d = std::string::npos;
	for (const auto &d : table) {
		size_t dist = edit_distance(norm, normalize_key(d.name));
		if (dist < best_d) {
			best_d = dist;
			best = d.name;
		}
	}
	size_t limit = std::max<size_t>(2, norm.size() / 4);
	return best_d <= limit ? best : "";
}

std::optional<bool> parse_bool(std::string_view v)
{
	std::string s = lower(trim(v));
	if (s == "yes" || s == "true" || s == "1" || s == "on" ||
	    s == "enable" || s == "enabled")
		return true;
	if (s == "no" || s == "false" || s == "0" || s == "off" ||
	    s == "disable" || s == "disabled")
		return false;
	return std::nullopt;
}

std::optional<uint64_t> parse_size(std::string_view v)
{
	std::string s = trim(v);
	if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(s.c_str(), &end, 0);
	if (errno)
		return std::nullopt;
	std::string suffix = lower(end);
	unsigned shift = 0;
	if (!suffix.empty()) {
		switch (suffix[0]) {
		case 'k': shift = 10; break;
		case 'm': shift = 20; break;
		case 'g': shift = 30; break;
		case 't': shift = 40; break;
		default: return std::nullopt;
		}
		std::string tail = suffix.substr(1);
		if (!tail.empty() && tail != "b" && tail != "ib")
			return std::nullopt;
	}
	if (shift && n > (~0ULL >> shift))
		return std::nullopt;
	return static_cast<uint64_t>(n) << shift;
}

std::vector<std::string> parse_list(std::string_view v)
{
	std::vector<std::string> out;
	std::string cur;
	for (char c : v) {
		if (c == ',' || c == ' ' || c == '\t') {
			if (!cur.empty())
				out.push_back(std::move(cur));
			cur.clear();
		} else {
			cur += c;
		}
	}
	if (!cur.empty())
		out.push_back(std::move(cur));
	return out;
}

const std::string &ParamSet::str(std::string_view name) const
{
	static const std::string empty;
	auto it = v_.find(std::string(name));
	return it == v_.end() ? empty : it->second;
}

bool ParamSet::boolean(std::string_view name) const
{
	return parse_bool(str(name)).value_or(false);
}

uint64_t ParamSet::number(std::string_view name) const
{
	const ParamDef *d = find_param(name);
	const std::string &s = str(name);
	if (d && d->type == Type::octal)
		return std::strtoull(s.c_str(), nullptr, 8);
	return parse_size(s).value_or(0);
}

std::vector<std::string> ParamSet::list(std::string_view name) const
{
	return parse_list(str(name));
}

const ShareConfig *Config::share(std::string_view name) const
{
	auto norm = normalize_section(name);
	for (const auto &s : shares)
		if (normalize_section(s.name) == norm)
			return &s;
	return nullptr;
}

Config build_config(const RawConfig &raw, Diagnostics &diags)
{
	Config cfg;
	cfg.file = raw.file;
	fill_defaults(cfg.global, Scope::global);
	ParamSet share_defaults;
	fill_defaults(share_defaults, Scope::share);

	// Apply one section's parameters to a set; returns nothing, reports all.
	auto apply = [&](const RawSection &sec, bool is_global, ParamSet &gset,
			 ParamSet &sset) {
		std::map<std::string, int> seen;
		for (const auto &p : sec.params) {
			bool inv = false;
			const ParamDef *d = find_param(p.key, &inv);
			if (!d) {
				std::string hint = suggest_param(p.key);
				diags.warn(raw.file, p.line,
					   "unknown parameter '" + p.key + "'" +
						   (hint.empty() ? std::string()
								 : "; did you mean '" +
									   hint + "'?"));
				continue;
			}
			if (d->scope == Scope::global && !is_global) {
				diags.warn(raw.file, p.line,
					   "global parameter '" +
						   std::string(d->name) +
						   "' in share section [" +
						   sec.name + "] ignored");
				continue;
			}
			std::string err = check_value(*d, p.value);
			if (!err.empty()) {
				diags.error(raw.file, p.line,
					    std::string(d->name) + ": " + err);
				continue;
			}
			std::string value = p.value;
			if (inv)
				value = parse_bool(value).value() ? "no" : "yes";
			auto [it, fresh] = seen.emplace(d->name, p.line);
			if (!fresh) {
				// ksmbd-tools keeps the first value of a key.
				ParamSet &set = d->scope == Scope::global ? gset : sset;
				if (!same_value(*d, set.str(d->name), value))
					diags.warn(raw.file, p.line,
						   "'" + std::string(d->name) +
							   "' repeated; the value at line " +
							   std::to_string(it->second) +
							   " is kept");
				continue;
			}
			if (d->type == Type::size || d->type == Type::integer) {
				uint64_t n = *parse_size(value);
				if (d->max > 0 &&
				    (n < static_cast<uint64_t>(d->min) ||
				     n > static_cast<uint64_t>(d->max))) {
					uint64_t c = std::clamp<uint64_t>(
						n, d->min, d->max);
					diags.warn(raw.file, p.line,
						   std::string(d->name) + " = " +
							   p.value +
							   " is out of range; using " +
							   std::to_string(c));
					value = std::to_string(c);
				}
			}
			if (!d->applied && !same_value(*d, value, d->def))
				diags.warn(raw.file, p.line,
					   "'" + std::string(d->name) +
						   "' is accepted but not supported yet");
			(d->scope == Scope::global ? gset : sset)
				.set(d->name, value);
		}
	};

	// [global] first: its share parameters are every share's defaults.
	ParamSet unused;
	for (const auto &sec : raw.sections)
		if (normalize_section(sec.name) == "global")
			apply(sec, true, cfg.global, share_defaults);

	for (const auto &sec : raw.sections) {
		if (normalize_section(sec.name) == "global")
			continue;
		ShareConfig sh{sec.name, sec.line, share_defaults};
		apply(sec, false, unused, sh.params);
		std::string norm = normalize_section(sec.name);
		if (norm != "ipc$" && sh.params.str("path").empty())
			diags.error(raw.file, sec.line,
				    "share [" + sec.name + "] has no 'path'");
		cfg.shares.push_back(std::move(sh));
	}
	if (!cfg.share("ipc$")) {
		ShareConfig ipc{"IPC$", 0, share_defaults};
		ipc.params.set("comment", "IPC share");
		ipc.params.set("guest ok", "yes");
		cfg.shares.push_back(std::move(ipc));
	}

	Knobs &k = cfg.knobs;
	const ParamSet &g = cfg.global;
	k.tcp_port = static_cast<uint32_t>(g.number("tcp port"));
	// As ksmbd-tools: 0 or more than 64Ki means 64Ki.
	uint64_t mc = g.number("max connections");
	k.max_connections = static_cast<uint32_t>(mc == 0 || mc > 65536 ? 65536 : mc);
	k.smb2_max_read = static_cast<uint32_t>(g.number("smb2 max read"));
	k.smb2_max_write = static_cast<uint32_t>(g.number("smb2 max write"));
	k.smb2_max_trans = static_cast<uint32_t>(g.number("smb2 max trans"));
	k.smb2_max_credits = static_cast<uint32_t>(g.number("smb2 max credits"));
	return cfg;
}

Config load_config_file(const std::string &path, Diagnostics &diags)
{
	std::ifstream in(path, std::ios::binary);
	if (!in) {
		diags.error(path, 0, std::string("cannot read: ") +
					     std::strerror(errno));
		Config empty = build_config(RawConfig{path, {}}, diags);
		return empty;
	}
	std::stringstream ss;
	ss << in.rdbuf();
	RawConfig raw = parse_conf_text(ss.str(), path, diags);
	return build_config(raw, diags);
}

std::string dump_config(const Config &cfg, bool with_defaults)
{
	std::ostringstream out;
	auto emit = [&](const ParamSet &set, Scope scope) {
		for (const auto &d : table) {
			if (d.scope != scope)
				continue;
			const std::string &v = set.str(d.name);
			if (!with_defaults && same_value(d, v, d.def))
				continue;
			out << "\t" << d.name << " = " << v << "\n";
		}
	};
	out << "[global]\n";
	emit(cfg.global, Scope::global);
	for (const auto &sh : cfg.shares) {
		out << "\n[" << sh.name << "]\n";
		emit(sh.params, Scope::share);
	}
	return out.str();
}

} // namespace smbsrv
