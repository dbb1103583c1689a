// SPDX-License-Identifier: GPL-2.0-or-later
//
// Tree connect decisions: may this session connect to this share, and
// with which properties.  Pure function of the configuration, the request
// and the system's accounts, so that every rule is unit-tested.
#pragma once

#include <string>

#include "accounts.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv {

// The answer to one tree-connect-req (handle copied); a refusal is logged
// with its reason.
TreeConnectDone decide_tree_connect(const Config &cfg, const TreeConnectReq &req,
				    Accounts &accounts);

// Is user (or one of its groups, "@group" entries) in a user list?
bool user_in_list(const std::vector<std::string> &list, const std::string &user,
		  Accounts &accounts);

} // namespace smbsrv
