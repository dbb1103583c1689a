// SPDX-License-Identifier: GPL-2.0-or-later
#include "knobs_nl.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <linux/smbsrv.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

namespace smbsrv {

namespace {

const KnobInfo knobs[] = {
	{"tcp-port", "tcp port", SMBSRV_A_KNOBS_TCP_PORT, &Knobs::tcp_port},
	{"max-connections", "max connections", SMBSRV_A_KNOBS_MAX_CONNECTIONS,
	 &Knobs::max_connections},
	{"smb2-max-read", "smb2 max read", SMBSRV_A_KNOBS_SMB2_MAX_READ,
	 &Knobs::smb2_max_read},
	{"smb2-max-write", "smb2 max write", SMBSRV_A_KNOBS_SMB2_MAX_WRITE,
	 &Knobs::smb2_max_write},
	{"smb2-max-trans", "smb2 max trans", SMBSRV_A_KNOBS_SMB2_MAX_TRANS,
	 &Knobs::smb2_max_trans},
	{"smb2-max-credits", "smb2 max credits", SMBSRV_A_KNOBS_SMB2_MAX_CREDITS,
	 &Knobs::smb2_max_credits},
	{"min-dialect", "server min protocol", SMBSRV_A_KNOBS_MIN_DIALECT,
	 &Knobs::min_dialect},
	{"max-dialect", "server max protocol", SMBSRV_A_KNOBS_MAX_DIALECT,
	 &Knobs::max_dialect},
	{"signing", "server signing", SMBSRV_A_KNOBS_SIGNING, &Knobs::signing},
	{"encryption", "smb3 encryption", SMBSRV_A_KNOBS_ENCRYPTION,
	 &Knobs::encryption},
	{"max-ip-connections", "max ip connections",
	 SMBSRV_A_KNOBS_MAX_IP_CONNECTIONS, &Knobs::max_ip_connections},
	{"max-sessions", "max active sessions", SMBSRV_A_KNOBS_MAX_SESSIONS,
	 &Knobs::max_sessions},
	{"max-open-files", "max open files", SMBSRV_A_KNOBS_MAX_OPEN_FILES,
	 &Knobs::max_open_files},
	{"deadtime", "deadtime", SMBSRV_A_KNOBS_DEADTIME, &Knobs::deadtime},
	{"upcall-timeout", "upcall timeout", SMBSRV_A_KNOBS_UPCALL_TIMEOUT,
	 &Knobs::upcall_timeout},
	{"frame-timeout", "frame timeout", SMBSRV_A_KNOBS_FRAME_TIMEOUT,
	 &Knobs::frame_timeout},
	{"route-policy", "route policy", SMBSRV_A_KNOBS_ROUTE_POLICY,
	 &Knobs::route_policy},
	{"splice-threshold", "splice threshold", SMBSRV_A_KNOBS_SPLICE_THRESHOLD,
	 &Knobs::splice_threshold},
	{"min-receivefile-size", "min receivefile size",
	 SMBSRV_A_KNOBS_MIN_RECEIVEFILE_SIZE, &Knobs::min_receivefile_size},
	{"response-batch", "response batch", SMBSRV_A_KNOBS_RESPONSE_BATCH,
	 &Knobs::response_batch},
	{"inline-reads", "inline reads", SMBSRV_A_KNOBS_INLINE_READS,
	 &Knobs::inline_reads},
	{"logon-timeout", "logon timeout", SMBSRV_A_KNOBS_LOGON_TIMEOUT,
	 &Knobs::logon_timeout},
	{"smb2-leases", "smb2 leases", SMBSRV_A_KNOBS_SMB2_LEASES,
	 &Knobs::smb2_leases},
	{"durable-handles", "durable handles", SMBSRV_A_KNOBS_DURABLE_HANDLES,
	 &Knobs::durable_handles},
	{"durable-handle-timeout", "durable handle timeout",
	 SMBSRV_A_KNOBS_DURABLE_HANDLE_TIMEOUT, &Knobs::durable_handle_timeout},
	{"multichannel", "server multi channel support", SMBSRV_A_KNOBS_MULTICHANNEL,
	 &Knobs::multichannel},
	{"smb3-unix-extensions", "smb3 unix extensions",
	 SMBSRV_A_KNOBS_SMB3_UNIX_EXTENSIONS, &Knobs::smb3_unix_extensions},
	{"server-max-open-files", "server max open files",
	 SMBSRV_A_KNOBS_SERVER_MAX_OPEN_FILES, &Knobs::server_max_open_files},
	{"max-open-files-per-user", "max open files per user",
	 SMBSRV_A_KNOBS_MAX_OPEN_FILES_PER_USER, &Knobs::max_open_files_per_user},
	{"netbios-name", "netbios name", SMBSRV_A_KNOBS_NETBIOS_NAME, nullptr},
};

// "Route_Policy", "route policy" and "route-policy" are one knob.
std::string fold(std::string_view s)
{
	std::string out;
	for (char c : s)
		if (c != '-' && c != '_' && c != ' ' && c != '\t')
			out += static_cast<char>(
				std::tolower(static_cast<unsigned char>(c)));
	return out;
}

std::string dialect_text(uint32_t d)
{
	switch (d) {
	case 0x0202: return "SMB2_02";
	case 0x0210: return "SMB2_10";
	case 0x0300: return "SMB3_00";
	case 0x0302: return "SMB3_02";
	case 0x0311: return "SMB3_11";
	default: return "0x" + std::to_string(d);
	}
}

} // namespace

std::span<const KnobInfo> knob_table()
{
	return knobs;
}

const KnobInfo *find_knob(std::string_view name)
{
	std::string f = fold(name);
	for (const auto &k : knobs)
		if (fold(k.name) == f || fold(k.param) == f)
			return &k;
	return nullptr;
}

bool put_knobs(nl_msg *msg, int type, const Knobs &k, std::span<const int> only)
{
	nlattr *nest = nla_nest_start(msg, type);
	if (!nest)
		return false;
	for (const auto &ki : knobs) {
		if (!only.empty() &&
		    std::find(only.begin(), only.end(), ki.attr) == only.end())
			continue;
		int err = ki.field ? nla_put_u32(msg, ki.attr, k.*ki.field)
				   : nla_put_string(msg, ki.attr,
						    k.netbios_name.c_str());
		if (err < 0) {
			nla_nest_cancel(msg, nest);
			return false;
		}
	}
	nla_nest_end(msg, nest);
	return true;
}

std::vector<int> parse_knobs(nlattr *nest, Knobs &k)
{
	std::vector<int> found;
	nlattr *tb[SMBSRV_A_KNOBS_MAX + 1] = {};
	if (!nest || nla_parse_nested(tb, SMBSRV_A_KNOBS_MAX, nest, nullptr) < 0)
		return found;
	for (const auto &ki : knobs) {
		const nlattr *a = tb[ki.attr];
		if (!a)
			continue;
		if (ki.field) {
			if (nla_len(a) < static_cast<int>(sizeof(uint32_t)))
				continue;
			std::memcpy(&(k.*ki.field), nla_data(a), sizeof(uint32_t));
		} else {
			const char *p = static_cast<const char *>(nla_data(a));
			k.netbios_name.assign(
				p, strnlen(p, static_cast<size_t>(nla_len(a))));
		}
		found.push_back(ki.attr);
	}
	return found;
}

std::string knob_text(const KnobInfo &ki, const Knobs &k)
{
	if (!ki.field)
		return k.netbios_name;
	uint32_t v = k.*ki.field;
	switch (ki.attr) {
	case SMBSRV_A_KNOBS_MIN_DIALECT:
	case SMBSRV_A_KNOBS_MAX_DIALECT:
		return dialect_text(v);
	case SMBSRV_A_KNOBS_SIGNING:
	case SMBSRV_A_KNOBS_ENCRYPTION:
		switch (v) {
		case SMBSRV_CONFIG_OPT_DISABLED: return "disabled";
		case SMBSRV_CONFIG_OPT_AUTO: return "auto";
		case SMBSRV_CONFIG_OPT_MANDATORY: return "mandatory";
		default: return std::to_string(v);
		}
	case SMBSRV_A_KNOBS_ROUTE_POLICY:
		switch (v) {
		case SMBSRV_ROUTE_POLICY_PERCPU: return "percpu";
		case SMBSRV_ROUTE_POLICY_UNBOUND: return "unbound";
		case SMBSRV_ROUTE_POLICY_ADAPTIVE: return "adaptive";
		default: return std::to_string(v);
		}
	case SMBSRV_A_KNOBS_INLINE_READS:
	case SMBSRV_A_KNOBS_SMB2_LEASES:
	case SMBSRV_A_KNOBS_DURABLE_HANDLES:
	case SMBSRV_A_KNOBS_MULTICHANNEL:
	case SMBSRV_A_KNOBS_SMB3_UNIX_EXTENSIONS:
		return v ? "yes" : "no";
	case SMBSRV_A_KNOBS_SMB2_MAX_READ:
	case SMBSRV_A_KNOBS_SMB2_MAX_WRITE:
	case SMBSRV_A_KNOBS_SMB2_MAX_TRANS:
	case SMBSRV_A_KNOBS_SPLICE_THRESHOLD:
		if (v && v % (1U << 20) == 0)
			return std::to_string(v >> 20) + "M";
		if (v && v % (1U << 10) == 0)
			return std::to_string(v >> 10) + "K";
		return std::to_string(v);
	default:
		return std::to_string(v);
	}
}

} // namespace smbsrv
