// SPDX-License-Identifier: GPL-2.0-or-later
//
// The audit trail's pieces without a kernel: operation names to masks
// (Samba's names, older spellings, all, none, !name), the parameters'
// checks, a share's style, the module's audit-record message, and the
// syslog lines each operation becomes.
#include <catch2/catch.hpp>

#include <linux/smbsrv.h>
#include <syslog.h>

#include "audit.hpp"
#include "config.hpp"
#include "fake_kernel.hpp"

using namespace smbsrv;
using namespace smbsrv::test;

namespace {

constexpr uint32_t bit(uint32_t op)
{
	return 1U << op;
}

Config build(const std::string &text, Diagnostics &d)
{
	return build_config(parse_conf_text(text, "a.conf", d), d);
}

} // namespace

TEST_CASE("full_audit: operation names to masks")
{
	std::vector<std::string> unknown;
	CHECK(audit_mask({"connect", "create_file", "pwrite"}, &unknown) ==
	      (bit(SMBSRV_AUDIT_OP_CONNECT) | bit(SMBSRV_AUDIT_OP_CREATE_FILE) |
	       bit(SMBSRV_AUDIT_OP_PWRITE)));
	// Samba's older names, any case.
	CHECK(audit_mask({"Open", "write", "RENAME", "unlink", "set_nt_acl"}, &unknown) ==
	      (bit(SMBSRV_AUDIT_OP_CREATE_FILE) | bit(SMBSRV_AUDIT_OP_PWRITE) |
	       bit(SMBSRV_AUDIT_OP_RENAMEAT) | bit(SMBSRV_AUDIT_OP_UNLINKAT) |
	       bit(SMBSRV_AUDIT_OP_FSET_NT_ACL)));
	CHECK(audit_mask({"all", "!pwrite"}, &unknown) ==
	      (((bit(SMBSRV_AUDIT_OP_FSET_NT_ACL) << 1) - 1) & ~bit(SMBSRV_AUDIT_OP_PWRITE)));
	CHECK(audit_mask({"none"}, &unknown) == 0);
	CHECK(unknown.empty());
	CHECK(audit_mask({"mkdirat", "connect"}, &unknown) == bit(SMBSRV_AUDIT_OP_CONNECT));
	CHECK(unknown == std::vector<std::string>{"mkdirat"});
	CHECK(audit_op_name(SMBSRV_AUDIT_OP_FSET_NT_ACL) == "fset_nt_acl");
}

TEST_CASE("full_audit: parameters, checked, and a share's style")
{
	Diagnostics d;
	Config cfg = build("[global]\n\tvfs objects = full_audit\n"
			   "[s]\n\tpath = /srv/s\n\tfull_audit:success = connect mkdirat\n"
			   "\tfull_audit:facility = local7\n\tfull_audit:priority = info\n",
			   d);
	CHECK_FALSE(d.has_errors());
	REQUIRE(d.all().size() == 1);
	CHECK(d.all()[0].str() ==
	      "a.conf:5: warning: full_audit:success: 'mkdirat' is not an operation smbsrv "
	      "audits; ignored");
	AuditStyle s = audit_style(cfg.share("s")->params);
	CHECK(s.enabled); // inherited from [global]
	CHECK(s.success == bit(SMBSRV_AUDIT_OP_CONNECT));
	CHECK(s.failure == 0); // default: none
	CHECK(s.facility == LOG_LOCAL7);
	CHECK(s.priority == LOG_INFO);
	CHECK(s.prefix == "%u|%I|%m|%S");
	CHECK(audit_wants(s, SMBSRV_AUDIT_OP_CONNECT, 0));
	CHECK_FALSE(audit_wants(s, SMBSRV_AUDIT_OP_CONNECT, 0xc0000022));
	AuditStyle off = audit_style(cfg.share_defaults);
	off.enabled = false;
	CHECK_FALSE(audit_wants(off, SMBSRV_AUDIT_OP_CONNECT, 0));

	Diagnostics bad;
	build("[global]\n\tfull_audit:facility = kern\n\taudit rate = -1\n", bad);
	CHECK(bad.has_errors());
	CHECK(bad.all().size() == 2);
}

TEST_CASE("full_audit: the module's records and their lines")
{
	KMsg m(SMBSRV_CMD_AUDIT_RECORD);
	m.u32(SMBSRV_A_AUDIT_OP, SMBSRV_AUDIT_OP_RENAMEAT)
		.u32(SMBSRV_A_AUDIT_STATUS, 0)
		.u64(SMBSRV_A_AUDIT_SESSION_ID, 0x55)
		.str(SMBSRV_A_AUDIT_USER, "alice")
		.str(SMBSRV_A_AUDIT_CLIENT_ADDR, "10.0.2.2")
		.str(SMBSRV_A_AUDIT_SHARE, "data")
		.str(SMBSRV_A_AUDIT_PATH, "dir/a.txt")
		.str(SMBSRV_A_AUDIT_PATH2, "dir/b\n.txt")
		.u64(SMBSRV_A_AUDIT_DROPPED, 3);
	auto r = parse_audit_record(m.bytes());
	REQUIRE(r);
	CHECK(r->op == SMBSRV_AUDIT_OP_RENAMEAT);
	CHECK(r->session_id == 0x55);
	CHECK(r->dropped == 3);
	AuditStyle s;
	s.enabled = true;
	// A newline in a name cannot start a line of its own.
	CHECK(audit_line(s, *r) == "alice|10.0.2.2|10.0.2.2|data|renameat|ok|dir/a.txt|dir/b .txt");

	AuditRecord c;
	c.user = "bob";
	c.client = "::1";
	c.share = "x";
	c.path = "f";
	c.op = SMBSRV_AUDIT_OP_CREATE_FILE;
	c.access = 0x12019f;
	CHECK(audit_line(s, c) == "bob|::1|::1|x|create_file|ok|0x0012019f|f");
	c.status = 0xc0000034;
	CHECK(audit_line(s, c) ==
	      "bob|::1|::1|x|create_file|fail (NT_STATUS_OBJECT_NAME_NOT_FOUND)|0x0012019f|f");
	c.op = SMBSRV_AUDIT_OP_UNLINKAT;
	c.status = 0xc0000999;
	CHECK(audit_line(s, c) == "bob|::1|::1|x|unlinkat|fail (0xc0000999)|f");
	c.op = SMBSRV_AUDIT_OP_LOGOFF;
	c.status = 0;
	CHECK(audit_line(s, c) == "bob|::1|::1|x|logoff|ok|bob");

	// Not a record: another command, or no operation.
	KMsg other(SMBSRV_CMD_STATUS_GET);
	CHECK_FALSE(parse_audit_record(other.bytes()));
	KMsg empty(SMBSRV_CMD_AUDIT_RECORD);
	CHECK_FALSE(parse_audit_record(empty.bytes()));
	CHECK_FALSE(parse_audit_record(Bytes{1, 2, 3}));
}

TEST_CASE("full_audit: audit-subscribe names the rate and the session operations")
{
	FakeModule m;
	m.sock->on_send = [](ByteView req, FakeSocket &k) { k.reply_and_ack(req); };
	audit_subscribe(*m.nl, 50, bit(SMBSRV_AUDIT_OP_LOGOFF));
	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_AUDIT_MAX);
	CHECK(s.cmd == SMBSRV_CMD_AUDIT_SUBSCRIBE);
	CHECK(s.u32(SMBSRV_A_AUDIT_RATE) == 50);
	CHECK(s.u32(SMBSRV_A_AUDIT_SESSION_SUCCESS) == bit(SMBSRV_AUDIT_OP_LOGOFF));
}
