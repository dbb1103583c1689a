// SPDX-License-Identifier: GPL-2.0-or-later
//
// Security identifiers (MS-DTYP 2.4.2) on the daemon's side: the module's
// struct smb_sid (kmod/wire/secdesc.h) with its wire encoding and order,
// plus the "S-1-5-21-..." text form for logs and configuration.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bytes.hpp"

extern "C" {
#include "secdesc.h"
}

namespace smbsrv {

class Sid {
public:
	Sid() = default;
	explicit Sid(const smb_sid &s) : s_(s) {}
	// "S-1-5-21-1-2-3": revision 1, an authority below 2^48, at most 15
	// sub-authorities of 32 bits.
	static std::optional<Sid> parse(std::string_view text);
	// The wire form (8 + 4 per sub-authority bytes); nullopt unless
	// exactly one SID.
	static std::optional<Sid> decode(ByteView wire);

	[[nodiscard]] std::string str() const;
	[[nodiscard]] Bytes wire() const;
	[[nodiscard]] const smb_sid &raw() const { return s_; }
	[[nodiscard]] unsigned count() const { return s_.count; }

	// This SID with one more sub-authority (a domain SID and a RID);
	// nullopt when it has 15 already.
	[[nodiscard]] std::optional<Sid> with_rid(uint32_t rid) const;
	// Whether this SID is @domain plus one RID; the RID then in *rid.
	[[nodiscard]] bool in_domain(const Sid &domain, uint32_t *rid) const;

	friend bool operator==(const Sid &a, const Sid &b) { return smb_sid_equal(&a.s_, &b.s_); }
	friend bool operator<(const Sid &a, const Sid &b) { return smb_sid_cmp(&a.s_, &b.s_) < 0; }

private:
	smb_sid s_{1, 0, {}, {}};
};

} // namespace smbsrv
