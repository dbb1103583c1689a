// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the daemon's IPC$ RPC (userd/lib/rpc: DCE/RPC PDUs,
// bind/alter context, request reassembly, NDR decoding of the srvsvc and
// wkssvc calls) on arbitrary bytes written to a pipe.
//
// Input: one flags byte (bit 0: wkssvc instead of srvsvc, bit 1: the
// caller is an admin), one chunk byte (0: the rest is written at once,
// else in writes of that many bytes, as a client's WRITEs may split
// PDUs), then what the client writes.  Every answer must be whole,
// well-formed PDUs of the kinds a server sends, none longer than the
// fragment size smbsrv offers.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "log.hpp"
#include "rpc/dcerpc.hpp"
#include "rpc/rpc.hpp"

using namespace smbsrv;
using namespace smbsrv::rpc;

namespace {

ServerInfo server()
{
	ServerInfo info;
	info.netbios_name = "SMBSRV-FUZZ";
	info.workgroup = "WORKGROUP";
	info.server_string = "fuzz server";
	info.shares.push_back({"IPC$", "IPC Service", "", STYPE_IPC | STYPE_SPECIAL, true,
			       0xffffffff});
	info.shares.push_back({"data", "a share", "/srv/data", STYPE_DISKTREE, true, 10});
	info.shares.push_back({"hidden$", "", "/srv/h", STYPE_DISKTREE, false, 0xffffffff});
	return info;
}

// Whole PDUs, version 5.0, little-endian, of a type a server sends.
void check_answer(const Bytes &out)
{
	size_t off = 0;
	while (off < out.size()) {
		if (out.size() - off < 16)
			__builtin_trap();
		uint16_t len = get_u16(out, off + 8);
		uint8_t t = out[off + 2];
		if (out[off] != 5 || out[off + 1] != 0 || out[off + 4] != 0x10 || len < 16 ||
		    len > Endpoint::max_frag || out.size() - off < len)
			__builtin_trap();
		if (t != PTYPE_BIND_ACK && t != PTYPE_BIND_NAK && t != PTYPE_RESPONSE &&
		    t != PTYPE_FAULT && t != PTYPE_ALTER_CONTEXT_RESP)
			__builtin_trap();
		off += len;
	}
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet = [] {
		log::set_level(log::Level::error);
		return true;
	}();
	(void)quiet;
	if (size < 2)
		return 0;
	auto ep = open_pipe(data[0] & 1 ? "\\PIPE\\wkssvc" : "srvsvc", server(), data[0] & 2);
	if (!ep)
		__builtin_trap();
	size_t chunk = data[1] ? data[1] : size;
	ByteView in(data + 2, size - 2);
	while (!in.empty()) {
		size_t n = std::min(chunk, in.size());
		check_answer(ep->process(in.first(n)));
		in = in.subspan(n);
	}
	return 0;
}
