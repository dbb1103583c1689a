// SPDX-License-Identifier: GPL-2.0-or-later
#include "params.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <linux/smbsrv.h>
#include <sstream>
#include <sys/sysinfo.h>

#include "audit.hpp"
#include "hosts.hpp"
#include "http.hpp"
#include "idmap.hpp"

extern "C" {
#include "snap.h"
}

namespace smbsrv {

namespace {

using enum Scope;
using enum Type;

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

// The table follows ksmbd.conf(5) (ksmbd-tools 3.4 and the parameters
// newer ksmbd-tools added) and adds smbsrv's own knobs.  A: smbsrv acts
// on it (the daemon decides with it, or the module applies it as a knob).
// U: accepted, and reported as not supported when set to anything but its
// default.  N: a knob the daemon passes on but smbsrv.ko does not act on
// yet, reported whenever it is set; flip it to A in the commit that makes
// the module apply it.
constexpr long long U32 = 0xffffffffLL;
constexpr std::string_view protocols =
	"smb2_02|smb2_10|smb3_00|smb3_02|smb3_11|smb2|smb3";
constexpr std::string_view config_opt =
	"disabled|auto|mandatory|enabled|required|no|yes";

// One table row, in the order the table reads best.
constexpr ParamDef P(std::string_view name, Scope scope, Type type,
		     std::string_view def, Effect effect,
		     std::string_view choices = {}, long long min = 0,
		     long long max = 0, Limit limit = Limit::none,
		     std::string_view word = {})
{
	return {name, def, choices, min, max, word, scope, type, limit, effect};
}

// (Effect::not_yet: a knob smbsrv.ko does not apply yet; none at present.)
constexpr Effect A = Effect::applied, U = Effect::unsupported;

const ParamDef table[] = {
	// Global parameters.
	P("bind interfaces only", global, boolean, "no", A),
	// Cluster mode (design-cluster.md): names in Samba's style.
	P("clustering", global, boolean, "no", A),
	P("cluster name", global, string, "smbsrv", A, {}, 1, 64, Limit::reject),
	P("cluster state store", global, string, "rados:smbsrv", A),
	P("cluster ceph conf", global, string, "/etc/ceph/ceph.conf", A),
	P("cluster ceph user", global, string, "smbsrv", A),
	P("cluster node name", global, string, "", A, {}, 0, 64, Limit::reject),
	P("deadtime", global, integer, "0", A, {}, 0, U32, Limit::reject),
	P("durable handles", global, boolean, "no", A),
	P("durable handle timeout", global, integer, "60", A, {}, 1, 3600,
	  Limit::reject),
	P("frame timeout", global, integer, "30", A, {}, 1, 3600, Limit::reject),
	// vfs objects = fruit: Samba's global fruit:* parameters.
	P("fruit:aapl", global, boolean, "yes", A),
	P("fruit:copyfile", global, boolean, "no", A),
	P("fruit:model", global, string, "MacSamba", A, {}, 0, 64, Limit::reject),
	P("fruit:nfs_aces", global, boolean, "yes", A),
	P("inline reads", global, boolean, "yes", A),
	P("idmap config * : backend", global, string, "tdb", A),
	P("idmap config * : range", global, string, "", A),
	P("interfaces", global, list, "", A),
	P("ipc timeout", global, integer, "0", U, {}, 0, 65535, Limit::reject),
	P("kerberos keytab file", global, string, "", A),
	P("kerberos service name", global, string, "", A),
	P("logon timeout", global, integer, "20", A, {}, 0, 3600, Limit::reject),
	P("map to guest", global, choice, "never", A,
	  "never|bad user|bad password|bad uid"),
	P("max active sessions", global, integer, "1024", A, {}, 1, 65536,
	  Limit::saturate),
	P("max connections", both, size, "auto", A, {}, 1, 65536,
	  Limit::saturate, "auto"),
	P("max ip connections", global, integer, "0", A, {}, 0, 65536,
	  Limit::reject),
	P("max open files", global, integer, "10000", A, {}, 1, 65536,
	  Limit::saturate),
	P("max open files per user", global, integer, "auto", A, {}, 0,
	  16777216, Limit::reject, "auto"),
	P("audit rate", global, integer, "1000", A, {}, 0, 1000000, Limit::reject),
	P("metrics listen", global, string, "", A),
	P("min receivefile size", global, size, "64K", A, {}, 0, U32, Limit::reject),
	P("netbios name", global, string, "SMBSRV", A, {}, 0, 15, Limit::reject),
	P("ntlm auth", global, choice, "ntlmv2-only", A,
	  "ntlmv1-permitted|yes|ntlmv2-only|no|mschapv2-and-ntlmv2-only|disabled"),
	P("realm", global, string, "", A),
	P("restrict anonymous", global, choice, "0", A, "0|1|2"),
	P("response batch", global, integer, "16", A, {}, 1, 256, Limit::reject),
	P("root directory", global, string, "", A),
	P("route policy", global, choice, "percpu", A,
	  "percpu|unbound|adaptive"),
	P("server max open files", global, integer, "auto", A, {}, 0, 16777216,
	  Limit::reject, "auto"),
	P("server max protocol", global, choice, "SMB3_11", A, protocols),
	P("server min protocol", global, choice, "SMB2_10", A, protocols),
	P("server multi channel support", global, boolean, "no", A),
	P("server signing", global, choice, "disabled", A, config_opt),
	P("server string", global, string, "SMB SERVER", A, {}, 0, 63,
	  Limit::reject),
	P("share:fake_fscaps", global, integer, "64", U),
	P("smb2 leases", global, boolean, "no", A),
	P("smb2 max credits", global, size, "8192", A, {}, 1, 65535, Limit::clamp),
	P("smb2 max read", global, size, "4M", A, {}, 64 * KiB, 8 * MiB,
	  Limit::clamp),
	P("smb2 max trans", global, size, "1M", A, {}, 64 * KiB, 8 * MiB,
	  Limit::clamp),
	P("smb2 max write", global, size, "4M", A, {}, 64 * KiB, 8 * MiB,
	  Limit::clamp),
	P("smb3 encryption", both, choice, "auto", A, config_opt),
	P("smbd max io size", global, size, "8M", U),
	P("splice threshold", global, size, "4K", A, {}, 0, U32, Limit::reject),
	P("state directory", global, string, "/var/lib/smbsrv", A),
	P("tcp port", global, integer, "445", A, {}, 1, 65535, Limit::reject),
	P("upcall timeout", global, integer, "10", A, {}, 1, 600, Limit::reject),
	P("username map", global, string, "", A),
	P("workgroup", global, string, "WORKGROUP", A, {}, 0, 15, Limit::reject),

	// Share parameters; in [global] they set every share's default.
	P("admin users", share, list, "", A),
	P("browseable", share, boolean, "yes", A),
	P("case sensitive", share, choice, "no", A, "auto|yes|no|true|false|1|0|on|off"),
	P("comment", share, string, "", A),
	P("continuous availability", share, boolean, "no", U),
	P("create mask", share, octal, "0744", A, {}, 0, 07777, Limit::reject),
	P("crossmnt", share, boolean, "yes", A),
	P("directory mask", share, octal, "0755", A, {}, 0, 07777,
	  Limit::reject),
	P("follow symlinks", share, boolean, "no", A),
	P("force create mode", share, octal, "0000", A, {}, 0, 07777,
	  Limit::reject),
	P("force directory mode", share, octal, "0000", A, {}, 0, 07777,
	  Limit::reject),
	P("force group", share, string, "", A),
	P("force user", share, string, "", A),
	P("guest account", both, string, "nobody", A),
	P("guest ok", share, boolean, "no", A),
	P("hide dot files", share, boolean, "yes", A),
	P("hide files", share, string, "", A, {}, 0, 4095, Limit::reject),
	P("hide unreadable", share, boolean, "no", A),
	P("hosts allow", share, list, "", A),
	P("hosts deny", share, list, "", A),
	P("inherit owner", share, boolean, "no", U),
	P("inherit permissions", share, boolean, "no", A),
	P("invalid users", share, list, "", A),
	P("oplocks", share, boolean, "yes", A),
	P("path", share, string, "", A, {}, 0, 4095, Limit::reject),
	P("read list", share, list, "", A),
	P("read only", share, boolean, "yes", A),
	// vfs objects = shadow_copy2: previous versions (snapshots.hpp).
	P("shadow:basedir", share, string, "", A, {}, 0, 4095, Limit::reject),
	P("shadow:format", share, string, "@GMT-%Y.%m.%d-%H.%M.%S", A, {}, 0,
	  SMB_SNAP_FORMAT_MAX, Limit::reject),
	P("shadow:localtime", share, boolean, "no", A),
	P("shadow:mountpoint", share, string, "", A, {}, 0, 4095, Limit::reject),
	P("shadow:snapdir", share, string, ".snapshots", A, {}, 0, 4095,
	  Limit::reject),
	P("shadow:snapdirseverywhere", share, boolean, "no", U),
	P("shadow:sort", share, string, "desc", A),
	P("smb3 unix extensions", share, boolean, "no", A),
	P("store dos attributes", share, boolean, "yes", A),
	P("valid users", share, list, "", A),
	P("veto files", share, string, "", A),
	P("vfs objects", share, list, "", A),
	// vfs objects = fruit: Apple's extensions (fruit.hpp).
	P("fruit:convert_adouble", share, boolean, "yes", A),
	P("fruit:delete_empty_adfiles", share, boolean, "no", A),
	P("fruit:encoding", share, choice, "private", A, "private|native"),
	P("fruit:locking", share, choice, "none", A, "none|netatalk"),
	P("fruit:metadata", share, choice, "netatalk", A, "netatalk|stream"),
	P("fruit:posix_rename", share, boolean, "yes", A),
	P("fruit:resource", share, choice, "file", A, "file|xattr|stream"),
	P("fruit:time machine", share, boolean, "no", A),
	P("fruit:time machine max size", share, size, "0", A),
	P("fruit:veto_appledouble", share, boolean, "yes", A),
	P("fruit:wipe_intentionally_left_blank_rfork", share, boolean, "no", A),
	P("fruit:zero_file_id", share, boolean, "yes", A),
	P("readdir_attr:aapl_finder_info", share, boolean, "yes", A),
	P("readdir_attr:aapl_max_access", share, boolean, "yes", A),
	P("readdir_attr:aapl_rsize", share, boolean, "yes", A),
	P("full_audit:failure", share, list, "none", A),
	P("full_audit:facility", share, choice, "user", A,
	  "user|daemon|auth|authpriv|local0|local1|local2|local3|local4|local5|local6|local7"),
	P("full_audit:prefix", share, string, "%u|%I|%m|%S", A),
	P("full_audit:priority", share, choice, "notice", A,
	  "emerg|alert|crit|err|warning|notice|info|debug"),
	P("full_audit:success", share, list, "none", A),
	P("write list", share, list, "", A),
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
	// Samba's names for the same parameters.
	{"create mode", "create mask", false},
	{"directory mode", "directory mask", false},
	{"min protocol", "server min protocol", false},
	{"max protocol", "server max protocol", false},
	// Samba before 4.6 spelt it so, and still reads it.
	{"fruit:ressource", "fruit:resource", false},
};

// The VFS modules ksmbd knows; smbsrv maps them to share flags.
constexpr std::string_view vfs_modules[] = {"acl_xattr", "full_audit", "fruit",
					     "shadow_copy2", "streams_xattr"};

// Values of applied parameters that smbsrv does not serve yet: accepted
// and reported, and the share behaves as with the default.
struct ValueNotYet {
	std::string_view name;
	std::string_view value;
};
const ValueNotYet values_not_yet[] = {
	{"fruit:resource", "file"},
	{"fruit:resource", "xattr"},
	{"fruit:locking", "netatalk"},
	{"fruit:encoding", "native"},
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

std::optional<uint64_t> parse_decimal(const std::string &value)
{
	if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])))
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(value.c_str(), &end, 10);
	if (*end != '\0' || errno)
		return std::nullopt;
	return v;
}

std::optional<uint64_t> parse_octal(const std::string &value)
{
	if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])))
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(value.c_str(), &end, 8);
	if (*end != '\0' || errno)
		return std::nullopt;
	return v;
}

// The number a valid integer, size or octal value stands for.
uint64_t number_of(const ParamDef &def, const std::string &value)
{
	switch (def.type) {
	case integer:
		return parse_decimal(value).value_or(0);
	case octal:
		return parse_octal(value).value_or(0);
	default:
		return parse_size(value).value_or(0);
	}
}

bool is_choice(std::string_view choices, const std::string &value)
{
	std::string v = lower(value);
	std::string_view rest = choices;
	while (!rest.empty()) {
		size_t bar = rest.find('|');
		if (rest.substr(0, bar) == v)
			return true;
		rest = bar == std::string_view::npos ? std::string_view{}
						     : rest.substr(bar + 1);
	}
	return false;
}

// The number's alternative word ("max connections = auto")?
bool is_word(const ParamDef &def, const std::string &value)
{
	return !def.word.empty() && lower(value) == def.word;
}

// Check a value against its definition; returns an error message or "".
std::string check_value(const ParamDef &def, const std::string &value)
{
	if (is_word(def, value))
		return "";
	switch (def.type) {
	case boolean:
		if (!parse_bool(value))
			return "invalid boolean '" + value +
			       "' (use yes/no, true/false, 1/0)";
		break;
	case integer:
		if (!parse_decimal(value))
			return "invalid number '" + value + "'";
		break;
	case size:
		if (!parse_size(value))
			return "invalid number '" + value + "'";
		break;
	case octal:
		if (!parse_octal(value))
			return "invalid octal mode '" + value + "'";
		break;
	case choice: {
		if (is_choice(def.choices, value))
			break;
		std::string opts(def.choices);
		std::replace(opts.begin(), opts.end(), '|', ',');
		return "invalid value '" + value + "' (one of: " + opts + ")";
	}
	case string:
		if (def.limit == Limit::reject && def.max > 0 &&
		    value.size() > static_cast<size_t>(def.max))
			return "longer than " + std::to_string(def.max) + " bytes";
		break;
	case list:
		break;
	}
	return "";
}

// Apply a number's range; returns an error message or "" and may replace
// the value (clamp, saturate) after a warning in *warning.
std::string check_range(const ParamDef &def, std::string &value,
			std::string &warning)
{
	if (def.limit == Limit::none || def.type == string || is_word(def, value))
		return "";
	uint64_t n = number_of(def, value);
	auto lo = static_cast<uint64_t>(def.min);
	auto hi = static_cast<uint64_t>(def.max);
	switch (def.limit) {
	case Limit::reject:
		if (n < lo || n > hi) {
			auto fmt = [&](uint64_t v) {
				if (def.type != octal || v == 0)
					return std::to_string(v);
				char buf[32];
				std::snprintf(buf, sizeof(buf), "0%llo",
					      static_cast<unsigned long long>(v));
				return std::string(buf);
			};
			return value + " is out of range (" + fmt(lo) + " to " +
			       fmt(hi) + ")";
		}
		break;
	case Limit::clamp:
		if (n < lo || n > hi) {
			uint64_t c = std::clamp(n, lo, hi);
			warning = std::string(def.name) + " = " + value +
				  " is out of range; using " + std::to_string(c);
			value = std::to_string(c);
		}
		break;
	case Limit::saturate:
		if (n == 0 || n > hi)
			value = std::to_string(hi);
		break;
	case Limit::none:
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
	case octal:
		if (is_word(def, a) || is_word(def, std::string(b)))
			return lower(a) == lower(b);
		return number_of(def, a) == number_of(def, std::string(b));
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

bool in_scope(const ParamDef &d, Scope scope)
{
	return d.scope == scope || d.scope == Scope::both;
}

void fill_defaults(ParamSet &set, Scope scope)
{
	for (const auto &d : table) {
		// A share has no tree limit unless its section sets one (Samba's
		// and ksmbd's default); [global]'s value limits connections.
		if (scope == Scope::share && d.name == "max connections")
			continue;
		if (in_scope(d, scope))
			set.set(d.name, std::string(d.def));
	}
}

uint32_t config_opt_value(const std::string &v)
{
	std::string s = lower(v);
	if (s == "mandatory" || s == "required")
		return SMBSRV_CONFIG_OPT_MANDATORY;
	if (s == "auto" || s == "enabled" || s == "yes")
		return SMBSRV_CONFIG_OPT_AUTO;
	return SMBSRV_CONFIG_OPT_DISABLED;
}

uint32_t route_policy_value(const std::string &v)
{
	std::string s = lower(v);
	if (s == "unbound")
		return SMBSRV_ROUTE_POLICY_UNBOUND;
	if (s == "adaptive")
		return SMBSRV_ROUTE_POLICY_ADAPTIVE;
	return SMBSRV_ROUTE_POLICY_PERCPU;
}

// Builds a Config section by section, reporting every problem.
class Builder {
public:
	Builder(const RawConfig &raw, Diagnostics &diags)
		: raw_(raw), diags_(diags)
	{
	}

	// One section; in [global], share parameters go to share_defaults.
	void section(const RawSection &sec, bool is_global, ParamSet &global,
		     ParamSet &share);
	void param(const RawSection &sec, const RawParam &p, bool is_global,
		   ParamSet &global, ParamSet &share,
		   std::map<std::string_view, int> &seen);
	// Line of a [global] parameter, 0 if it was not set.
	[[nodiscard]] int global_line(std::string_view name) const
	{
		auto it = global_lines_.find(name);
		return it == global_lines_.end() ? 0 : it->second;
	}

	[[nodiscard]] const std::map<std::string, int> &idmap_lines() const { return idmap_lines_; }

private:
	void warn(int line, std::string msg) { diags_.warn(raw_.file, line, std::move(msg)); }
	void error(int line, std::string msg) { diags_.error(raw_.file, line, std::move(msg)); }

	const RawConfig &raw_;
	Diagnostics &diags_;
	std::map<std::string_view, int> global_lines_;
	std::map<std::string, int> idmap_lines_;
};

void Builder::section(const RawSection &sec, bool is_global, ParamSet &global,
		      ParamSet &share)
{
	std::map<std::string_view, int> seen;
	for (const auto &p : sec.params)
		param(sec, p, is_global, global, share, seen);
}

void Builder::param(const RawSection &sec, const RawParam &p, bool is_global,
		    ParamSet &global, ParamSet &share,
		    std::map<std::string_view, int> &seen)
{
	// "idmap config DOM : option": one key per domain (idmap.hpp).
	std::string dom, opt;
	if (idmap_key::parse(p.key, &dom, &opt)) {
		std::string key = idmap_key::make(dom, opt);
		if (!is_global) {
			warn(p.line, "global parameter '" + key + "' in share section [" +
					     sec.name + "] ignored");
			return;
		}
		std::string v = idmap_key::check(dom, opt, p.value, diags_, raw_.file, p.line);
		if (v.empty())
			return;
		if (auto [it, fresh] = idmap_lines_.emplace(key, p.line); !fresh) {
			warn(p.line, "'" + key + "' repeated; the value at line " +
					     std::to_string(it->second) + " is kept");
			return;
		}
		global.set(key, v);
		return;
	}
	bool inv = false;
	const ParamDef *d = find_param(p.key, &inv);
	if (!d) {
		std::string hint = suggest_param(p.key);
		warn(p.line, "unknown parameter '" + p.key + "'" +
				     (hint.empty() ? std::string()
						   : "; did you mean '" + hint + "'?"));
		return;
	}
	std::string name(d->name);
	if (d->scope == Scope::global && !is_global) {
		warn(p.line, "global parameter '" + name + "' in share section [" +
				     sec.name + "] ignored");
		return;
	}
	ParamSet &set = is_global && d->scope != Scope::share ? global : share;

	// ksmbd-tools skips an empty value, so that the default (or the
	// [global] value) stays and a later line may still set the key.
	if (p.value.empty()) {
		if (!set.str(d->name).empty() && !seen.contains(d->name))
			warn(p.line, "'" + name + "' has an empty value; ignored as "
				     "ksmbd does, '" + set.str(d->name) + "' stays");
		return;
	}
	std::string err = check_value(*d, p.value);
	if (!err.empty()) {
		error(p.line, name + ": " + err);
		return;
	}
	std::string value = p.value;
	if (inv)
		value = parse_bool(value).value() ? "no" : "yes";

	auto [it, fresh] = seen.emplace(d->name, p.line);
	if (!fresh) {
		// ksmbd-tools keeps the first value of a key.
		if (!same_value(*d, set.str(d->name), value))
			warn(p.line, "'" + name + "' repeated; the value at line " +
					     std::to_string(it->second) + " is kept");
		return;
	}

	std::string range_warning;
	err = check_range(*d, value, range_warning);
	if (!err.empty()) {
		error(p.line, name + ": " + err);
		seen.erase(it);
		return;
	}
	if (!range_warning.empty())
		warn(p.line, range_warning);

	if (d->name == "vfs objects") {
		// The modules served: share flags streams, acl_xattr, shadow-copy,
		// and the audit masks (full_audit).
		for (const auto &m : parse_list(value))
			if (std::find(std::begin(vfs_modules), std::end(vfs_modules),
				      lower(m)) == std::end(vfs_modules))
				warn(p.line, "vfs objects: '" + m +
						     "' is not a module smbsrv knows "
						     "(acl_xattr, full_audit, fruit, "
						     "shadow_copy2, streams_xattr); ignored");
	}
	if (d->name == "shadow:format" && smb_snap_format_check(value.c_str()) != 0) {
		error(p.line, name + ": '" + value +
				      "' cannot name snapshots (strftime %Y %m %d %H %M "
				      "%S %y %j %s %F %T %%, at least a day, no '/')");
		seen.erase(it);
		return;
	}
	if (d->name == "full_audit:success" || d->name == "full_audit:failure") {
		std::vector<std::string> unknown;
		audit_mask(parse_list(value), &unknown);
		for (const auto &u : unknown)
			warn(p.line, std::string(name).append(": '").append(u).append(
					     "' is not an operation smbsrv audits; ignored"));
	}
	if (d->name == "hosts allow" || d->name == "hosts deny") {
		// Names become addresses now, as the module matches addresses.
		std::vector<std::string> problems;
		std::string resolved;
		for (const auto &h : resolve_host_names(parse_list(value), &problems)) {
			if (!resolved.empty())
				resolved += ' ';
			resolved += h;
		}
		for (const auto &why : problems) {
			std::string msg = name;
			msg += ": ";
			msg += why;
			warn(p.line, std::move(msg));
		}
		value = resolved;
	}
	for (const auto &nv : values_not_yet)
		if (d->name == nv.name && same_value(*d, value, nv.value)) {
			std::string msg = "'" + name;
			msg += " = ";
			msg += value;
			msg += "' is accepted but not supported yet";
			warn(p.line, std::move(msg));
		}
	if (d->effect == Effect::unsupported && !same_value(*d, value, d->def))
		warn(p.line, "'" + name + "' is accepted but not supported yet");
	if (d->effect == Effect::not_yet)
		warn(p.line, "'" + name + "' is accepted but not yet in effect "
				     "(smbsrv.ko does not apply it yet)");
	if (is_global)
		global_lines_.emplace(d->name, p.line);
	set.set(d->name, value);
}

uint32_t u32(uint64_t v)
{
	return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffU));
}

void make_knobs(Config &cfg, const Builder &b, Diagnostics &diags)
{
	Knobs &k = cfg.knobs;
	const ParamSet &g = cfg.global;
	k.tcp_port = u32(g.number("tcp port"));
	const std::string &maxc = g.str("max connections");
	k.max_connections = is_word(*find_param("max connections"), maxc)
				    ? auto_max_connections(physical_ram())
				    : u32(g.number("max connections"));
	k.smb2_max_read = u32(g.number("smb2 max read"));
	k.smb2_max_write = u32(g.number("smb2 max write"));
	k.smb2_max_trans = u32(g.number("smb2 max trans"));
	k.smb2_max_credits = u32(g.number("smb2 max credits"));
	k.min_dialect = protocol_dialect(g.str("server min protocol"));
	k.max_dialect = protocol_dialect(g.str("server max protocol"));
	if (k.min_dialect > k.max_dialect) {
		int line = b.global_line("server min protocol");
		if (!line)
			line = b.global_line("server max protocol");
		diags.error(cfg.file, line,
			    "server min protocol " + g.str("server min protocol") +
				    " is above server max protocol " +
				    g.str("server max protocol"));
	}
	k.signing = config_opt_value(g.str("server signing"));
	k.encryption = config_opt_value(g.str("smb3 encryption"));
	k.max_ip_connections = u32(g.number("max ip connections"));
	k.max_sessions = u32(g.number("max active sessions"));
	k.max_open_files = u32(g.number("max open files"));
	const std::string &smo = g.str("server max open files");
	k.server_max_open_files =
		is_word(*find_param("server max open files"), smo)
			? auto_server_max_open_files(physical_ram())
			: u32(g.number("server max open files"));
	const std::string &mopu = g.str("max open files per user");
	k.max_open_files_per_user =
		is_word(*find_param("max open files per user"), mopu)
			? auto_max_open_files_per_user(k.server_max_open_files)
			: u32(g.number("max open files per user"));
	k.deadtime = u32(g.number("deadtime"));
	k.upcall_timeout = u32(g.number("upcall timeout"));
	k.clustering = g.boolean("clustering");
	k.frame_timeout = u32(g.number("frame timeout"));
	k.route_policy = route_policy_value(g.str("route policy"));
	k.splice_threshold = u32(g.number("splice threshold"));
	k.min_receivefile_size = u32(g.number("min receivefile size"));
	k.response_batch = u32(g.number("response batch"));
	k.inline_reads = g.boolean("inline reads") ? 1 : 0;
	k.logon_timeout = u32(g.number("logon timeout"));
	k.smb2_leases = g.boolean("smb2 leases") ? 1 : 0;
	k.durable_handles = g.boolean("durable handles") ? 1 : 0;
	k.durable_handle_timeout = u32(g.number("durable handle timeout"));
	k.multichannel = g.boolean("server multi channel support") ? 1 : 0;
	k.netbios_name = g.str("netbios name");
}

} // namespace

uint32_t auto_max_connections(uint64_t ram_bytes)
{
	return static_cast<uint32_t>(std::clamp<uint64_t>(ram_bytes / (256 * KiB), 128, 65536));
}

uint32_t auto_server_max_open_files(uint64_t ram_bytes)
{
	return static_cast<uint32_t>(
		std::clamp<uint64_t>(ram_bytes / (32 * KiB), 1024, 16U << 20));
}

uint32_t auto_max_open_files_per_user(uint32_t server_max)
{
	return server_max / 2;
}

uint64_t physical_ram()
{
	struct sysinfo si {};
	if (sysinfo(&si) < 0)
		return 0;
	return static_cast<uint64_t>(si.totalram) * si.mem_unit;
}

std::span<const ParamDef> param_table()
{
	return table;
}

const ParamDef *find_param(std::string_view key, bool *inverted)
{
	std::string norm = normalize_key(key);
	if (inverted)
		*inverted = false;
	// Every domain's idmap keys are described by the default's rows.
	std::string dom, opt;
	if (idmap_key::parse(key, &dom, &opt))
		norm = normalize_key(idmap_key::make("*", opt));
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
	size_t limit = std::max<size_t>(2, norm.size() / 4);
	size_t best_d = limit + 1;
	for (const auto &d : table) {
		std::string cand = normalize_key(d.name);
		// The distance is at least the difference in length: a name
		// that cannot come closer than the best so far is not measured
		// (a long unknown key no longer costs a full table of them).
		size_t diff = cand.size() > norm.size() ? cand.size() - norm.size()
							: norm.size() - cand.size();
		if (diff >= best_d)
			continue;
		size_t dist = edit_distance(norm, cand);
		if (dist < best_d) {
			best_d = dist;
			best = d.name;
		}
	}
	return best;
}

uint32_t protocol_dialect(std::string_view name)
{
	static const std::pair<std::string_view, uint32_t> map[] = {
		{"smb2_02", 0x0202}, {"smb2_10", 0x0210}, {"smb3_00", 0x0300},
		{"smb3_02", 0x0302}, {"smb3_11", 0x0311}, {"smb2", 0x0210},
		{"smb3", 0x0311},
	};
	std::string n = lower(trim(name));
	for (const auto &[k, v] : map)
		if (k == n)
			return v;
	return 0;
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
	return d ? number_of(*d, str(name)) : parse_size(str(name)).value_or(0);
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
	Builder b(raw, diags);

	// [global] first: its share parameters are every share's defaults.
	for (const auto &sec : raw.sections)
		if (normalize_section(sec.name) == "global")
			b.section(sec, true, cfg.global, share_defaults);

	idmap_key::check_all(cfg.global, b.idmap_lines(), diags, raw.file);

	ParamSet unused;
	for (const auto &sec : raw.sections) {
		if (normalize_section(sec.name) == "global")
			continue;
		ShareConfig sh{sec.name, sec.line, share_defaults};
		b.section(sec, false, unused, sh.params);
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
		ipc.params.set("read only", "yes");
		cfg.shares.push_back(std::move(ipc));
	}
	cfg.share_defaults = share_defaults;
	make_knobs(cfg, b, diags);
	// Samba: [global]'s value decides whether the POSIX negotiate
	// context is answered; each share's (by default [global]'s) whether
	// its opens take the POSIX create context.
	cfg.knobs.smb3_unix_extensions =
		share_defaults.boolean("smb3 unix extensions") ? 1 : 0;
	if (const std::string &m = cfg.global.str("metrics listen"); !m.empty()) {
		sockaddr_storage ss{};
		socklen_t len = 0;
		std::string why = http::parse_listen(m, ss, len);
		if (!why.empty())
			diags.error(raw.file, b.global_line("metrics listen"), "metrics listen: " + why);
	}
	cfg.knobs.host_rules = encode_host_rules(share_defaults.list("hosts allow"),
						 share_defaults.list("hosts deny"));
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

namespace {

// One section's parameters of a scope, by name, as (name, value).
std::vector<std::pair<std::string, std::string>> section_params(const ParamSet &set, Scope scope,
								bool with_defaults)
{
	std::vector<const ParamDef *> defs;
	for (const auto &d : table)
		if (in_scope(d, scope))
			defs.push_back(&d);
	std::sort(defs.begin(), defs.end(),
		  [](auto *a, auto *b) { return a->name < b->name; });
	std::vector<std::pair<std::string, std::string>> out;
	for (const auto *d : defs) {
		if (!set.has(d->name))
			continue;
		const std::string &v = set.str(d->name);
		if (!with_defaults && same_value(*d, v, d->def))
			continue;
		out.emplace_back(d->name, v);
	}
	return out;
}

// The same in ksmbd.conf syntax.
std::string dump_params(const ParamSet &set, Scope scope, bool with_defaults)
{
	std::string out;
	for (const auto &[name, v] : section_params(set, scope, with_defaults))
		out.append("\t").append(name).append(" = ").append(v).append("\n");
	return out;
}

} // namespace

std::vector<std::pair<std::string, std::string>> share_params(const ShareConfig &share,
							      bool with_defaults)
{
	return section_params(share.params, Scope::share, with_defaults);
}

std::string dump_share(const ShareConfig &share, bool with_defaults)
{
	return "[" + share.name + "]\n" +
	       dump_params(share.params, Scope::share, with_defaults);
}

std::string dump_config(const Config &cfg, bool with_defaults)
{
	std::string out = "[global]\n" +
			  dump_params(cfg.global, Scope::global, with_defaults);
	for (const auto &[k, v] : cfg.global.all()) {
		std::string dom, opt;
		if (idmap_key::parse(k, &dom, &opt) && dom != "*")
			out.append("\t").append(k).append(" = ").append(v).append("\n");
	}
	for (const auto &sh : cfg.shares)
		out += "\n" + dump_share(sh, with_defaults);
	return out;
}

} // namespace smbsrv
