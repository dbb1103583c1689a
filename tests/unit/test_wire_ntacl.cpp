// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/ntacl.c and ntacl_blob.c: access checks (MS-DTYP 2.5.3.2, the
// cases smbtorture's smb2.acls shows Windows deciding), inheritance
// (2.5.3.4, smb2.acls.INHERITANCE's table), descriptors set and queried,
// and the security.NTACL blob against blobs Samba itself wrote.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nettle/sha2.h>

#include "secdesc_util.hpp"
#include "wire_util.hpp"

extern "C" {
#include "fscc.h"
#include "ntacl.h"
#include "ntacl_blob.h"
#include "secdesc.h"
}

using namespace wiretest;

namespace {

const Bytes USER = sid_bytes(22, { 1, 1000 });
const Bytes OTHER = sid_bytes(22, { 1, 1001 });
const Bytes GROUP = sid_bytes(22, { 2, 100 });
const Bytes GROUP2 = sid_bytes(22, { 2, 200 });
const Bytes WORLD = sid_bytes(1, { 0 });
const Bytes AUTH_USERS = sid_bytes(5, { 11 });
const Bytes CREATOR_OWNER = sid_bytes(3, { 0 });
const Bytes CREATOR_GROUP = sid_bytes(3, { 1 });
const Bytes OWNER_RIGHTS = sid_bytes(3, { 4 });
const Bytes SYSTEM = sid_bytes(5, { 18 });

const uint32_t FILE_READ = FILE_GENERIC_READ;	// SEC_RIGHTS_FILE_READ

bool in_group(const void *, uint32_t gid)
{
	return gid == 200;
}

struct smb_token token(uint32_t uid = 1000, uint32_t flags =
				SMB_TOKEN_AUTHENTICATED)
{
	return { uid, 100, flags, in_group, nullptr, nullptr, 0 };
}

struct smb_sid sid_of(const Bytes &b)
{
	struct smb_sid s;
	REQUIRE(smb_sid_decode(b.data(), b.size(), &s) == (int)b.size());
	return s;
}

struct smb_sd decode(const Bytes &b)
{
	struct smb_sd d;
	REQUIRE(smb_sd_decode(b.data(), b.size(), &d) == 0);
	return d;
}

uint32_t maximal(const Bytes &b, const struct smb_token &t = token())
{
	struct smb_sd d = decode(b);
	return smb_sd_maximal(&d, &t);
}

struct Ace {
	uint8_t type, flags;
	uint32_t mask;
	Bytes sid;
	bool operator==(const Ace &o) const
	{
		return type == o.type && flags == o.flags && mask == o.mask &&
		       sid == o.sid;
	}
};

std::vector<Ace> aces_of(const uint8_t *a, uint32_t len)
{
	std::vector<Ace> v;
	struct smb_ace ace;
	uint32_t pos = 0;
	int n;

	if (!a)
		return v;
	while ((n = smb_acl_next(a, len, &pos, &ace)) > 0) {
		Bytes s(smb_sid_size(&ace.sid));
		smb_sid_encode(s.data(), &ace.sid);
		v.push_back({ ace.type, ace.flags, ace.mask, s });
	}
	REQUIRE(n == 0);
	return v;
}

std::vector<Ace> dacl_of(const Bytes &b)
{
	struct smb_sd d = decode(b);
	return aces_of(d.dacl, d.dacl_len);
}

// An SD with owner and group and these DACL ACEs, control bits added.
Bytes sd_with(const std::vector<Bytes> &aces, uint16_t control = 0,
	      const Bytes &owner = USER, const Bytes &group = GROUP)
{
	Bytes d = acl(aces);
	Bytes b = sd(owner, group, &d);
	put16(b, 2, get16(b, 2) | control);
	return b;
}

Bytes create(const Bytes *parent, const Bytes *creator, bool dir,
	     const Bytes &owner = USER, const Bytes &group = GROUP)
{
	struct smb_sd p, c;
	struct smb_sid o = sid_of(owner), g = sid_of(group);
	if (parent)
		p = decode(*parent);
	if (creator)
		c = decode(*creator);
	int n = smb_sd_create(nullptr, 0, parent ? &p : nullptr,
			      creator ? &c : nullptr, dir, &o, &g);
	REQUIRE(n > 0);
	Bytes out(n + 3, 0x55);
	REQUIRE(smb_sd_create(out.data(), n, parent ? &p : nullptr,
			      creator ? &c : nullptr, dir, &o, &g) == n);
	// Nothing written past what it said it needs.
	CHECK(out[n] == 0x55);
	out.resize(n);
	decode(out);
	return out;
}

Bytes merge(const Bytes &cur, const Bytes &req, uint32_t info)
{
	struct smb_sd c = decode(cur), r = decode(req);
	uint32_t n = smb_sd_merge(nullptr, 0, &c, &r, info);
	Bytes out(n, 0);
	REQUIRE(smb_sd_merge(out.data(), n - 1, &c, &r, info) == n);
	CHECK(out == Bytes(n, 0));	// too small: nothing written
	REQUIRE(smb_sd_merge(out.data(), n, &c, &r, info) == n);
	return out;
}

Bytes select(const Bytes &b, uint32_t info)
{
	struct smb_sd d = decode(b);
	Bytes out(smb_sd_select(nullptr, 0, &d, info), 0);
	REQUIRE(smb_sd_select(out.data(), out.size(), &d, info) == out.size());
	return out;
}

bool sid_eq(const struct smb_sid &a, const struct smb_sid &b)
{
	return smb_sid_equal(&a, &b);
}

Bytes sha256(const Bytes &b)
{
	struct sha256_ctx ctx;
	Bytes h(SMB_NTACL_HASH_SIZE, 0);
	sha256_init(&ctx);
	sha256_update(&ctx, b.size(), b.data());
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, h.data());
	return h;
}

Bytes unhex(const std::string &s)
{
	Bytes b;
	for (size_t i = 0; i + 1 < s.size(); i += 2)
		b.push_back(std::stoi(s.substr(i, 2), nullptr, 16));
	return b;
}

} // namespace

TEST_CASE("access checks", "[wire][ntacl]")
{
	const uint32_t W = FILE_WRITE_DATA, R = FILE_READ_DATA;

	SECTION("the owner gets READ_CONTROL and WRITE_DAC besides the ACEs")
	{
		// smb2.acls.OWNER: only WRITE_DATA (and the owner's rights).
		CHECK(maximal(sd_with({ ace(0, 0, W, USER) })) ==
		      (W | READ_CONTROL | WRITE_DAC));
		// Someone else gets what the ACEs say, nothing more.
		CHECK(maximal(sd_with({ ace(0, 0, W, OTHER) }), token(1001)) ==
		      W);
		CHECK(maximal(sd_with({ ace(0, 0, W, USER) }), token(1001)) ==
		      0);
	}
	SECTION("OWNER RIGHTS replaces the owner's implicit rights")
	{
		// smb2.acls.OWNER-RIGHTS: additive with the owner's ACE.
		CHECK(maximal(sd_with({ ace(0, 0, FILE_READ, USER),
					ace(0, 0, W, OWNER_RIGHTS) })) ==
		      (FILE_READ | W));
		// OWNER-RIGHTS-DENY: a leading deny takes READ_DATA away.
		CHECK(maximal(sd_with({ ace(1, 0, R, OWNER_RIGHTS),
					ace(0, 0, FILE_READ, USER) })) ==
		      (FILE_READ & ~R));
		// OWNER-RIGHTS-DENY1: a trailing deny does not.
		CHECK(maximal(sd_with({ ace(0, 0, FILE_READ, USER),
					ace(0, 0, W, OWNER_RIGHTS),
					ace(1, 0, W | R, OWNER_RIGHTS) })) ==
		      (FILE_READ | W));
		// Not the owner: OWNER RIGHTS is nobody.
		CHECK(maximal(sd_with({ ace(0, 0, W, OWNER_RIGHTS) },
				      0, OTHER)) == 0);
		// An inherit-only OWNER RIGHTS ACE leaves the implicit rights.
		CHECK(maximal(sd_with({ ace(0, INHERIT_ONLY_ACE | OBJECT_INHERIT_ACE,
					    W, OWNER_RIGHTS) })) ==
		      (READ_CONTROL | WRITE_DAC));
	}
	SECTION("the first ACE to allow or deny a right decides it")
	{
		// smb2.acls.DENY1: a trailing deny changes nothing.
		CHECK(maximal(sd_with({ ace(0, 0, FILE_READ | W, USER),
					ace(1, 0, W, USER) })) ==
		      (FILE_READ | W | WRITE_DAC));
		CHECK(maximal(sd_with({ ace(1, 0, W, WORLD),
					ace(0, 0, FILE_READ | W, USER) })) ==
		      (FILE_READ | WRITE_DAC));
		// A deny of the owner's implicit right does not take it.
		CHECK(maximal(sd_with({ ace(1, 0, WRITE_DAC, USER) })) ==
		      (READ_CONTROL | WRITE_DAC));
	}
	SECTION("groups, Everyone and Authenticated Users")
	{
		Bytes b = sd_with({ ace(0, 0, R, GROUP), ace(0, 0, W, GROUP2),
				    ace(0, 0, FILE_EXECUTE, AUTH_USERS),
				    ace(0, 0, FILE_READ_EA, WORLD) });
		uint32_t all = R | W | FILE_EXECUTE | FILE_READ_EA;
		CHECK(maximal(b, token(1001)) == all);
		CHECK(maximal(b, token(1001, SMB_TOKEN_GUEST)) ==
		      (R | W | FILE_READ_EA));
		struct smb_token t = token(1001);
		t.in_group = nullptr;
		t.gid = 5;
		CHECK(maximal(b, t) == (FILE_EXECUTE | FILE_READ_EA));
		// NFS-style SIDs name the same user.
		CHECK(maximal(sd_with({ ace(0, 0, R,
					    sid_bytes(5, { 88, 1, 1001 })) }),
			      token(1001)) == R);
	}
	SECTION("generic rights in ACEs, inherit-only and other ACE types")
	{
		CHECK(maximal(sd_with({ ace(0, 0, GENERIC_READ, OTHER) }),
			      token(1001)) == FILE_GENERIC_READ);
		CHECK(maximal(sd_with({ ace(0, 0, GENERIC_ALL, OTHER) }),
			      token(1001)) == FILE_ALL_ACCESS);
		CHECK(maximal(sd_with({ ace(0, INHERIT_ONLY_ACE |
					       CONTAINER_INHERIT_ACE,
					    FILE_ALL_ACCESS, OTHER) }),
			      token(1001)) == 0);
		// An audit ACE in a DACL grants nothing.
		CHECK(maximal(sd_with({ ace(2, 0, FILE_ALL_ACCESS, OTHER) }),
			      token(1001)) == 0);
	}
	SECTION("a NULL DACL grants everything, an empty DACL nothing")
	{
		Bytes null_dacl;
		CHECK(maximal(sd(USER, GROUP, &null_dacl), token(1001)) ==
		      FILE_ALL_ACCESS);
		CHECK(maximal(sd(USER, GROUP, nullptr), token(1001)) ==
		      FILE_ALL_ACCESS);
		CHECK(maximal(sd_with({}), token(1001)) == 0);
		CHECK(maximal(sd_with({})) == (READ_CONTROL | WRITE_DAC));
	}
	SECTION("root gets everything, SACL access included")
	{
		CHECK(maximal(sd_with({ ace(1, 0, FILE_ALL_ACCESS, WORLD) }),
			      token(0, SMB_TOKEN_ADMIN)) ==
		      (FILE_ALL_ACCESS | ACCESS_SYSTEM_SECURITY));
		CHECK(maximal(sd_with({ ace(0, 0, FILE_ALL_ACCESS, WORLD) })) ==
		      FILE_ALL_ACCESS);
	}
	SECTION("generic mapping of a desired mask")
	{
		CHECK(smb_access_map_generic(GENERIC_READ) == FILE_GENERIC_READ);
		CHECK(smb_access_map_generic(GENERIC_WRITE | DELETE) ==
		      (FILE_GENERIC_WRITE | DELETE));
		CHECK(smb_access_map_generic(GENERIC_EXECUTE) ==
		      FILE_GENERIC_EXECUTE);
		CHECK(smb_access_map_generic(GENERIC_ALL | MAXIMUM_ALLOWED) ==
		      (FILE_ALL_ACCESS | MAXIMUM_ALLOWED));
	}
}

TEST_CASE("a PAC's SIDs in the token: domain groups grant with no Unix group",
	  "[wire][ntacl]")
{
	const uint32_t W = FILE_WRITE_DATA, R = FILE_READ_DATA;
	// S-1-5-21-1-2-3-RID: a domain's user and groups.
	auto dsid = [](uint32_t rid) { return sid_bytes(5, { 21, 1, 2, 3, rid }); };
	std::vector<struct smb_sid> sids = { sid_of(sid_bytes(18, { 1 })),
					     sid_of(dsid(513)), sid_of(dsid(1102)),
					     sid_of(dsid(1104)) };
	REQUIRE(smb_sids_sorted(sids.data(), sids.size()));
	struct smb_token t = token(101102);
	t.in_group = nullptr;
	t.sids = sids.data();
	t.nsids = sids.size();

	// A file only the domain group engineers (1104) may read, owned by
	// someone else: a member reads it, a member of no such group does not.
	Bytes b = sd_with({ ace(0, 0, FILE_READ, dsid(1104)) }, 0, OTHER);
	CHECK(maximal(b, t) == FILE_READ);
	struct smb_token nick = t;
	std::vector<struct smb_sid> nick_sids = { sid_of(dsid(513)), sid_of(dsid(1103)) };
	nick.sids = nick_sids.data();
	nick.nsids = nick_sids.size();
	CHECK(maximal(b, nick) == 0);
	struct smb_token unix_only = token(101102);
	CHECK(maximal(b, unix_only) == 0);
	// A deny for the group comes first and wins; the user's own SID.
	CHECK(maximal(sd_with({ ace(1, 0, R, dsid(513)),
				ace(0, 0, FILE_READ, dsid(1102)) }, 0, OTHER), t) ==
	      (FILE_READ & ~R));
	// The user's domain SID as owner: the owner's implicit rights.
	CHECK(maximal(sd_with({ ace(0, 0, W, OTHER) }, 0, dsid(1102)), t) ==
	      (READ_CONTROL | WRITE_DAC));
	// Well-known SIDs still come from the logon kind.
	CHECK(maximal(sd_with({ ace(0, 0, W, AUTH_USERS) }, 0, OTHER), t) == W);
}

TEST_CASE("SID order and lookup", "[wire][ntacl]")
{
	std::vector<struct smb_sid> v;
	for (uint32_t rid : { 5u, 9u, 10u, 500u, 0xffffffffu })
		v.push_back(sid_of(sid_bytes(5, { 21, 7, rid })));
	CHECK(smb_sids_sorted(v.data(), v.size()));
	CHECK(smb_sids_sorted(v.data(), 0));
	for (const auto &s : v)
		CHECK(smb_sids_find(v.data(), v.size(), &s));
	struct smb_sid miss = sid_of(sid_bytes(5, { 21, 7, 11 }));
	CHECK_FALSE(smb_sids_find(v.data(), v.size(), &miss));
	CHECK_FALSE(smb_sids_find(nullptr, 0, &miss));
	// Fewer sub-authorities sort first; then authority; then numbers.
	struct smb_sid a = sid_of(sid_bytes(18, { 1 }));
	struct smb_sid b = sid_of(sid_bytes(5, { 21, 7 }));
	CHECK(smb_sid_cmp(&a, &b) < 0);
	CHECK(smb_sid_cmp(&b, &a) > 0);
	CHECK(smb_sid_cmp(&v[0], &v[0]) == 0);
	std::vector<struct smb_sid> dup = { v[0], v[0] };
	CHECK_FALSE(smb_sids_sorted(dup.data(), dup.size()));
	std::vector<struct smb_sid> rev = { v[1], v[0] };
	CHECK_FALSE(smb_sids_sorted(rev.data(), rev.size()));
}

TEST_CASE("inheritance: smb2.acls.INHERITANCE's flags", "[wire][ntacl]")
{
	const uint8_t OI = OBJECT_INHERIT_ACE, CI = CONTAINER_INHERIT_ACE,
		      NP = NO_PROPAGATE_INHERIT_ACE, IO = INHERIT_ONLY_ACE;
	const uint32_t W = FILE_WRITE_DATA;
	const Ace world = { 0, 0, FILE_ALL_ACCESS, WORLD };
	// Parent: CREATOR OWNER gets WRITE_DATA with these flags, Everyone
	// everything without inheriting.
	struct {
		uint8_t parent, file, dir;
	} t[] = {
		{ 0, 0, 0 }, { OI, 0, OI | IO }, { CI, 0, CI },
		{ OI | CI, 0, OI | CI }, { NP, 0, 0 }, { NP | OI, 0, 0 },
		{ NP | CI, 0, 0 }, { NP | CI | OI, 0, 0 }, { IO, 0, 0 },
		{ IO | OI, 0, OI | IO }, { IO | CI, 0, CI },
		{ IO | CI | OI, 0, CI | OI }, { IO | NP, 0, 0 },
		{ IO | NP | OI, 0, 0 }, { IO | NP | CI, 0, 0 },
		{ IO | NP | CI | OI, 0, 0 },
	};
	const std::vector<Ace> def = {
		{ 0, 0, FILE_ALL_ACCESS, USER },
		{ 0, 0, FILE_ALL_ACCESS, SYSTEM },
	};

	for (auto &c : t) {
		INFO("parent flags " << (int)c.parent);
		Bytes parent = sd_with({ ace(0, c.parent, W, CREATOR_OWNER),
					 ace(0, 0, FILE_ALL_ACCESS, WORLD) });
		(void)world;
		Bytes f = create(&parent, nullptr, false);
		if (!(c.parent & OI))
			CHECK(dacl_of(f) == def);
		else
			CHECK(dacl_of(f) ==
			      std::vector<Ace>{ { 0, c.file, W, USER } });

		Bytes d = create(&parent, nullptr, true);
		std::vector<Ace> want;
		if (!(c.parent & CI) && (!(c.parent & OI) || (c.parent & NP)))
			want = def;
		else if ((c.parent & CI) && (c.parent & NP))
			want = { { 0, c.dir, W, USER } };
		else if (c.parent & CI)
			want = { { 0, 0, W, USER },
				 { 0, (uint8_t)(c.dir | IO), W, CREATOR_OWNER } };
		else
			want = { { 0, c.dir, W, CREATOR_OWNER } };
		CHECK(dacl_of(d) == want);
		// Owner and group: the creator's.
		struct smb_sd sd = decode(d);
		CHECK(sd.has_owner);
		CHECK(sd.has_group);
		CHECK((sd.control & (SE_DACL_PRESENT | SE_DACL_AUTO_INHERITED)) ==
		      SE_DACL_PRESENT);
	}
}

TEST_CASE("inheritance: creators, generic rights, auto-inheritance",
	  "[wire][ntacl]")
{
	const uint8_t OI = OBJECT_INHERIT_ACE, CI = CONTAINER_INHERIT_ACE,
		      IO = INHERIT_ONLY_ACE, ID = INHERITED_ACE;

	SECTION("CREATOR GROUP becomes the group; generic rights are mapped")
	{
		Bytes parent = sd_with({ ace(0, OI | CI, GENERIC_READ,
					     CREATOR_GROUP),
					 ace(1, OI | CI, FILE_WRITE_DATA, OTHER) });
		CHECK(dacl_of(create(&parent, nullptr, false, OTHER, GROUP2)) ==
		      std::vector<Ace>{ { 0, 0, FILE_GENERIC_READ, GROUP2 },
					{ 1, 0, FILE_WRITE_DATA, OTHER } });
		// A directory: the effective ACE, and the original passed on.
		CHECK(dacl_of(create(&parent, nullptr, true, OTHER, GROUP2)) ==
		      std::vector<Ace>{
			      { 0, 0, FILE_GENERIC_READ, GROUP2 },
			      { 0, OI | CI | IO, GENERIC_READ, CREATOR_GROUP },
			      { 1, OI | CI, FILE_WRITE_DATA, OTHER } });
	}
	SECTION("generic rights for a named SID split too")
	{
		Bytes parent = sd_with({ ace(0, CI, GENERIC_ALL, OTHER) });
		CHECK(dacl_of(create(&parent, nullptr, true)) ==
		      std::vector<Ace>{ { 0, 0, FILE_ALL_ACCESS, OTHER },
					{ 0, CI | IO, GENERIC_ALL, OTHER } });
	}
	SECTION("an auto-inherited parent marks what it passes on")
	{
		// smb2.acls.INHERITFLAGS: the child is AUTO_INHERITED and its
		// ACEs INHERITED when the parent is.
		Bytes parent = sd_with({ ace(0, OI | CI, FILE_WRITE_DATA, USER),
					 ace(0, 0, FILE_ALL_ACCESS, WORLD) },
				       SE_DACL_AUTO_INHERITED);
		Bytes f = create(&parent, nullptr, false);
		CHECK(dacl_of(f) ==
		      std::vector<Ace>{ { 0, ID, FILE_WRITE_DATA, USER } });
		CHECK(decode(f).control & SE_DACL_AUTO_INHERITED);
		CHECK(dacl_of(create(&parent, nullptr, true)) ==
		      std::vector<Ace>{
			      { 0, OI | CI | ID, FILE_WRITE_DATA, USER } });
	}
	SECTION("inherited ACEs of the parent lose that flag unless auto")
	{
		Bytes parent = sd_with({ ace(0, OI | CI | ID, FILE_READ_DATA,
					     OTHER) });
		CHECK(dacl_of(create(&parent, nullptr, true)) ==
		      std::vector<Ace>{ { 0, OI | CI, FILE_READ_DATA, OTHER } });
	}
	SECTION("a parent with a NULL or no DACL passes nothing on")
	{
		Bytes null_dacl;
		Bytes parent = sd(USER, GROUP, &null_dacl);
		CHECK(dacl_of(create(&parent, nullptr, false)).size() == 2);
		CHECK(dacl_of(create(nullptr, nullptr, true)).size() == 2);
	}
}

TEST_CASE("a creator's security descriptor", "[wire][ntacl]")
{
	Bytes parent = sd_with({ ace(0, OBJECT_INHERIT_ACE, FILE_READ_DATA,
				     WORLD) });

	SECTION("its DACL, generic rights mapped, its owner and group")
	{
		// smb2.create.aclfile: what the client sends is what it reads.
		Bytes c = sd_with({ ace(0, 0, GENERIC_ALL, AUTH_USERS),
				    ace(0, OBJECT_INHERIT_ACE | INHERIT_ONLY_ACE,
					GENERIC_READ, WORLD) },
				  SE_DACL_PROTECTED, OTHER, GROUP2);
		Bytes n = create(&parent, &c, false);
		CHECK(dacl_of(n) == std::vector<Ace>{
			      { 0, 0, FILE_ALL_ACCESS, AUTH_USERS },
			      { 0, OBJECT_INHERIT_ACE | INHERIT_ONLY_ACE,
				GENERIC_READ, WORLD } });
		struct smb_sd d = decode(n);
		CHECK(sid_eq(d.owner, decode(c).owner));
		CHECK(sid_eq(d.group, decode(c).group));
		CHECK(d.control == (SE_SELF_RELATIVE | SE_DACL_PRESENT |
				    SE_DACL_PROTECTED));
	}
	SECTION("without a DACL: inherited, owner and group defaulted")
	{
		// smb2.create.nulldacl's first create.
		Bytes c = sd({}, {}, nullptr);
		Bytes n = create(&parent, &c, false, OTHER, GROUP2);
		CHECK(dacl_of(n) == std::vector<Ace>{
			      { 0, 0, FILE_READ_DATA, WORLD } });
		struct smb_sd d = decode(n);
		CHECK(sid_eq(d.owner, decode(sd_with({}, 0, OTHER)).owner));
	}
	SECTION("a NULL DACL stays NULL")
	{
		Bytes null_dacl;
		Bytes c = sd({}, {}, &null_dacl);
		struct smb_sd d = decode(create(&parent, &c, false));
		CHECK((d.control & SE_DACL_PRESENT));
		CHECK(d.dacl == nullptr);
	}
	SECTION("a SACL comes from the creator only")
	{
		Bytes s = acl({ ace(2, 0x40, FILE_ALL_ACCESS, WORLD) });
		Bytes c = sd({}, {}, nullptr);
		put32(c, 12, c.size());
		append(c, s);
		put16(c, 2, get16(c, 2) | SE_SACL_PRESENT);
		struct smb_sd d = decode(create(&parent, &c, false));
		CHECK(aces_of(d.sacl, d.sacl_len) ==
		      std::vector<Ace>{ { 2, 0x40, FILE_ALL_ACCESS, WORLD } });
		CHECK(decode(create(&parent, nullptr, false)).sacl == nullptr);
	}
}

TEST_CASE("SET_INFO and QUERY_INFO of parts", "[wire][ntacl]")
{
	Bytes cur = sd_with({ ace(0, 0, FILE_ALL_ACCESS, USER) },
			    SE_DACL_PROTECTED);

	SECTION("DACL only: owner and group stay, generic rights mapped")
	{
		// smb2.acls.GENERIC: the ACE's generic bits read back mapped.
		Bytes req = sd_with({ ace(0, 0, GENERIC_READ | STANDARD_ALL,
					  OTHER),
				      ace(0, OBJECT_INHERIT_ACE |
						     INHERIT_ONLY_ACE,
					  GENERIC_WRITE, OTHER) },
				    0, WORLD, WORLD);
		Bytes m = merge(cur, req, DACL_SECURITY_INFORMATION);
		struct smb_sd d = decode(m);
		CHECK(sid_eq(d.owner, decode(cur).owner));
		CHECK(sid_eq(d.group, decode(cur).group));
		CHECK(d.control == (SE_SELF_RELATIVE | SE_DACL_PRESENT));
		CHECK(dacl_of(m) == std::vector<Ace>{
			      { 0, 0, FILE_GENERIC_READ | STANDARD_ALL, OTHER },
			      { 0, OBJECT_INHERIT_ACE | INHERIT_ONLY_ACE,
				GENERIC_WRITE, OTHER } });
	}
	SECTION("the control bits smb2.acls.INHERITFLAGS expects")
	{
		for (int i = 0; i < 8; i++) {
			uint16_t sent = (i & 1 ? SE_DACL_AUTO_INHERITED : 0) |
					(i & 2 ? SE_DACL_AUTO_INHERIT_REQ : 0) |
					(i & 4 ? SE_DACL_PROTECTED : 0);
			uint16_t kept = (i & 4 ? SE_DACL_PROTECTED : 0) |
					((i & 3) == 3 ? SE_DACL_AUTO_INHERITED :
							0);
			Bytes req = sd_with({ ace(0, INHERITED_ACE,
						  FILE_WRITE_DATA, USER) },
					    sent);
			Bytes m = merge(cur, req, DACL_SECURITY_INFORMATION);
			INFO("sent " << sent);
			CHECK(decode(m).control ==
			      (SE_SELF_RELATIVE | SE_DACL_PRESENT | kept));
			CHECK(dacl_of(m)[0].flags == INHERITED_ACE);
			// Changing the owner after keeps them (SDFLAGSVSCHOWN).
			Bytes o = merge(m, sd_with({}, 0, OTHER),
					OWNER_SECURITY_INFORMATION);
			CHECK(decode(o).control == decode(m).control);
			CHECK(dacl_of(o) == dacl_of(m));
		}
	}
	SECTION("a DACL sent without SE_DACL_PRESENT is a NULL one")
	{
		// smb2.create.nulldacl's last set.
		Bytes req = sd({}, {}, nullptr);
		struct smb_sd d = decode(merge(cur, req,
					       DACL_SECURITY_INFORMATION));
		CHECK(d.control == (SE_SELF_RELATIVE | SE_DACL_PRESENT));
		CHECK(d.dacl == nullptr);
		// An empty one stays empty.
		Bytes e = sd_with({});
		CHECK(dacl_of(merge(cur, e, DACL_SECURITY_INFORMATION)).empty());
		CHECK(decode(merge(cur, e, DACL_SECURITY_INFORMATION)).dacl);
	}
	SECTION("owner and group: replaced when sent and asked for")
	{
		Bytes req = sd_with({}, 0, OTHER, GROUP2);
		struct smb_sd d = decode(merge(cur, req,
					       OWNER_SECURITY_INFORMATION));
		CHECK(sid_eq(d.owner, decode(req).owner));
		CHECK(sid_eq(d.group, decode(cur).group));
		CHECK(dacl_of(merge(cur, req, OWNER_SECURITY_INFORMATION)) ==
		      dacl_of(cur));
		d = decode(merge(cur, req, GROUP_SECURITY_INFORMATION));
		CHECK(sid_eq(d.group, decode(req).group));
		// Asked for but not sent: kept.
		d = decode(merge(cur, sd({}, {}, nullptr),
				 OWNER_SECURITY_INFORMATION |
				 GROUP_SECURITY_INFORMATION));
		CHECK(sid_eq(d.owner, decode(cur).owner));
	}
	SECTION("QUERY_INFO: the parts asked for")
	{
		Bytes o = select(cur, OWNER_SECURITY_INFORMATION);
		struct smb_sd d = decode(o);
		CHECK(d.has_owner);
		CHECK_FALSE(d.has_group);
		CHECK(d.dacl == nullptr);
		CHECK(d.control == SE_SELF_RELATIVE);
		d = decode(select(cur, DACL_SECURITY_INFORMATION));
		CHECK_FALSE(d.has_owner);
		CHECK(d.control == (SE_SELF_RELATIVE | SE_DACL_PRESENT |
				    SE_DACL_PROTECTED));
		CHECK(select(cur, OWNER_SECURITY_INFORMATION |
				  GROUP_SECURITY_INFORMATION |
				  DACL_SECURITY_INFORMATION) == cur);
	}
}

TEST_CASE("descriptors of objects without one stored", "[wire][ntacl]")
{
	// The share root of the test: root's, 0777.
	struct smb_posix_owner root = { 0, 0, 0777, true, 0 };
	Bytes b(smb_sd_from_mode(nullptr, 0, &root), 0);
	REQUIRE(smb_sd_from_mode(b.data(), b.size(), &root) == b.size());
	const uint8_t INH = OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE |
			    INHERIT_ONLY_ACE;
	CHECK(dacl_of(b) == std::vector<Ace>{
		      { 0, 0, FILE_ALL_ACCESS, sid_bytes(22, { 1, 0 }) },
		      { 0, 0, FILE_ALL_ACCESS, sid_bytes(22, { 2, 0 }) },
		      { 0, 0, FILE_ALL_ACCESS, WORLD },
		      { 0, INH, FILE_ALL_ACCESS, CREATOR_OWNER },
		      { 0, INH, FILE_ALL_ACCESS, CREATOR_GROUP },
		      { 0, INH, FILE_ALL_ACCESS, WORLD } });
	CHECK(maximal(b, token(1000)) == FILE_ALL_ACCESS);
	// What user 1000 creates in it is its own.
	Bytes f = create(&b, nullptr, false);
	CHECK(dacl_of(f) == std::vector<Ace>{
		      { 0, 0, FILE_ALL_ACCESS, USER },
		      { 0, 0, FILE_ALL_ACCESS, GROUP },
		      { 0, 0, FILE_ALL_ACCESS, WORLD } });

	struct smb_posix_owner file = { 1000, 100, 0640, false, 0 };
	Bytes g(smb_sd_from_mode(nullptr, 0, &file), 0);
	smb_sd_from_mode(g.data(), g.size(), &file);
	CHECK(dacl_of(g) == std::vector<Ace>{
		      { 0, 0, FILE_GENERIC_READ | FILE_GENERIC_WRITE, USER },
		      { 0, 0, FILE_GENERIC_READ, GROUP } });
	CHECK(maximal(g, token(1001)) == FILE_GENERIC_READ);	// group 100
	struct smb_token stranger = token(1001);
	stranger.gid = 5;
	CHECK(maximal(g, stranger) == 0);
	// The mode they map back to is the mode they came from.
	struct smb_sd d = decode(g);
	uint32_t mode;
	REQUIRE(smb_sd_to_mode(&d, &file, &mode) == 0);
	CHECK(mode == 0640);
}

namespace {

struct SambaBlob {
	std::string name, sddl;
	Bytes blob;
	bool have_stat = false;
	uint32_t uid = 0, gid = 0, mode = 0;
	std::vector<struct smb_posix_ace> acc, def;
	bool has_acc = false, has_def = false;
};

std::vector<struct smb_posix_ace> parse_acl(const std::string &s, bool *has)
{
	std::vector<struct smb_posix_ace> v;
	*has = s != "none";
	if (s == "none" || s == "empty")
		return v;
	std::stringstream ss(s);
	std::string e;
	while (std::getline(ss, e, ',')) {
		unsigned t, p, i;
		REQUIRE(sscanf(e.c_str(), "%u:%u:%u", &t, &p, &i) == 3);
		v.push_back({ (uint16_t)t, (uint16_t)p, i });
	}
	return v;
}

std::vector<SambaBlob> samba_blobs()
{
	std::ifstream in(std::string(SMBSRV_TEST_DATA) +
			 "/ntacl/samba-blobs.txt");
	std::vector<SambaBlob> v;
	std::string line;
	SambaBlob b;
	while (std::getline(in, line)) {
		std::string key = line.substr(0, line.find(' '));
		std::string val = line.substr(line.find(' ') + 1);
		if (key == "name") {
			b = SambaBlob();
			b.name = val;
		} else if (key == "blob") {
			b.blob = unhex(val);
		} else if (key == "stat" && val != "- - -") {
			b.have_stat = true;
			std::stringstream(val) >> b.uid >> b.gid >> b.mode;
		} else if (key == "acc" && val != "-") {
			b.acc = parse_acl(val, &b.has_acc);
		} else if (key == "def" && val != "-") {
			b.def = parse_acl(val, &b.has_def);
		} else if (key == "sddl") {
			b.sddl = val;
			v.push_back(b);
		}
	}
	return v;
}

} // namespace

TEST_CASE("security.NTACL blobs Samba wrote", "[wire][ntacl]")
{
	auto blobs = samba_blobs();
	REQUIRE(blobs.size() == 10);
	std::set<int> versions;

	for (const SambaBlob &s : blobs) {
		INFO(s.name << ": " << s.sddl);
		struct smb_ntacl_blob b;
		REQUIRE(smb_ntacl_blob_decode(s.blob.data(), s.blob.size(),
					      &b) == 0);
		versions.insert(b.version);
		// Owner S-1-22-1-1000 and group S-1-22-2-1000 in every one.
		uint32_t id;
		CHECK(b.sd.has_owner);
		CHECK((smb_sid_to_uid(&b.sd.owner, &id) && id == 1000));
		CHECK((smb_sid_to_gid(&b.sd.group, &id) && id == 1000));
		// As many ACEs as the SDDL has "(".
		size_t n = std::count(s.sddl.begin(), s.sddl.end(), '(');
		size_t sacl = s.sddl.find("S:") == std::string::npos ? 0 : 1;
		CHECK(aces_of(b.sd.dacl, b.sd.dacl_len).size() +
		      aces_of(b.sd.sacl, b.sd.sacl_len).size() == n);
		CHECK(aces_of(b.sd.sacl, b.sd.sacl_len).size() == sacl);

		// Every shorter blob is refused, and nothing is read past it.
		for (size_t len = 0; len < s.blob.size(); len += 3) {
			Bytes t(s.blob.begin(), s.blob.begin() + len);
			struct smb_ntacl_blob x;
			smb_ntacl_blob_decode(t.data(), t.size(), &x);
		}
		if (!s.have_stat)
			continue;

		// Samba's sys_acl_hash is SHA-256 of the wrapper as smbsrv
		// builds it for the file Samba hashed.
		REQUIRE(b.version == 4);
		CHECK(b.hash_type == SMB_NTACL_HASH_SHA256);
		struct smb_posix_acl acc = { s.acc.data(),
					     (uint32_t)s.acc.size() };
		struct smb_posix_acl def = { s.def.data(),
					     (uint32_t)s.def.size() };
		std::vector<struct smb_posix_ace> from_mode = {
			{ SMB_POSIX_USER_OBJ, (uint16_t)((s.mode >> 6) & 7), 0 },
			{ SMB_POSIX_GROUP_OBJ, (uint16_t)((s.mode >> 3) & 7), 0 },
			{ SMB_POSIX_OTHER, (uint16_t)(s.mode & 7), 0 },
		};
		// libacl's view: the mode's three entries without an ACL, an
		// empty default ACL on a directory without one.
		if (!s.has_acc)
			acc = { from_mode.data(), 3 };
		bool dir = (s.mode & 0170000) == 0040000;
		Bytes w(smb_sys_acl_blob_encode(nullptr, 0, s.uid, s.gid, s.mode,
						&acc, dir ? &def : nullptr),
			0);
		REQUIRE(smb_sys_acl_blob_encode(w.data(), w.size(), s.uid, s.gid,
						s.mode, &acc,
						dir ? &def : nullptr) == w.size());
		CHECK(sha256(w) == Bytes(b.sys_acl_hash,
					 b.sys_acl_hash + SMB_NTACL_HASH_SIZE));

		// smbsrv's own blob for that descriptor: Samba's bytes but for
		// the hash (smbsrv's choice) and the time (smbsrv writes 0).
		Bytes ours(smb_ntacl_blob_encode(nullptr, 0, &b.sd,
						 b.sys_acl_hash), 0);
		REQUIRE(smb_ntacl_blob_encode(ours.data(), ours.size(), &b.sd,
					      b.sys_acl_hash) == ours.size());
		REQUIRE(ours.size() == s.blob.size());
		for (size_t i = 0; i < ours.size(); i++) {
			if ((i >= SMB_NTACL_V4_HASH && i < 78) ||
			    (i >= 88 && i < 96))
				continue;
			INFO("byte " << i);
			REQUIRE(ours[i] == s.blob[i]);
		}
	}
	CHECK(versions == std::set<int>{ 1, 2, 3, 4 });
}

TEST_CASE("security.NTACL blobs as ksmbd writes them", "[wire][ntacl]")
{
	// fs/smb/server/ndr.c: ndr_encode_v4_ntacl(), with the descriptor's
	// owner, group and DACL offsets shifted by 0xa0, a zero one too.
	Bytes sdb = sd_with({ ace(0, 0, FILE_ALL_ACCESS, USER) });
	put32(sdb, 4, get32(sdb, 4) + 0xa0);
	put32(sdb, 8, get32(sdb, 8) + 0xa0);
	put32(sdb, 16, get32(sdb, 16) + 0xa0);
	Bytes blob = { 4, 0, 4, 0, 0, 0, 2, 0, 4, 0, 2, 0, 1, 0 };
	blob.resize(14 + 64, 0x11);
	for (char c : std::string("posix_acl"))
		blob.push_back(c);
	blob.push_back(0);
	put64(blob, blob.size(), 0x01dd81b76ee99eb4ULL);
	blob.resize(96 + 64, 0x22);
	REQUIRE(blob.size() == SMB_NTACL_V4_SD);
	append(blob, sdb);

	struct smb_ntacl_blob b;
	REQUIRE(smb_ntacl_blob_decode(blob.data(), blob.size(), &b) == 0);
	CHECK(b.version == 4);
	CHECK(b.sys_acl_hash[0] == 0x22);
	CHECK(aces_of(b.sd.dacl, b.sd.dacl_len) ==
	      std::vector<Ace>{ { 0, 0, FILE_ALL_ACCESS, USER } });

	// No group: ksmbd's zero offset became 0xa0, the header itself.
	put32(blob, SMB_NTACL_V4_SD + 8, 0xa0);
	REQUIRE(smb_ntacl_blob_decode(blob.data(), blob.size(), &b) == 0);
	CHECK(b.sd.has_owner);
	CHECK_FALSE(b.sd.has_group);

	// ksmbd's POSIX ACL hash input for a file without a POSIX ACL: two
	// NULL pointers, owner, group, mode.
	Bytes w(smb_sys_acl_blob_encode(nullptr, 0, 1000, 100, 0100644,
					nullptr, nullptr), 0);
	smb_sys_acl_blob_encode(w.data(), w.size(), 1000, 100, 0100644,
				nullptr, nullptr);
	Bytes want(28, 0);
	put64(want, 8, 1000);
	put64(want, 16, 100);
	put32(want, 24, 0100644);
	CHECK(w == want);
}

TEST_CASE("malformed security.NTACL blobs", "[wire][ntacl]")
{
	Bytes sdb = sd_with({ ace(0, 0, FILE_ALL_ACCESS, USER) });
	struct smb_sd d = decode(sdb);
	Bytes hash(64, 0);
	Bytes good(smb_ntacl_blob_encode(nullptr, 0, &d, hash.data()), 0);
	smb_ntacl_blob_encode(good.data(), good.size(), &d, hash.data());
	struct smb_ntacl_blob b;
	REQUIRE(smb_ntacl_blob_decode(good.data(), good.size(), &b) == 0);

	for (size_t n = 0; n < good.size(); n++) {
		Bytes t(good.begin(), good.begin() + n);
		CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
	}
	Bytes t = good;
	t[0] = 5;
	t[2] = 5;
	CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
	t = good;
	t[2] = 3;	// version and switch disagree
	CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
	t = good;
	put32(t, 8, 0);	// no descriptor
	CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
	t = good;
	std::fill(t.begin() + 78, t.begin() + SMB_NTACL_V4_SD, 'x');
	t.resize(SMB_NTACL_V4_SD);	// a description without its NUL
	CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
	t = good;
	put32(t, SMB_NTACL_V4_SD + 16, 0x10);	// DACL inside the NDR header
	CHECK(smb_ntacl_blob_decode(t.data(), t.size(), &b) == -EINVAL);
}
