// SPDX-License-Identifier: GPL-2.0-or-later
//
// IPC$ named pipes served by the daemon: DCE/RPC connection-oriented PDUs
// (bind, alter context, request; bind_ack, response, fault) with the srvsvc
// and wkssvc calls that share browsing needs.  Pure bytes in, bytes out:
// the daemon's PipeTable feeds each pipe's writes to an endpoint made here
// and hands back what it answers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "accounts.hpp"
#include "params.hpp"
#include "pipes.hpp"

namespace smbsrv::rpc {

// What srvsvc and wkssvc tell about the server (a snapshot, taken when the
// pipe is opened).
struct ShareInfo {
	std::string name;
	std::string comment;
	std::string path; // Unix path; told as C:\... and to admins only
	uint32_t type = 0; // STYPE_*
	bool browseable = true;
	uint32_t max_uses = 0xffffffff;
};

struct ServerInfo {
	std::string netbios_name; // "SMBSRV"
	std::string workgroup;
	std::string server_string; // the comment next to the name
	std::vector<ShareInfo> shares;
};

constexpr uint32_t STYPE_DISKTREE = 0;
constexpr uint32_t STYPE_IPC = 3;
constexpr uint32_t STYPE_SPECIAL = 0x80000000;

// The server as a configuration describes it.
ServerInfo server_info(const Config &cfg);

// An endpoint for one open pipe: "srvsvc" or "wkssvc" (any case, with or
// without \PIPE\); nullptr for any other name.  `admin` callers may see
// levels that reveal server paths (NetShareEnum/GetInfo level 2), as on
// Windows, where they are for administrators.
std::unique_ptr<RpcEndpoint> open_pipe(const std::string &pipe, ServerInfo info,
				       bool admin);

// The pipe as the daemon opens it for `user` under configuration `cfg`:
// admins are the `admin users` of IPC$ (or of [global], its default),
// names or @groups (looked up in `accounts`).
std::unique_ptr<RpcEndpoint> open_pipe(const std::string &pipe, const Config &cfg,
				       const std::string &user, Accounts &accounts);

} // namespace smbsrv::rpc
