// SPDX-License-Identifier: GPL-2.0-or-later
#include "pac.hpp"

#include <algorithm>

#include "rpc/ndr.hpp"

namespace smbsrv::pac {

namespace {

using rpc::NdrError;
using rpc::NdrReader;

// RPC_UNICODE_STRING: the inline part; the characters are deferred.
struct Counted {
	uint16_t length = 0;
	uint32_t ref = 0;
};

Counted counted(NdrReader &r)
{
	Counted c;
	c.length = r.u16();
	uint16_t max = r.u16();
	c.ref = r.ptr();
	if (c.length > max)
		throw NdrError("string longer than its buffer");
	return c;
}

std::string deferred(NdrReader &r, const Counted &c)
{
	return c.ref ? r.counted_string(c.length) : std::string();
}

void check_count(uint32_t n, const char *what)
{
	if (n > max_sids)
		throw NdrError(std::string(what) + ": " + std::to_string(n) + " entries, more than " +
			       std::to_string(max_sids));
}

// GROUP_MEMBERSHIP[n]: RelativeId and Attributes each.
std::vector<uint32_t> rids(NdrReader &r, uint32_t n)
{
	r.conformance(n);
	if (r.remaining() / 8 < n)
		throw NdrError("group array longer than the buffer");
	std::vector<uint32_t> out;
	out.reserve(n);
	for (uint32_t i = 0; i < n; i++) {
		out.push_back(r.u32());
		r.u32(); // Attributes
	}
	return out;
}

} // namespace

Sid LogonInfo::user_sid() const
{
	return domain_sid.with_rid(user_rid).value_or(Sid());
}

Sid LogonInfo::group_sid() const
{
	return domain_sid.with_rid(group_rid).value_or(Sid());
}

std::vector<Sid> LogonInfo::token_sids() const
{
	std::vector<Sid> out{user_sid(), group_sid()};
	for (uint32_t rid : group_rids)
		out.push_back(domain_sid.with_rid(rid).value_or(Sid()));
	out.insert(out.end(), extra_sids.begin(), extra_sids.end());
	if (resource_domain)
		for (uint32_t rid : resource_rids)
			out.push_back(resource_domain->with_rid(rid).value_or(Sid()));
	std::sort(out.begin(), out.end());
	out.erase(std::unique(out.begin(), out.end()), out.end());
	return out;
}

std::optional<LogonInfo> decode_logon_info(ByteView buf, std::string *why)
{
	try {
		// MS-RPCE 2.2.6.1-2: the common and the private header.
		NdrReader h(buf);
		if (h.u8() != 1 || h.u8() != 0x10 || h.u16() != 8)
			throw NdrError("not a little-endian NDR type serialisation (version 1)");
		h.u32(); // filler
		uint32_t len = h.u32();
		h.u32(); // filler
		if (len > h.remaining())
			throw NdrError("object buffer longer than the PAC buffer");
		NdrReader r(buf.subspan(16, len));
		if (!r.ptr())
			throw NdrError("no KERB_VALIDATION_INFO");

		LogonInfo info;
		r.skip(size_t{6} * 8); // LogonTime .. PasswordMustChange (FILETIMEs)
		Counted effective = counted(r);
		Counted other[5];
		for (auto &c : other) // FullName .. HomeDirectoryDrive
			c = counted(r);
		r.u16(); // LogonCount
		r.u16(); // BadPasswordCount
		info.user_rid = r.u32();
		info.group_rid = r.u32();
		uint32_t ngroups = r.u32();
		check_count(ngroups, "GroupIds");
		uint32_t groups_ref = r.ptr();
		r.u32(); // UserFlags
		r.skip(16); // UserSessionKey
		Counted server = counted(r);
		Counted domain = counted(r);
		uint32_t domain_ref = r.ptr();
		r.skip(size_t{2} * 4); // Reserved1
		r.u32(); // UserAccountControl
		r.u32(); // SubAuthStatus
		r.skip(size_t{2} * 8); // LastSuccessfulILogon, LastFailedILogon
		r.u32(); // FailedILogonCount
		r.u32(); // Reserved3
		uint32_t nextra = r.u32();
		check_count(nextra, "ExtraSids");
		uint32_t extra_ref = r.ptr();
		uint32_t resdom_ref = r.ptr();
		uint32_t nres = r.u32();
		check_count(nres, "ResourceGroupIds");
		uint32_t res_ref = r.ptr();

		// The deferred referents, in the order of their pointers.
		info.user = deferred(r, effective);
		for (const auto &c : other)
			deferred(r, c);
		if (groups_ref)
			info.group_rids = rids(r, ngroups);
		else if (ngroups)
			throw NdrError("GroupCount without GroupIds");
		deferred(r, server);
		info.domain = deferred(r, domain);
		if (!domain_ref)
			throw NdrError("no LogonDomainId");
		info.domain_sid = r.sid();
		if (extra_ref) {
			r.conformance(nextra);
			if (r.remaining() / 8 < nextra)
				throw NdrError("ExtraSids longer than the buffer");
			std::vector<uint32_t> refs(nextra);
			for (auto &ref : refs) {
				ref = r.ptr();
				r.u32(); // Attributes
			}
			for (uint32_t ref : refs)
				if (ref)
					info.extra_sids.push_back(r.sid());
		} else if (nextra) {
			throw NdrError("SidCount without ExtraSids");
		}
		if (resdom_ref)
			info.resource_domain = r.sid();
		if (res_ref)
			info.resource_rids = rids(r, nres);
		else if (nres)
			throw NdrError("ResourceGroupCount without ResourceGroupIds");
		if (!info.resource_domain && !info.resource_rids.empty())
			throw NdrError("resource groups without ResourceGroupDomainSid");
		if (info.domain_sid.count() >= SMB_SID_MAX_SUB ||
		    (info.resource_domain && info.resource_domain->count() >= SMB_SID_MAX_SUB))
			throw NdrError("domain SID with no room for a RID");
		size_t total = 2 + info.group_rids.size() + info.extra_sids.size() +
			       info.resource_rids.size();
		if (total > max_sids)
			throw NdrError(std::to_string(total) + " SIDs, more than " +
				       std::to_string(max_sids));
		return info;
	} catch (const NdrError &e) {
		*why = std::string("PAC logon information refused: ") + e.what();
		return std::nullopt;
	}
}

} // namespace smbsrv::pac
