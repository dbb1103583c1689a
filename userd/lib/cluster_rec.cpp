// SPDX-License-Identifier: GPL-2.0-or-later
#include "cluster_rec.hpp"

#include <cstdio>

#include "ntstatus.hpp"

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

uint32_t check_open(const std::map<std::string, Bytes> &omap, std::string_view node,
		    std::string_view stream, uint32_t access, uint32_t share)
{
	for (const auto &[key, value] : omap) {
		size_t nl = 0, so = 0, sl = 0;
		if (smb_cluster_okey_split(key.data(), key.size(), &nl, &so, &sl) != 0)
			continue;
		if (std::string_view(key).substr(2, nl) == node ||
		    std::string_view(key).substr(so, sl) != stream)
			continue;
		smb_cluster_agg other{};
		if (smb_cluster_rec_decode(value.data(), value.size(), &other) != 0) {
			other.access = FILE_DATA_ACCESS;
			other.share = 0;
		}
		if (smb_share_conflict(access, share, other.access, other.share))
			return nt::SHARING_VIOLATION;
	}
	return nt::SUCCESS;
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

Bytes encode_push(const Push &p)
{
	smb_cluster_push m{};
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
	p.ino = m.ino;
	p.version = m.version;
	p.node.assign(m.node, m.node_len);
	p.stream.assign(m.stream, m.stream_len);
	p.locks.assign(m.locks, m.locks + m.nr_locks * SMB_CLUSTER_LOCK_LEN);
	return p;
}

} // namespace smbsrv::cluster
