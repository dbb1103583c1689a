// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: cluster mode's node records (userd/lib/cluster_rec.*)
// that a survivor reads from the state store, written by another node:
// the "addrs" value it blocklists, and the address parsers behind it
// (rados_getaddrs() output, the CephFS client's debugfs status), and the
// "fs" value of the cluster's "meta" object.  Every
// address that comes out is valid (nothing else reaches a monitor
// command), at most max_client_addrs of them, and a value written from
// them reads back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cluster_rec.hpp"

using namespace smbsrv::cluster;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string_view in(reinterpret_cast<const char *>(data), size);
	auto a = addrs_of(in);
	if (a.size() > max_client_addrs)
		abort();
	for (const auto &x : a)
		if (!valid_client_addr(x) || x.find_first_of(" \"\\,") != std::string::npos)
			abort();
	if (addrs_of(addrs_value(a)) != a)
		abort();
	auto r = rados_addrs(in);
	if (r.size() > max_client_addrs)
		abort();
	for (const auto &x : r)
		if (!valid_client_addr(x))
			abort();
	std::string s = cephfs_status_addr(in);
	if (!s.empty() && !valid_client_addr(s))
		abort();
	// meta's "fs": what reads writes back the same.
	if (auto f = fs_of(in); f && fs_value(*f) != in)
		abort();
	return 0;
}
