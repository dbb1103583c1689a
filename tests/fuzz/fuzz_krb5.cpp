// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the Kerberos token wrapper and everything the daemon
// decides around a Kerberos logon without GSSAPI: the GSS-API framing
// (userd/lib/kerberos.*: which mechanism a token is for, whether it is an
// AP-REQ), principal splitting, the username map parser, and the
// Authenticator's SPNEGO state machine with Kerberos on (a fake acceptor
// accepts a framed AP-REQ whose body starts with "ok", so the accept,
// mechListMIC and extra-leg paths are reached).  The input is split at
// each "\xff\xfe\xfd" into up to four session setup legs; the whole input
// is also parsed as a token, a principal and a username map.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include <linux/smbsrv.h>

#include "any_account.hpp"
#include "auth.hpp"
#include "kerberos.hpp"
#include "log.hpp"
#include "spnego.hpp"
#include "usermap.hpp"

using namespace smbsrv;

namespace {

class EchoContext final : public krb5::Context {
public:
	std::optional<Bytes> get_mic(ByteView msg) override
	{
		Bytes m(msg.begin(), msg.end());
		m.push_back(0x4d);
		return m;
	}
	bool verify_mic(ByteView msg, ByteView mic) override { return *get_mic(msg) == Bytes(mic.begin(), mic.end()); }
};

class FakeAcceptor final : public krb5::Acceptor {
public:
	krb5::Accepted accept(ByteView token) override
	{
		krb5::Accepted a;
		auto f = krb5::parse_framed(token);
		if (!f || f->inner.size() < 4) {
			a.kind = krb5::Accepted::Kind::malformed;
			return a;
		}
		if (f->inner[2] != 'o' || f->inner[3] != 'k')
			return a;
		a.kind = krb5::Accepted::Kind::ok;
		a.client = std::string(f->inner.begin() + 4, f->inner.end());
		a.session_key = Bytes(16, 1);
		a.output = Bytes{0x60, 0x00};
		a.context = std::make_unique<EchoContext>();
		return a;
	}
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet = [] {
		log::set_level(log::Level::error);
		return true;
	}();
	(void)quiet;
	ByteView in(data, size);

	if (auto f = krb5::parse_framed(in)) {
		if (f->inner.size() > in.size())
			__builtin_trap();
	}
	krb5::is_ap_req(in);
	std::string text(reinterpret_cast<const char *>(data), size);
	auto [name, realm] = krb5::split_principal(text);
	if (name.size() + realm.size() > text.size())
		__builtin_trap();
	Diagnostics d;
	UsernameMap map = UsernameMap::parse(text, "fuzz", d);
	if (map.map(text) && map.empty())
		__builtin_trap();
	if (map.map(name) && map.empty())
		__builtin_trap();

	static fuzz::AnyAccount accounts;
	AuthPolicy policy;
	policy.kerberos = std::make_shared<FakeAcceptor>();
	policy.realm = "R";
	policy.map_to_guest = (size & 1) ? MapToGuest::bad_user : MapToGuest::never;
	policy.ntlm = size & 2;
	Authenticator auth(
		policy, [](const std::string &) { return std::nullopt; }, accounts);

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
		if (r.status == 0 && (r.flags & SMBSRV_SESSION_FLAGS_KERBEROS) && r.principal.empty())
			__builtin_trap();
		start = end + 3;
	}
	return 0;
}
