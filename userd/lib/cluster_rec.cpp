// SPDX-License-Identifier: GPL-2.0-or-later
#include "cluster_rec.hpp"

#include <cstdio>

#include "ntstatus.hpp"

extern "C" {
#include "oplock.h"
}

namespace smbsrv::cluster {

std::string file_object(uint64_t ino)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "f.%llx", static_cast<unsigned long long>(ino));
	return buf;
}

std::string node_object(std::string_view node)
{
	return "node." + std::string(node);
}

std::string open_key(std::string_view node, std::string_view stream)
{
	return "o." + std::string(node) + "." + std::string(stream);
}

Bytes open_value(const smb_cluster_agg &a)
{
	Bytes v(SMB_CLUSTER_REC_LEN);
	smb_cluster_rec_encode(&a, v.data());
	return v;
}

bool valid_node_name(std::string_view node)
{
	if (node.empty() || node.size() > 64)
		return false;
	for (char c : node)
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	return true;
}

namespace {

// Each other node's aggregate of @stream in @omap, with its name; a
// value that does not decode counts as an open denying everything and
// caching nothing.
template <class F>
void other_opens(const std::map<std::string, Bytes> &omap, std::string_view node,
		 std::string_view stream, F &&fn)
{
	for (const auto &[key, value] : omap) {
		size_t nl = 0, so = 0, sl = 0;
		if (smb_cluster_okey_split(key.data(), key.size(), &nl, &so, &sl) != 0)
			continue;
		std::string_view name = std::string_view(key).substr(2, nl);
		if (name == node || std::string_view(key).substr(so, sl) != stream)
			continue;
		smb_cluster_agg other{};
		if (smb_cluster_rec_decode(value.data(), value.size(), &other) != 0) {
			other.access = FILE_DATA_ACCESS;
			other.share = 0;
			other.caching = 0;
		}
		fn(name, other);
	}
}

} // namespace

uint32_t check_open(const std::map<std::string, Bytes> &omap, std::string_view node,
		    std::string_view stream, uint32_t access, uint32_t share)
{
	bool conflict = false;
	other_opens(omap, node, stream, [&](std::string_view, const smb_cluster_agg &o) {
		conflict = conflict || smb_share_conflict(access, share, o.access, o.share);
	});
	return conflict ? nt::SHARING_VIOLATION : nt::SUCCESS;
}

uint32_t caching_cover(const std::map<std::string, Bytes> &omap, std::string_view node,
		       std::string_view stream)
{
	uint32_t cover = SMB_CLUSTER_CACHING;
	other_opens(omap, node, stream, [&](std::string_view, const smb_cluster_agg &o) {
		cover &= smb_cluster_cover(o.access);
	});
	return cover;
}

std::map<std::string, uint32_t> caching_breaks(const std::map<std::string, Bytes> &omap,
					       std::string_view node, std::string_view stream,
					       uint32_t access, bool violation)
{
	std::map<std::string, uint32_t> out;
	other_opens(omap, node, stream, [&](std::string_view name, const smb_cluster_agg &o) {
		if (uint32_t drop = smb_cluster_break_bits(o.caching, access, violation))
			out[std::string(name)] = drop;
	});
	return out;
}

std::string delete_key(std::string_view stream)
{
	return "dp." + std::string(stream);
}

namespace {

// Whether some node (any) has an "o." key of @stream in @omap.
bool any_open(const std::map<std::string, Bytes> &omap, std::string_view stream)
{
	bool found = false;
	other_opens(omap, {}, stream, [&](std::string_view, const smb_cluster_agg &) { found = true; });
	return found;
}

} // namespace

bool delete_pending(const std::map<std::string, Bytes> &omap, std::string_view stream)
{
	if (omap.count(delete_key(stream)) && any_open(omap, stream))
		return true;
	// A file pending deletion: its streams too.
	return !stream.empty() && omap.count(delete_key({})) && any_open(omap, {});
}

std::set<std::string> other_openers(const std::map<std::string, Bytes> &omap,
				    std::string_view node, std::string_view stream)
{
	std::set<std::string> out;
	other_opens(omap, node, stream,
		    [&](std::string_view name, const smb_cluster_agg &) { out.emplace(name); });
	return out;
}

std::set<std::string> handle_holders(const std::map<std::string, Bytes> &omap,
				     std::string_view node, std::string_view stream)
{
	std::set<std::string> out;
	other_opens(omap, node, stream, [&](std::string_view name, const smb_cluster_agg &o) {
		if (o.caching & SMB2_LEASE_HANDLE)
			out.emplace(name);
	});
	return out;
}

std::optional<bool> acks_busy(const uint8_t *data, size_t len)
{
	auto le32 = [&](size_t off) {
		return uint32_t(data[off]) | uint32_t(data[off + 1]) << 8 |
		       uint32_t(data[off + 2]) << 16 | uint32_t(data[off + 3]) << 24;
	};
	if (len < 4)
		return std::nullopt;
	uint32_t n = le32(0);
	size_t off = 4;
	bool busy = false;
	for (uint32_t i = 0; i < n; i++) {
		if (len - off < 20)
			return std::nullopt;
		uint32_t l = le32(off + 16);
		off += 20;
		if (len - off < l)
			return std::nullopt;
		if (l && data[off])
			busy = true;
		off += l;
	}
	if (len - off < 4)
		return std::nullopt;
	uint32_t t = le32(off);
	off += 4;
	if ((len - off) / 16 < t)
		return std::nullopt;
	return busy;
}

std::string lock_key(std::string_view node, std::string_view stream)
{
	return "b." + std::string(node) + "." + std::string(stream);
}

uint32_t check_locks(const std::map<std::string, Bytes> &omap, std::string_view node,
		     std::string_view stream, const Bytes &mine)
{
	int n = smb_cluster_locks_check(mine.data(), mine.size());
	if (n < 0)
		return nt::INVALID_PARAMETER;
	for (const auto &[key, value] : omap) {
		size_t nl = 0, so = 0, sl = 0;
		if (smb_cluster_key_split(key.data(), key.size(), 'b', &nl, &so, &sl) != 0)
			continue;
		if (std::string_view(key).substr(2, nl) == node ||
		    std::string_view(key).substr(so, sl) != stream)
			continue;
		int m = smb_cluster_locks_check(value.data(), value.size());
		if (m < 0) {
			if (n > 0)
				return nt::LOCK_NOT_GRANTED;
			continue;
		}
		for (int i = 0; i < n; i++) {
			smb_cluster_lock l{};
			smb_cluster_lock_get(mine.data(), static_cast<size_t>(i), &l);
			if (smb_cluster_locks_conflict(value.data(), static_cast<size_t>(m),
						       l.offset, l.length, l.exclusive, true))
				return nt::LOCK_NOT_GRANTED;
		}
	}
	return nt::SUCCESS;
}

std::set<std::string> nodes_with_opens(const std::map<std::string, Bytes> &omap,
				       std::string_view node)
{
	std::set<std::string> out;
	for (const auto &[key, value] : omap) {
		size_t nl = 0, so = 0, sl = 0;
		if (smb_cluster_okey_split(key.data(), key.size(), &nl, &so, &sl) != 0)
			continue;
		std::string n = key.substr(2, nl);
		if (n != node)
			out.insert(n);
	}
	return out;
}

namespace {

bool decimal(std::string_view s, size_t max_digits)
{
	if (s.empty() || s.size() > max_digits)
		return false;
	for (char c : s)
		if (c < '0' || c > '9')
			return false;
	return true;
}

bool valid_ipv4(std::string_view s)
{
	for (int i = 0; i < 4; i++) {
		size_t dot = s.find('.');
		std::string_view part = i < 3 ? s.substr(0, dot) : s;
		if ((i < 3 && dot == std::string_view::npos) || !decimal(part, 3) ||
		    std::stoi(std::string(part)) > 255)
			return false;
		if (i < 3)
			s.remove_prefix(dot + 1);
	}
	return true;
}

bool valid_ipv6(std::string_view s)
{
	if (s.size() < 2 || s.size() > 45)
		return false;
	for (char c : s)
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		      (c >= 'A' && c <= 'F') || c == ':' || c == '.'))
			return false;
	return s.find(':') != std::string_view::npos;
}

std::string_view untyped(std::string_view a)
{
	for (std::string_view t : {"v1:", "v2:", "any:"})
		if (a.substr(0, t.size()) == t)
			return a.substr(t.size());
	return a;
}

} // namespace

bool valid_client_addr(std::string_view a)
{
	size_t slash = a.rfind('/');
	if (slash == std::string_view::npos || !decimal(a.substr(slash + 1), 10))
		return false;
	std::string_view hostport = a.substr(0, slash);
	size_t colon = hostport.rfind(':');
	if (colon == std::string_view::npos || !decimal(hostport.substr(colon + 1), 5) ||
	    std::stoul(std::string(hostport.substr(colon + 1))) > 65535)
		return false;
	std::string_view host = hostport.substr(0, colon);
	if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
		return valid_ipv6(host.substr(1, host.size() - 2));
	return valid_ipv4(host);
}

std::vector<std::string> rados_addrs(std::string_view s)
{
	if (s.size() >= 2 && s.front() == '[' && s.back() == ']')
		s = s.substr(1, s.size() - 2);
	std::vector<std::string> out;
	while (!s.empty()) {
		size_t comma = s.find(',');
		std::string_view a = untyped(s.substr(0, comma));
		if (!valid_client_addr(a) || out.size() == max_client_addrs)
			return {};
		out.emplace_back(a);
		s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
	}
	return out;
}

Bytes encode_push(const Push &p)
{
	smb_cluster_push m{};
	m.kind = p.kind;
	m.caching = p.caching;
	m.ino = p.ino;
	m.version = p.version;
	m.node = p.node.data();
	m.node_len = p.node.size();
	m.stream = p.stream.data();
	m.stream_len = p.stream.size();
	m.locks = p.locks.data();
	m.nr_locks = p.locks.size() / SMB_CLUSTER_LOCK_LEN;
	Bytes out(smb_cluster_push_len(&m));
	smb_cluster_push_encode(&m, out.data());
	return out;
}

std::optional<Push> decode_push(const uint8_t *data, size_t len)
{
	smb_cluster_push m{};
	if (smb_cluster_push_decode(data, len, &m) != 0)
		return std::nullopt;
	Push p;
	p.kind = m.kind;
	p.caching = m.caching;
	p.ino = m.ino;
	p.version = m.version;
	p.node.assign(m.node, m.node_len);
	p.stream.assign(m.stream, m.stream_len);
	if (m.nr_locks)
		p.locks.assign(m.locks, m.locks + m.nr_locks * SMB_CLUSTER_LOCK_LEN);
	return p;
}

std::string cephfs_status_addr(std::string_view status)
{
	constexpr std::string_view tag = "instance: ";
	if (status.substr(0, tag.size()) != tag)
		return {};
	status.remove_prefix(tag.size());
	size_t sp = status.find(' ');
	if (sp == std::string_view::npos)
		return {};
	status.remove_prefix(sp + 1);
	// The kernel prints the address's type first: "(2)" for msgr2.
	if (size_t close = status.find(')');
	    !status.empty() && status[0] == '(' && close != std::string_view::npos &&
	    close <= 3 && decimal(status.substr(1, close - 1), 2))
		status.remove_prefix(close + 1);
	std::string_view a = status.substr(0, status.find_first_of(" \n"));
	return valid_client_addr(a) ? std::string(a) : std::string();
}

std::string addrs_value(const std::vector<std::string> &addrs)
{
	std::string v;
	for (size_t i = 0; i < addrs.size() && i < max_client_addrs; i++)
		v += (v.empty() ? "" : " ") + addrs[i];
	return v;
}

std::string fs_value(const FsIdent &f)
{
	char buf[32];
	std::snprintf(buf, sizeof(buf), "1 %08x %u", f.fsid_xor, f.fscid);
	return buf;
}

std::optional<FsIdent> fs_of(std::string_view v)
{
	if (v.size() < 12 || v.substr(0, 2) != "1 " || v[10] != ' ')
		return std::nullopt;
	FsIdent f;
	for (char c : v.substr(2, 8)) {
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return std::nullopt;
		f.fsid_xor = f.fsid_xor << 4 | uint32_t(d);
	}
	std::string_view id = v.substr(11);
	if (!decimal(id, 10) || (id.size() > 1 && id[0] == '0') ||
	    std::stoull(std::string(id)) > UINT32_MAX)
		return std::nullopt;
	f.fscid = uint32_t(std::stoull(std::string(id)));
	return f;
}

std::vector<std::string> addrs_of(std::string_view value)
{
	std::vector<std::string> out;
	while (!value.empty() && out.size() < max_client_addrs) {
		size_t sp = value.find(' ');
		std::string_view a = value.substr(0, sp);
		if (valid_client_addr(a))
			out.emplace_back(a);
		value = sp == std::string_view::npos ? std::string_view() : value.substr(sp + 1);
	}
	return out;
}

} // namespace smbsrv::cluster
