// SPDX-License-Identifier: GPL-2.0-or-later
//
// System accounts: SMB users are mapped to Unix users of the same name,
// with their primary group and supplementary groups.  An interface, so
// that tests can use accounts that do not exist on the build machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smbsrv {

struct Account {
	std::string name;
	uint32_t uid = 0;
	uint32_t gid = 0;		 // primary group
	std::vector<uint32_t> groups; // supplementary groups, primary included
};

class Accounts {
public:
	virtual ~Accounts() = default;
	virtual std::optional<Account> user(const std::string &name) = 0;
	virtual std::optional<uint32_t> group(const std::string &name) = 0;
};

// getpwnam_r, getgrouplist and getgrnam_r: /etc/passwd, /etc/group and
// whatever NSS adds.
class SystemAccounts final : public Accounts {
public:
	std::optional<Account> user(const std::string &name) override;
	std::optional<uint32_t> group(const std::string &name) override;
};

} // namespace smbsrv
