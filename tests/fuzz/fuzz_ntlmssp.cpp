// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the daemon's NTLMSSP parsing and verification
// (userd/lib/ntlmssp.*) on arbitrary bytes.  The input is tried as a
// NEGOTIATE, as an AV pair list, and as the AUTHENTICATE of an exchange
// whose every user has a password, so that the whole verification path
// (NTLMv2 proof, KEY_EXCH, MIC, session security) runs.
#include <cstddef>
#include <cstdint>

#include "log.hpp"
#include "ntlmssp.hpp"

using namespace smbsrv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet = [] {
		log::set_level(log::Level::error);
		return true;
	}();
	(void)quiet;
	ByteView in(data, size);

	ntlm::parse_av_pairs(in);
	ntlm::parse_authenticate(in);

	ntlm::Entropy fixed;
	fixed.random = [](std::span<uint8_t> out) {
		for (size_t i = 0; i < out.size(); i++)
			out[i] = static_cast<uint8_t>(i * 17 + 1);
	};
	fixed.now = [] { return uint64_t{0x01d0000000000000}; };

	ntlm::Server first({}, fixed);
	first.challenge(in);

	// A NEGOTIATE asking for everything, then the input as AUTHENTICATE.
	Bytes negotiate{'N', 'T', 'L', 'M', 'S', 'S', 'P', 0, 1, 0, 0, 0,
			0x37, 0x82, 0x08, 0xe2};
	negotiate.resize(40, 0);
	ntlm::Server s({}, fixed);
	if (!s.challenge(negotiate))
		__builtin_trap();
	auto lookup = [](const std::string &user) -> std::optional<ntlm::Credential> {
		return ntlm::Credential{user, *nt_hash("Password")};
	};
	ntlm::Verdict v = s.authenticate(in, lookup);
	if (v.kind == ntlm::Verdict::Kind::ok && v.session_key.size() != 16)
		__builtin_trap();
	if (auto *sec = s.security()) {
		Bytes sig = sec->sign(in);
		sec->verify(in, sig);
	}
	return 0;
}
