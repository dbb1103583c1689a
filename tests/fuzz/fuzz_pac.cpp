// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the PAC's logon information (userd/lib/pac.cpp, an
// NDR KERB_VALIDATION_INFO as MIT GSSAPI hands it over) and what a
// Kerberos logon makes of it: the Authenticator with a fake acceptor that
// accepts every AP-REQ and passes the input on as the ticket's PAC, with
// idmap's rid backend for the domain, so that decoding, the SID cap,
// idmap and the token's SID list are all reached.  Seeds: a Samba AD DC's
// buffer and buffers Samba's NDR code made (tests/unit/data/pac/).
#include <cstddef>
#include <cstdint>
#include <string>

#include <linux/smbsrv.h>

#include "any_account.hpp"
#include "auth.hpp"
#include "params.hpp"
#include "kerberos.hpp"
#include "log.hpp"
#include "pac.hpp"
#include "spnego.hpp"

extern "C" {
#include "ntacl.h"
}

using namespace smbsrv;

namespace {

class PacAcceptor final : public krb5::Acceptor {
public:
	Bytes pac;
	krb5::Accepted accept(ByteView) override
	{
		krb5::Accepted a;
		a.kind = krb5::Accepted::Kind::ok;
		a.client = "user@AD.EXAMPLE";
		a.session_key = Bytes(16, 1);
		a.logon_info = pac;
		return a;
	}
};

Bytes ap_req()
{
	Bytes b = spnego::der::tlv(0x06, spnego::oid_krb5);
	append(b, Bytes{0x01, 0x00, 0x30});
	return spnego::der::tlv(0x60, b);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet = [] {
		log::set_level(log::Level::error);
		return true;
	}();
	(void)quiet;
	ByteView in(data, size);

	std::string why;
	auto info = pac::decode_logon_info(in, &why);
	if (info) {
		auto sids = info->token_sids();
		if (sids.empty() || sids.size() > pac::max_sids)
			__builtin_trap();
		std::vector<smb_sid> raw;
		for (const auto &s : sids)
			raw.push_back(s.raw());
		if (!smb_sids_sorted(raw.data(), static_cast<uint32_t>(raw.size())))
			__builtin_trap();
		for (const auto &s : sids)
			if (!Sid::decode(s.wire()) || !(*Sid::decode(s.wire()) == s))
				__builtin_trap();
	} else if (why.empty()) {
		__builtin_trap();
	}

	static fuzz::AnyAccount accounts;
	auto acceptor = std::make_shared<PacAcceptor>();
	acceptor->pac.assign(in.begin(), in.end());
	AuthPolicy policy;
	policy.kerberos = acceptor;
	policy.realm = (size & 1) ? "AD.EXAMPLE" : "";
	if (info) {
		Diagnostics d;
		Config c = build_config(parse_conf_text("[global]\nidmap config " + info->domain +
								" : backend = rid\nidmap config " +
								info->domain + " : range = 100000-199999\n",
							"fuzz", d),
					d);
		policy.idmap = Idmap::from_params(c.global);
	}
	Authenticator auth(
		policy, [](const std::string &) { return std::nullopt; }, accounts);
	AuthResult r = auth.step(42, "10.0.0.1", ap_req());
	if (r.status == 0 && (!info || r.sids.size() != info->token_sids().size()))
		__builtin_trap();
	return 0;
}
