// SPDX-License-Identifier: GPL-2.0-or-later
#include "kerberos.hpp"

#include <algorithm>
#include <cctype>
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>
#include <vector>

#include "log.hpp"
#include "spnego.hpp"

namespace smbsrv::krb5 {

std::optional<Framed> parse_framed(ByteView token)
{
	auto app = spnego::der::only(token, 0x60);
	if (!app)
		return std::nullopt;
	spnego::der::Reader r(app->value);
	spnego::der::Tlv oid;
	if (!r.next(oid) || oid.tag != 0x06 || oid.value.empty())
		return std::nullopt;
	return Framed{oid.value, app->value.subspan(oid.encoding.size())};
}

namespace {

bool same(ByteView a, ByteView b)
{
	return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

std::string lower(std::string s)
{
	for (auto &c : s)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return s;
}

} // namespace

bool is_ap_req(ByteView token)
{
	auto f = parse_framed(token);
	return f && (same(f->mech, spnego::oid_krb5) || same(f->mech, spnego::oid_ms_krb5)) &&
	       f->inner.size() > 2 && f->inner[0] == 0x01 && f->inner[1] == 0x00;
}

std::pair<std::string, std::string> split_principal(const std::string &p)
{
	for (size_t i = p.size(); i-- > 0;) {
		if (p[i] != '@')
			continue;
		size_t bs = 0;
		for (size_t j = i; j-- > 0 && p[j] == '\\';)
			bs++;
		if (bs % 2 == 0)
			return {p.substr(0, i), p.substr(i + 1)};
	}
	return {p, ""};
}

namespace {

// RAII for the few GSSAPI handles used here.
struct Buffer {
	gss_buffer_desc b{0, nullptr};
	~Buffer()
	{
		OM_uint32 m;
		gss_release_buffer(&m, &b);
	}
	[[nodiscard]] std::string str() const
	{
		return {static_cast<const char *>(b.value), b.length};
	}
	[[nodiscard]] Bytes bytes() const
	{
		auto *p = static_cast<const uint8_t *>(b.value);
		return {p, p + b.length};
	}
};

struct Name {
	gss_name_t n = GSS_C_NO_NAME;
	~Name()
	{
		OM_uint32 m;
		if (n != GSS_C_NO_NAME)
			gss_release_name(&m, &n);
	}
	[[nodiscard]] std::string str() const
	{
		OM_uint32 m;
		Buffer out;
		if (n == GSS_C_NO_NAME || gss_display_name(&m, n, &out.b, nullptr) != GSS_S_COMPLETE)
			return "";
		return out.str();
	}
};

gss_buffer_desc view(ByteView b)
{
	return {b.size(), const_cast<uint8_t *>(b.data())};
}

// GSSAPI's own words for a status.
std::string status_text(OM_uint32 code, int type)
{
	std::string s;
	OM_uint32 ctx = 0, m;
	do {
		Buffer out;
		if (gss_display_status(&m, code, type, GSS_C_NO_OID, &ctx, &out.b) !=
		    GSS_S_COMPLETE)
			break;
		if (!s.empty())
			s += "; ";
		s += out.str();
	} while (ctx);
	return s;
}

// Why a ticket was refused, in an administrator's words.
std::string refusal(OM_uint32 major, OM_uint32 minor)
{
	std::string why;
	switch (static_cast<krb5_error_code>(minor)) {
	case KRB5KRB_AP_ERR_SKEW:
		why = "clock skew too great";
		break;
	case KRB5KRB_AP_ERR_REPEAT:
		why = "replayed authenticator";
		break;
	case KRB5KRB_AP_ERR_TKT_EXPIRED:
		why = "ticket expired";
		break;
	case KRB5KRB_AP_ERR_TKT_NYV:
		why = "ticket not yet valid";
		break;
	case KRB5_KT_KVNONOTFOUND:
	case KRB5KRB_AP_ERR_BADKEYVER:
		why = "no key for the ticket's key version (kvno) in the keytab";
		break;
	case KRB5KRB_AP_ERR_BAD_INTEGRITY:
	case KRB5KRB_AP_ERR_MODIFIED:
		why = "the ticket does not decrypt with the keytab's key";
		break;
	case KRB5_KT_NOTFOUND:
	case KRB5KRB_AP_WRONG_PRINC:
	case KRB5KRB_AP_ERR_NOT_US:
		why = "ticket for a service principal not in the keytab";
		break;
	case KRB5_BAD_ENCTYPE:
	case KRB5_PROG_ETYPE_NOSUPP:
		why = "no key of the ticket's encryption type in the keytab";
		break;
	default:
		why = "not accepted";
		break;
	}
	std::string detail = status_text(GSS_ROUTINE_ERROR(major), GSS_C_GSS_CODE);
	if (minor)
		detail += ": " + status_text(minor, GSS_C_MECH_CODE) + " [minor " +
			  std::to_string(static_cast<krb5_error_code>(minor)) + "]";
	return why + " (" + detail + ")";
}

// Whether the name's attributes include a PAC ("urn:mspac:..." ones).
bool has_pac(gss_name_t name)
{
	OM_uint32 m;
	gss_buffer_set_t attrs = GSS_C_NO_BUFFER_SET;
	int mech_name = 0;
	if (gss_inquire_name(&m, name, &mech_name, nullptr, &attrs) != GSS_S_COMPLETE || !attrs)
		return false;
	bool found = false;
	for (size_t i = 0; i < attrs->count; i++) {
		std::string_view a(static_cast<const char *>(attrs->elements[i].value),
				   attrs->elements[i].length);
		found = found || a.starts_with("urn:mspac:");
	}
	gss_release_buffer_set(&m, &attrs);
	return found;
}

// One authenticated attribute of the client's name: GSS_S_COMPLETE with
// the value, or what GSSAPI said.  MIT's mspac plugin marks PAC attributes
// authenticated only when the PAC's server checksum verified with the
// service key (newer releases hide an unverified PAC altogether).
OM_uint32 name_attribute(gss_name_t name, std::string_view attr, Bytes *value, bool *authentic)
{
	OM_uint32 m;
	gss_buffer_desc a{attr.size(), const_cast<char *>(attr.data())};
	int authenticated = 0, complete = 0, more = -1;
	Buffer v, display;
	OM_uint32 major = gss_get_name_attribute(&m, name, &a, &authenticated, &complete, &v.b,
						 &display.b, &more);
	if (major == GSS_S_COMPLETE) {
		*value = v.bytes();
		*authentic = authenticated && complete;
	}
	return major;
}

// The PAC's logon information into a.logon_info, when the ticket has a
// PAC; false (a refused, with the reason) when it has one that does not
// verify.
bool pac_of(gss_name_t client, Accepted *a)
{
	if (!has_pac(client))
		return true;
	Bytes whole, info;
	bool ok = false;
	if (name_attribute(client, "urn:mspac:", &whole, &ok) != GSS_S_COMPLETE || !ok) {
		a->reason = "the ticket's PAC does not verify with the keytab's key (PAC signature bad)";
		return false;
	}
	OM_uint32 major = name_attribute(client, "urn:mspac:logon-info", &info, &ok);
	if (major == GSS_S_COMPLETE && ok)
		a->logon_info = std::move(info);
	else if (major == GSS_S_COMPLETE) {
		a->reason = "the PAC's logon information is not authenticated";
		return false;
	}
	return true;
}

class GssContext final : public Context {
public:
	explicit GssContext(gss_ctx_id_t c) : ctx_(c) {}
	~GssContext() override
	{
		OM_uint32 m;
		if (ctx_ != GSS_C_NO_CONTEXT)
			gss_delete_sec_context(&m, &ctx_, GSS_C_NO_BUFFER);
	}
	GssContext(const GssContext &) = delete;
	GssContext &operator=(const GssContext &) = delete;

	std::optional<Bytes> get_mic(ByteView msg) override
	{
		OM_uint32 m;
		gss_buffer_desc in = view(msg);
		Buffer out;
		if (gss_get_mic(&m, ctx_, GSS_C_QOP_DEFAULT, &in, &out.b) != GSS_S_COMPLETE)
			return std::nullopt;
		return out.bytes();
	}

	bool verify_mic(ByteView msg, ByteView mic) override
	{
		OM_uint32 m;
		gss_buffer_desc in = view(msg), tok = view(mic);
		return gss_verify_mic(&m, ctx_, &in, &tok, nullptr) == GSS_S_COMPLETE;
	}

private:
	gss_ctx_id_t ctx_;
};

class GssAcceptor final : public Acceptor {
public:
	GssAcceptor(gss_cred_id_t cred, std::string service)
		: cred_(cred), service_(std::move(service))
	{
	}
	~GssAcceptor() override
	{
		OM_uint32 m;
		gss_release_cred(&m, &cred_);
	}
	GssAcceptor(const GssAcceptor &) = delete;
	GssAcceptor &operator=(const GssAcceptor &) = delete;

	Accepted accept(ByteView token) override;

private:
	gss_cred_id_t cred_;
	std::string service_; // a service name to check the ticket's against, or ""
};

Accepted GssAcceptor::accept(ByteView token)
{
	Accepted a;
	if (token.size() > max_token || !is_ap_req(token)) {
		a.kind = Accepted::Kind::malformed;
		a.reason = token.size() > max_token ? "Kerberos token too large"
						     : "not a Kerberos AP-REQ";
		return a;
	}
	OM_uint32 major, minor = 0;
	gss_ctx_id_t ctx = GSS_C_NO_CONTEXT;
	gss_buffer_desc in = view(token);
	Name client;
	Buffer out;
	OM_uint32 flags = 0;
	major = gss_accept_sec_context(&minor, &ctx, cred_, &in, GSS_C_NO_CHANNEL_BINDINGS,
				       &client.n, nullptr, &out.b, &flags, nullptr, nullptr);
	auto context = std::make_unique<GssContext>(ctx);
	if (major == GSS_S_CONTINUE_NEEDED) {
		a.reason = "Kerberos logons of more than one leg (DCE style) are not supported";
		return a;
	}
	if (GSS_ERROR(major)) {
		a.kind = GSS_ROUTINE_ERROR(major) == GSS_S_DEFECTIVE_TOKEN ||
					 GSS_ROUTINE_ERROR(major) == GSS_S_BAD_MECH
				 ? Accepted::Kind::malformed
				 : Accepted::Kind::refused;
		a.reason = refusal(major, minor);
		return a;
	}
	a.client = client.str();
	{
		Name target;
		OM_uint32 m;
		if (gss_inquire_context(&m, ctx, nullptr, &target.n, nullptr, nullptr, nullptr,
					nullptr, nullptr) == GSS_S_COMPLETE)
			a.service = target.str();
	}
	if (!service_.empty()) {
		std::string svc = a.service.substr(0, a.service.find('/'));
		if (lower(svc) != lower(service_)) {
			a.reason = "ticket for another service (" + a.service + ")";
			return a;
		}
	}
	gss_buffer_set_t keys = GSS_C_NO_BUFFER_SET;
	OM_uint32 m;
	if (gss_inquire_sec_context_by_oid(&m, ctx, GSS_C_INQ_SSPI_SESSION_KEY, &keys) !=
		    GSS_S_COMPLETE ||
	    !keys || keys->count < 1 || !keys->elements[0].length) {
		if (keys)
			gss_release_buffer_set(&m, &keys);
		a.reason = "GSSAPI gave no session key";
		return a;
	}
	auto *k = static_cast<const uint8_t *>(keys->elements[0].value);
	a.session_key.assign(k, k + keys->elements[0].length);
	gss_release_buffer_set(&m, &keys);
	if (a.client.empty()) {
		a.reason = "GSSAPI gave no client name";
		return a;
	}
	if (!pac_of(client.n, &a))
		return a;
	a.kind = Accepted::Kind::ok;
	a.output = out.bytes();
	a.context = std::move(context);
	return a;
}

// The principals of a keytab, as "name@REALM", for the start-up log and
// the check that it has a key for the service at all.
std::vector<std::string> keytab_principals(const std::string &path, std::string *why)
{
	std::vector<std::string> out;
	krb5_context kc = nullptr;
	if (krb5_init_context(&kc)) {
		*why = "cannot initialise Kerberos (krb5.conf)";
		return out;
	}
	krb5_keytab kt = nullptr;
	krb5_error_code err = path.empty() ? krb5_kt_default(kc, &kt)
					   : krb5_kt_resolve(kc, path.c_str(), &kt);
	krb5_kt_cursor cur;
	if (!err)
		err = krb5_kt_start_seq_get(kc, kt, &cur);
	if (err) {
		const char *msg = krb5_get_error_message(kc, err);
		*why = std::string("cannot read the keytab: ") + msg;
		krb5_free_error_message(kc, msg);
	} else {
		krb5_keytab_entry e;
		while (!krb5_kt_next_entry(kc, kt, &e, &cur)) {
			char *name = nullptr;
			if (!krb5_unparse_name(kc, e.principal, &name)) {
				std::string s = name;
				if (std::find(out.begin(), out.end(), s) == out.end())
					out.push_back(s);
				krb5_free_unparsed_name(kc, name);
			}
			krb5_free_keytab_entry_contents(kc, &e);
		}
		krb5_kt_end_seq_get(kc, kt, &cur);
	}
	if (kt)
		krb5_kt_close(kc, kt);
	krb5_free_context(kc);
	return out;
}

} // namespace

std::unique_ptr<Acceptor> make_gss_acceptor(const AcceptorConfig &cfg, std::string *why)
{
	std::string service = cfg.service.empty() ? "cifs" : cfg.service;
	bool exact = service.find('/') != std::string::npos;
	std::vector<std::string> principals = keytab_principals(cfg.keytab, why);
	if (!why->empty())
		return nullptr;
	std::string wanted = exact ? service : service + "/";
	bool found = std::any_of(principals.begin(), principals.end(), [&](const std::string &p) {
		return exact ? (p == service || split_principal(p).first == service)
			     : lower(p.substr(0, wanted.size())) == lower(wanted);
	});
	if (!found) {
		*why = "the keytab has no key for " + (exact ? service : wanted + "*");
		return nullptr;
	}

	OM_uint32 major, minor = 0;
	Name name;
	if (exact) {
		gss_buffer_desc b = view(as_bytes(service));
		major = gss_import_name(&minor, &b, GSS_KRB5_NT_PRINCIPAL_NAME, &name.n);
		if (GSS_ERROR(major)) {
			*why = "bad kerberos service name '" + service +
			       "': " + status_text(minor, GSS_C_MECH_CODE);
			return nullptr;
		}
	}
	gss_key_value_element_desc el{"keytab", cfg.keytab.c_str()};
	gss_key_value_set_desc store{1, &el};
	gss_OID_set_desc mechs{1, gss_mech_krb5};
	gss_cred_id_t cred = GSS_C_NO_CREDENTIAL;
	major = gss_acquire_cred_from(&minor, name.n, GSS_C_INDEFINITE, &mechs, GSS_C_ACCEPT,
				      cfg.keytab.empty() ? GSS_C_NO_CRED_STORE : &store, &cred,
				      nullptr, nullptr);
	if (GSS_ERROR(major)) {
		*why = "no acceptor credentials: " + (minor ? status_text(minor, GSS_C_MECH_CODE)
							    : status_text(major, GSS_C_GSS_CODE));
		return nullptr;
	}
	std::string list;
	for (const auto &p : principals)
		list += (list.empty() ? "" : ", ") + p;
	log::info("Kerberos: keytab " + (cfg.keytab.empty() ? std::string("(default)") : cfg.keytab) +
		  " with " + list + "; accepting " + (exact ? service : wanted + "*"));
	return std::make_unique<GssAcceptor>(cred, exact ? "" : service);
}

std::string default_realm()
{
	krb5_context kc = nullptr;
	if (krb5_init_context(&kc))
		return "";
	char *realm = nullptr;
	std::string out;
	if (!krb5_get_default_realm(kc, &realm) && realm) {
		out = realm;
		krb5_free_default_realm(kc, realm);
	}
	krb5_free_context(kc);
	return out;
}

} // namespace smbsrv::krb5
