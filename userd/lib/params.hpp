// SPDX-License-Identifier: GPL-2.0-or-later
//
// Every parameter smbsrv knows: ksmbd-tools' documented set plus smbsrv's
// own, with type, scope, default and whether smbsrv applies it.  Values are
// validated once when a configuration is built, so typed getters never fail.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config.hpp"

namespace smbsrv {

// global: [global] only.  share: any section; in [global] it is every
// share's default.  both: a server-wide value in [global] and a per-share
// value in a share section, each with the same default (ksmbd's "max
// connections" (G) and (S)).
enum class Scope { global, share, both };
enum class Type { boolean, integer, size, string, list, octal, choice };

// What happens to a number outside [min, max].
enum class Limit {
	none,	 // no range
	reject,	 // an error
	clamp,	 // a warning, and the nearest bound is used (ksmbd's clamps)
	saturate // 0 or above max means max, silently (ksmbd's "64k" limits)
};

// What smbsrv does with a parameter's value.
enum class Effect {
	applied,     // the daemon decides with it, or the module applies it
	unsupported, // accepted; a value other than the default is reported
	not_yet,     // a module knob smbsrv.ko does not apply yet: reported
		     // whenever it is set, whatever the value
};

struct ParamDef {
	std::string_view name; // canonical, as ksmbd.conf(5) spells it
	std::string_view def;	  // default, as text
	std::string_view choices; // Type::choice: '|'-separated, lower case
	long long min = 0, max = 0; // number range (string: length) when limited
	std::string_view word;	    // a number's alternative, lower case ("auto")
	Scope scope;
	Type type;
	Limit limit = Limit::none;
	Effect effect;
};

// "max connections = auto": one connection per 256 KiB of memory, at least
// 128 and at most 65536 (a 2 GiB machine: about 8000).  An idle connection
// costs the kernel about 6.6 KiB (host/flood), so they take under 3% of it.
uint32_t auto_max_connections(uint64_t ram_bytes);
// "server max open files = auto": one open per 32 KiB of memory, at least
// 1024 and at most 16M (a 2 GiB machine: 65536).  An open with its lease
// costs the kernel about 3 KiB of unreclaimable slab, so the opens of a
// full budget take under a tenth of it.
uint32_t auto_server_max_open_files(uint64_t ram_bytes);
// "max open files per user = auto": half the server's budget (0: none).
uint32_t auto_max_open_files_per_user(uint32_t server_max);
uint64_t physical_ram(); // bytes, sysinfo(2)

std::span<const ParamDef> param_table();

// Look a key up (any case, any blanks, synonyms).  *inverted is set for
// synonyms with the opposite sense ("writeable" for "read only").
const ParamDef *find_param(std::string_view key, bool *inverted = nullptr);

// The known parameter nearest to an unknown key, or "" if none is close.
std::string suggest_param(std::string_view key);

// Value parsing, shared with the CLI.
std::optional<bool> parse_bool(std::string_view v);
std::optional<uint64_t> parse_size(std::string_view v); // K/M/G/T suffixes
std::vector<std::string> parse_list(std::string_view v);

// One section's effective values: canonical name -> text.
class ParamSet {
public:
	void set(std::string_view name, std::string value) { v_[std::string(name)] = std::move(value); }
	[[nodiscard]] bool has(std::string_view name) const { return v_.contains(std::string(name)); }
	[[nodiscard]] const std::string &str(std::string_view name) const;
	[[nodiscard]] bool boolean(std::string_view name) const;
	[[nodiscard]] uint64_t number(std::string_view name) const; // integer, size, octal
	[[nodiscard]] std::vector<std::string> list(std::string_view name) const;
	[[nodiscard]] const std::map<std::string, std::string> &all() const { return v_; }

private:
	std::map<std::string, std::string> v_;
};

struct ShareConfig {
	std::string name;
	int line = 0;
	ParamSet params; // every share parameter, defaults filled in
};

// The knobs the daemon pushes to the module: the "knobs" attribute set of
// the YNL spec, field for field.  Enumerations hold the uapi values
// (enum smbsrv_config_opt, enum smbsrv_route_policy).  The defaults are the
// configuration's defaults (see the parameter table).
struct Knobs {
	uint32_t tcp_port = 445;
	uint32_t max_connections = auto_max_connections(physical_ram()); // "auto"
	uint32_t smb2_max_read = 4U << 20;
	uint32_t smb2_max_write = 4U << 20;
	uint32_t smb2_max_trans = 1U << 20;
	uint32_t smb2_max_credits = 8192;
	uint32_t min_dialect = 0x0210;
	uint32_t max_dialect = 0x0311;
	uint32_t signing = 0;	 // disabled
	uint32_t encryption = 1; // auto
	uint32_t max_ip_connections = 0;
	uint32_t max_sessions = 1024;
	uint32_t max_open_files = 10000;
	uint32_t deadtime = 0;
	uint32_t upcall_timeout = 10;
	uint32_t frame_timeout = 30;
	uint32_t route_policy = 0; // percpu
	uint32_t splice_threshold = 4U << 10;
	uint32_t min_receivefile_size = 64U << 10;
	uint32_t response_batch = 16;
	uint32_t inline_reads = 1;
	uint32_t logon_timeout = 20;
	uint32_t smb2_leases = 0;
	uint32_t durable_handles = 0;
	uint32_t durable_handle_timeout = 60;
	uint32_t multichannel = 0;
	uint32_t smb3_unix_extensions = 0;
	uint32_t server_max_open_files = auto_server_max_open_files(physical_ram());
	uint32_t max_open_files_per_user =
		auto_max_open_files_per_user(server_max_open_files);
	std::string netbios_name = "SMBSRV";
	// [global]'s hosts allow/deny, for the module to check at accept
	// (encode_host_rules(); not a knob of the knobs nest).
	std::vector<uint8_t> host_rules;
	// Where to listen (interfaces, bind interfaces only), each as the
	// module's listen-addr takes it; empty: every address.  Filled in by
	// smbsrvd from the interfaces it finds (listen_plan()).
	std::vector<std::vector<uint8_t>> listen_addrs;
	// clustering = yes: cluster mode (a server attribute of startup, not
	// a knob; fixed at the daemon's start).
	bool clustering = false;

	bool operator==(const Knobs &) const = default;
};

// The SMB2 dialect a "server min/max protocol" value names (SMB2_02 ...
// SMB3_11, and Samba's SMB2 = SMB2_10, SMB3 = SMB3_11); 0 if none.
uint32_t protocol_dialect(std::string_view name);

struct Config {
	std::string file;
	ParamSet global; // every global parameter, defaults filled in
	// The share parameters [global] set for every share (with their
	// defaults): what the share sections start from.
	ParamSet share_defaults;
	std::vector<ShareConfig> shares; // in file order, IPC$ included
	Knobs knobs;

	[[nodiscard]] const ShareConfig *share(std::string_view name) const;
};

// Build a typed configuration; every problem goes to diags with file:line.
Config build_config(const RawConfig &raw, Diagnostics &diags);

// Read and build a file.  A missing or unreadable file is an error in diags.
Config load_config_file(const std::string &path, Diagnostics &diags);

// The effective configuration, in ksmbd.conf syntax (like testparm).
std::string dump_config(const Config &cfg, bool with_defaults);
std::string dump_share(const ShareConfig &share, bool with_defaults);
// A share's parameters as dump_share lists them: (name, value) by name.
std::vector<std::pair<std::string, std::string>> share_params(const ShareConfig &share,
							      bool with_defaults);

} // namespace smbsrv
