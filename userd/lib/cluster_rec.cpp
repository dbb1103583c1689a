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

} // namespace smbsrv::cluster
