// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/secdesc.c: SIDs, ACLs, self-relative security descriptors and
// their mapping to POSIX owners and modes.
#include <catch2/catch.hpp>

#include <cstring>

#include "secdesc_util.hpp"
#include "wire_util.hpp"

extern "C" {
#include "fscc.h"
#include "secdesc.h"
}

using namespace wiretest;

namespace {

uint32_t mode_of(const Bytes &b, uint32_t uid = 1000, uint32_t gid = 100)
{
	struct smb_sd d;
	struct smb_posix_owner po = { uid, gid, 0, false, 0 };
	uint32_t mode = 0xffffffff;

	REQUIRE(smb_sd_decode(b.data(), b.size(), &d) == 0);
	REQUIRE(smb_sd_to_mode(&d, &po, &mode) == 0);
	return mode;
}

const uint32_t R = FILE_READ_DATA, W = FILE_WRITE_DATA, X = FILE_EXECUTE;

} // namespace

TEST_CASE("SIDs", "[wire][secdesc]")
{
	struct smb_sid s, t;
	Bytes b = sid_bytes(22, { 1, 1000 });

	REQUIRE(smb_sid_decode(b.data(), b.size(), &s) == 16);
	CHECK(s.count == 2);
	uint32_t id;
	CHECK(smb_sid_to_uid(&s, &id));
	CHECK(id == 1000);
	CHECK_FALSE(smb_sid_to_gid(&s, &id));
	smb_sid_unix_user(&t, 1000);
	CHECK(smb_sid_equal(&s, &t));
	Bytes out(smb_sid_size(&t), 0);
	smb_sid_encode(out.data(), &t);
	CHECK(out == b);

	Bytes nfs = sid_bytes(5, { 88, 2, 50 });
	REQUIRE(smb_sid_decode(nfs.data(), nfs.size(), &s) == 20);
	CHECK(smb_sid_to_gid(&s, &id));
	CHECK(id == 50);
	smb_sid_everyone(&t);
	CHECK_FALSE(smb_sid_equal(&s, &t));
	CHECK_FALSE(smb_sid_to_uid(&t, &id));

	for (size_t n = 0; n < b.size(); n++)
		CHECK(smb_sid_decode(b.data(), n, &s) == -EINVAL);
	Bytes bad = b;
	bad[0] = 2;
	CHECK(smb_sid_decode(bad.data(), bad.size(), &s) == -EINVAL);
	bad = sid_bytes(5, std::vector<uint32_t>(16, 1));
	CHECK(smb_sid_decode(bad.data(), bad.size(), &s) == -EINVAL);
}

TEST_CASE("security descriptors from POSIX owners and modes", "[wire][secdesc]")
{
	struct smb_posix_owner po = { 1000, 100, 0750, false, 0 };
	uint32_t all = OWNER_SECURITY_INFORMATION | GROUP_SECURITY_INFORMATION |
		       DACL_SECURITY_INFORMATION;
	uint32_t len = smb_sd_from_posix(nullptr, 0, all, &po);
	Bytes b(len, 0);

	REQUIRE(smb_sd_from_posix(b.data(), len, all, &po) == len);
	struct smb_sd d;
	REQUIRE(smb_sd_decode(b.data(), b.size(), &d) == 0);
	CHECK(d.has_owner);
	CHECK(d.has_group);
	CHECK((d.control & (SE_SELF_RELATIVE | SE_DACL_PRESENT)) ==
	      (SE_SELF_RELATIVE | SE_DACL_PRESENT));
	uint32_t id;
	CHECK(smb_sid_to_uid(&d.owner, &id));
	CHECK(id == 1000);
	CHECK(smb_sid_to_gid(&d.group, &id));
	CHECK(id == 100);

	// Owner, group, Everyone, with their rwx.
	struct smb_ace a;
	uint32_t pos = 0;
	REQUIRE(smb_acl_next(d.dacl, d.dacl_len, &pos, &a) == 1);
	CHECK(a.type == ACCESS_ALLOWED_ACE_TYPE);
	CHECK(smb_access_to_rwx(a.mask) == 7);
	CHECK((a.mask & (WRITE_DAC | WRITE_OWNER | READ_CONTROL)) ==
	      (WRITE_DAC | WRITE_OWNER | READ_CONTROL));
	REQUIRE(smb_acl_next(d.dacl, d.dacl_len, &pos, &a) == 1);
	CHECK(smb_access_to_rwx(a.mask) == 5);
	CHECK(smb_sid_to_gid(&a.sid, &id));
	REQUIRE(smb_acl_next(d.dacl, d.dacl_len, &pos, &a) == 1);
	CHECK(smb_access_to_rwx(a.mask) == 0);
	CHECK(smb_acl_next(d.dacl, d.dacl_len, &pos, &a) == 0);

	SECTION("MS NFS ACEs for Macs: mode, uid, gid last, and back")
	{
		po.nfs_mode = 0100640;	// S_IFREG, other than the mode bits
		Bytes x(smb_sd_from_posix(nullptr, 0, all, &po), 0);
		REQUIRE(x.size() == len + 3 * (8 + 20));
		REQUIRE(smb_sd_from_posix(x.data(), x.size(), all, &po) ==
			x.size());
		struct smb_sd e;
		REQUIRE(smb_sd_decode(x.data(), x.size(), &e) == 0);
		uint32_t p = 0, kinds[3] = { 3, 1, 2 };
		uint32_t want[3] = { 0100640, 1000, 100 };
		for (int i = 0; i < 3; i++)
			REQUIRE(smb_acl_next(e.dacl, e.dacl_len, &p, &a) == 1);
		for (int i = 0; i < 3; i++) {
			REQUIRE(smb_acl_next(e.dacl, e.dacl_len, &p, &a) == 1);
			CHECK(a.type == ACCESS_DENIED_ACE_TYPE);
			CHECK(a.flags == 0);
			CHECK(a.mask == 0);
			CHECK(a.sid.count == 3);
			CHECK(a.sid.auth[5] == 5);
			CHECK(a.sid.sub[0] == 88);
			CHECK(a.sid.sub[1] == kinds[i]);
			CHECK(a.sid.sub[2] == want[i]);
		}
		CHECK(smb_acl_next(e.dacl, e.dacl_len, &p, &a) == 0);
		// Set back, the mode ACE gives the mode (0640, not 0750).
		CHECK(mode_of(x) == 0640);
	}
	SECTION("and back to the same mode, for every mode")
	{
		for (uint32_t m = 0; m < 0777; m += 011) {
			po.mode = m;
			Bytes x(smb_sd_from_posix(nullptr, 0, all, &po), 0);
			smb_sd_from_posix(x.data(), x.size(), all, &po);
			CHECK(mode_of(x) == m);
		}
	}
	SECTION("only the parts asked for")
	{
		uint32_t n = smb_sd_from_posix(nullptr, 0,
					       OWNER_SECURITY_INFORMATION, &po);
		CHECK(n == 20 + 16);
		Bytes x(n, 0);
		smb_sd_from_posix(x.data(), n, OWNER_SECURITY_INFORMATION, &po);
		REQUIRE(smb_sd_decode(x.data(), n, &d) == 0);
		CHECK(d.has_owner);
		CHECK_FALSE(d.has_group);
		CHECK(d.dacl == nullptr);
		CHECK(smb_sd_from_posix(nullptr, 0, 0, &po) == 20);
	}
	SECTION("a short buffer is written up to its end")
	{
		Bytes x(len + 4, 0x77);
		CHECK(smb_sd_from_posix(x.data(), 30, all, &po) == len);
		for (size_t i = 30; i < x.size(); i++)
			REQUIRE(x[i] == 0x77);
		CHECK(Bytes(x.begin(), x.begin() + 30) ==
		      Bytes(b.begin(), b.begin() + 30));
	}
	SECTION("directories inherit their ACEs")
	{
		po.dir = true;
		Bytes x(smb_sd_from_posix(nullptr, 0, all, &po), 0);
		smb_sd_from_posix(x.data(), x.size(), all, &po);
		REQUIRE(smb_sd_decode(x.data(), x.size(), &d) == 0);
		pos = 0;
		REQUIRE(smb_acl_next(d.dacl, d.dacl_len, &pos, &a) == 1);
		CHECK(a.flags == (OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE));
		CHECK(a.mask & FILE_DELETE_CHILD);
	}
}

TEST_CASE("DACLs to modes", "[wire][secdesc]")
{
	Bytes owner = sid_bytes(22, { 1, 1000 });
	Bytes group = sid_bytes(22, { 2, 100 });
	Bytes world = sid_bytes(1, { 0 });
	Bytes users = sid_bytes(5, { 11 });

	SECTION("allow ACEs per class")
	{
		Bytes d = acl({ ace(0, 0, R | W, owner), ace(0, 0, R, group),
				ace(0, 0, R, world) });
		CHECK(mode_of(sd({}, {}, &d)) == 0644);
	}
	SECTION("generic rights")
	{
		Bytes d = acl({ ace(0, 0, GENERIC_ALL, owner),
				ace(0, 0, GENERIC_READ | GENERIC_EXECUTE,
				    users) });
		CHECK(mode_of(sd({}, {}, &d)) == 0755);
	}
	SECTION("Everyone applies to the owner and the group too")
	{
		Bytes d = acl({ ace(0, 0, R | W | X, world) });
		CHECK(mode_of(sd({}, {}, &d)) == 0777);
	}
	SECTION("a deny ACE before Everyone keeps the owner out")
	{
		Bytes d = acl({ ace(1, 0, W | X, owner),
				ace(0, 0, R | W | X, world) });
		CHECK(mode_of(sd({}, {}, &d)) == 0477);
	}
	SECTION("a deny after an allow changes nothing")
	{
		Bytes d = acl({ ace(0, 0, R | W, owner), ace(1, 0, W, owner) });
		CHECK(mode_of(sd({}, {}, &d)) == 0600);
	}
	SECTION("inherit-only ACEs do not apply to the object")
	{
		Bytes d = acl({ ace(0, INHERIT_ONLY_ACE | OBJECT_INHERIT_ACE,
				    R | W | X, world),
				ace(0, 0, R, owner) });
		CHECK(mode_of(sd({}, {}, &d)) == 0400);
	}
	SECTION("NFS-style SIDs name the same owner")
	{
		Bytes d = acl({ ace(0, 0, R | W, sid_bytes(5, { 88, 1, 1000 })),
				ace(0, 0, R, sid_bytes(5, { 88, 2, 100 })) });
		CHECK(mode_of(sd({}, {}, &d)) == 0640);
	}
	SECTION("modefromsid: an S-1-5-88-3 ACE carries the mode")
	{
		Bytes d = acl({ ace(0, 0, R, owner),
				ace(0, 0, 0, sid_bytes(5, { 88, 3, 0751 })) });
		CHECK(mode_of(sd({}, {}, &d)) == 0751);
	}
	SECTION("other users' ACEs do not count")
	{
		Bytes d = acl({ ace(0, 0, R | W | X, sid_bytes(22, { 1, 5 })),
				ace(0, 0, R, owner) });
		CHECK(mode_of(sd({}, {}, &d)) == 0400);
	}
	SECTION("a NULL DACL grants everything; an empty one nothing")
	{
		Bytes null_dacl;
		CHECK(mode_of(sd({}, {}, &null_dacl)) == 0777);
		Bytes empty = acl({});
		CHECK(mode_of(sd({}, {}, &empty)) == 0);
	}
}

TEST_CASE("malformed security descriptors", "[wire][secdesc]")
{
	Bytes owner = sid_bytes(22, { 1, 1000 });
	Bytes d = acl({ ace(0, 0, R, owner) });
	Bytes good = sd(owner, owner, &d);
	struct smb_sd s;

	REQUIRE(smb_sd_decode(good.data(), good.size(), &s) == 0);
	for (size_t n = 0; n < good.size(); n++)
		CHECK(smb_sd_decode(good.data(), n, &s) == -EINVAL);

	Bytes t = good;
	t[0] = 2;	// revision
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put16(t, 2, SE_DACL_PRESENT);	// not self-relative
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put32(t, 4, 8);	// owner inside the header
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put32(t, 16, 0xfffffff0);	// DACL past the end
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);

	size_t dacl_off = get32(good, 16);
	t = good;
	put16(t, dacl_off + 4, 2);	// more ACEs than there are
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put16(t, dacl_off + 8 + 2, 6);	// AceSize not a multiple of 4
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put16(t, dacl_off + 8 + 2, 0);
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	put16(t, dacl_off + 2, 0x7fff);	// AclSize past the buffer
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	t[dacl_off + 8 + 8 + 1] = 9;	// the ACE's SID is longer than the ACE
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t = good;
	t[dacl_off] = 5;	// ACL revision
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	t[dacl_off] = 1;
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == -EINVAL);
	// Revisions 2 to 4 are what Windows takes (smbcacls sends 3).
	t[dacl_off] = 3;
	CHECK(smb_sd_decode(t.data(), t.size(), &s) == 0);

	// An object ACE (type 5) is skipped, whatever it carries.
	Bytes obj = { 5, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	Bytes d2 = acl({ obj, ace(0, 0, R | W, owner) });
	CHECK(mode_of(sd({}, {}, &d2)) == 0600);
}
