// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: SPNEGO/DER parsing (userd/lib/spnego.*) and the
// daemon's whole session-setup state machine (userd/lib/auth.*).  The
// input is parsed as NegTokenInit and NegTokenResp, then split at each
// "\xff\xfe\xfd" into up to four legs of one session setup.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "any_account.hpp"
#include "auth.hpp"
#include "log.hpp"
#include "spnego.hpp"

using namespace smbsrv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet = [] {
		log::set_level(log::Level::error);
		return true;
	}();
	(void)quiet;
	ByteView in(data, size);

	if (auto init = spnego::parse_init(in)) {
		for (ByteView m : init->mech_types)
			spnego::oid_str(m);
	}
	spnego::parse_resp(in);

	static fuzz::AnyAccount accounts;
	ntlm::Entropy fixed;
	fixed.random = [](std::span<uint8_t> out) {
		for (size_t i = 0; i < out.size(); i++)
			out[i] = static_cast<uint8_t>(i * 29 + 3);
	};
	fixed.now = [] { return uint64_t{0x01d0000000000000}; };
	AuthPolicy policy;
	policy.map_to_guest = MapToGuest::bad_password;
	Authenticator auth(
		policy,
		[](const std::string &user) -> std::optional<ntlm::Credential> {
			if (user.empty())
				return std::nullopt;
			return ntlm::Credential{user, *nt_hash("Password")};
		},
		accounts, fixed);

	static const uint8_t sep[3] = {0xff, 0xfe, 0xfd};
	size_t start = 0;
	for (int leg = 0; leg < 4 && start <= size; leg++) {
		size_t end = start;
		while (end + 3 <= size && std::memcmp(data + end, sep, 3) != 0)
			end++;
		if (end + 3 > size)
			end = size;
		AuthResult r = auth.step(42, "10.0.0.1", in.subspan(start, end - start));
		if (r.status == 0 && r.user.empty())
			__builtin_trap();
		start = end + 3;
	}
	return 0;
}
