// SPDX-License-Identifier: GPL-2.0-or-later
#include "pipes.hpp"

#include <cctype>
#include <linux/smbsrv.h>

#include "log.hpp"
#include "ntstatus.hpp"

namespace smbsrv {

namespace {

// "\PIPE\srvsvc", "\srvsvc" and "SRVSVC" all name srvsvc.
std::string pipe_name(std::string n)
{
	for (auto &c : n)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	for (const char *prefix : {"\\pipe\\", "\\"})
		if (n.starts_with(prefix))
			n = n.substr(std::char_traits<char>::length(prefix));
	return n;
}

} // namespace

RpcDone PipeTable::read(Pipe &p, const RpcReq &req)
{
	RpcDone d;
	d.handle = req.handle;
	size_t n = std::min<size_t>(p.out.size(), req.max_out);
	d.data.assign(p.out.begin(), p.out.begin() + static_cast<long>(n));
	p.out.erase(p.out.begin(), p.out.begin() + static_cast<long>(n));
	// More to read: the client reads again (message-mode pipe semantics).
	d.status = p.out.empty() ? nt::SUCCESS : nt::BUFFER_OVERFLOW;
	return d;
}

RpcDone PipeTable::handle(const RpcReq &req)
{
	RpcDone d;
	d.handle = req.handle;
	auto key = std::make_pair(req.session_id, req.pipe_id);
	if (req.op == SMBSRV_RPC_OP_OPEN) {
		std::string name = pipe_name(req.pipe_name);
		auto ep = factory_ && !name.empty() ? factory_(name, req.user) : nullptr;
		if (!ep) {
			log::info("pipe '" + req.pipe_name + "' opened by '" + req.user +
				  "': no such pipe");
			d.status = nt::OBJECT_NAME_NOT_FOUND;
			return d;
		}
		if (pipes_.size() >= max_pipes && !pipes_.contains(key)) {
			log::warning("too many open pipes; refusing '" + req.pipe_name + "'");
			d.status = nt::INSUFFICIENT_RESOURCES;
			return d;
		}
		pipes_[key] = Pipe{std::move(ep), {}};
		d.status = nt::SUCCESS;
		return d;
	}
	auto it = pipes_.find(key);
	if (it == pipes_.end()) {
		d.status = nt::INVALID_HANDLE;
		return d;
	}
	Pipe &p = it->second;
	switch (req.op) {
	case SMBSRV_RPC_OP_CLOSE:
		pipes_.erase(it);
		d.status = nt::SUCCESS;
		return d;
	case SMBSRV_RPC_OP_WRITE:
	case SMBSRV_RPC_OP_TRANSACT: {
		Bytes answer = p.endpoint->process(req.data);
		if (p.out.size() + answer.size() > max_pending_out) {
			// A client that writes and never reads.
			d.status = nt::INSUFFICIENT_RESOURCES;
			return d;
		}
		append(p.out, answer);
		if (req.op == SMBSRV_RPC_OP_WRITE) {
			d.status = nt::SUCCESS;
			return d;
		}
		return read(p, req);
	}
	case SMBSRV_RPC_OP_READ:
		return read(p, req);
	default:
		d.status = nt::INVALID_PARAMETER;
		return d;
	}
}

} // namespace smbsrv
