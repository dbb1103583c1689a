// SPDX-License-Identifier: GPL-2.0-or-later
//
// Accounts for the daemon's fuzz targets: every plausible name is a user
// (uid and gid 1000), no group exists.
#pragma once

#include "accounts.hpp"

namespace smbsrv::fuzz {

class AnyAccount final : public Accounts {
public:
	std::optional<Account> user(const std::string &name) override
	{
		if (name.empty() || name.size() > 64)
			return std::nullopt;
		return Account{name, 1000, 1000, {1000}};
	}
	std::optional<uint32_t> group(const std::string &) override { return std::nullopt; }
};

} // namespace smbsrv::fuzz
