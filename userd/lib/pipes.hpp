// SPDX-License-Identifier: GPL-2.0-or-later
//
// Named pipes on IPC$: the module passes pipe opens, writes, reads and
// transactions up (rpc-req); each open pipe is bound to an RPC endpoint
// that turns request PDUs into response bytes, which wait in the pipe
// until the client reads them.  The DCE/RPC marshalling (srvsvc, wkssvc)
// plugs in through RpcEndpointFactory; a pipe nobody serves does not
// exist (STATUS_OBJECT_NAME_NOT_FOUND, as Windows answers).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bytes.hpp"
#include "netlink.hpp"

namespace smbsrv {

class RpcEndpoint {
public:
	virtual ~RpcEndpoint() = default;
	// Bytes the client wrote to the pipe; the bytes it will read back.
	virtual Bytes process(ByteView request) = 0;
};

// An endpoint for a pipe name ("srvsvc", any case, without \PIPE\), or
// nullptr when there is no such pipe.
using RpcEndpointFactory = std::function<std::unique_ptr<RpcEndpoint>(
	const std::string &pipe, const std::string &user)>;

class PipeTable {
public:
	explicit PipeTable(RpcEndpointFactory factory) : factory_(std::move(factory)) {}
	RpcDone handle(const RpcReq &req);
	[[nodiscard]] size_t open_pipes() const { return pipes_.size(); }

	static constexpr size_t max_pipes = 4096;
	static constexpr size_t max_pending_out = 4U << 20;

private:
	struct Pipe {
		std::unique_ptr<RpcEndpoint> endpoint;
		Bytes out; // response bytes not yet read
	};
	RpcDone read(Pipe &p, const RpcReq &req);

	RpcEndpointFactory factory_;
	std::map<std::pair<uint64_t, uint32_t>, Pipe> pipes_;
};

} // namespace smbsrv
