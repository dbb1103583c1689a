// SPDX-License-Identifier: GPL-2.0-or-later
//
// The IPC$ RPC library: exchanges recorded from impacket's DCE/RPC client
// (tests/interop/impacket-rpc.py --record) replayed byte for byte, bind
// negotiation, and bad input, which must get a fault or a bind_nak and
// never crash or confuse the pipe.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "config.hpp"
#include "fake_accounts.hpp"
#include "params.hpp"
#include "rpc/dcerpc.hpp"
#include "rpc/ndr.hpp"
#include "rpc/rpc.hpp"

using namespace smbsrv;
using namespace smbsrv::rpc;

namespace {

Bytes unhex(const std::string &s)
{
	Bytes b;
	REQUIRE(from_hex(s, b));
	return b;
}

ServerInfo test_server()
{
	Diagnostics d;
	Config cfg = load_config_file(std::string(SMBSRV_TEST_DATA) + "/rpc/server.conf", d);
	REQUIRE_FALSE(d.has_errors());
	return server_info(cfg);
}

struct Exchange {
	Bytes in, out;
};

std::vector<Exchange> recording(const std::string &name)
{
	std::ifstream f(std::string(SMBSRV_TEST_DATA) + "/rpc/" + name + ".txt");
	REQUIRE(f);
	std::vector<Exchange> ex;
	for (std::string line; std::getline(f, line);) {
		if (line.starts_with("> "))
			ex.push_back({unhex(line.substr(2)), {}});
		else if (line.starts_with("< ") && !ex.empty() && line != "< -")
			ex.back().out = unhex(line.substr(2));
	}
	return ex;
}

// The association group a bind_ack hands out is the server's choice.
Bytes without_assoc_group(Bytes b)
{
	if (b.size() >= 24 && (b[2] == PTYPE_BIND_ACK || b[2] == PTYPE_ALTER_CONTEXT_RESP))
		std::fill(b.begin() + 20, b.begin() + 24, 0);
	return b;
}

// Every PDU in out is well formed: version 5.0, little-endian, a frag
// length that adds up, a type a server sends.  Returns their types.
std::vector<uint8_t> pdus(const Bytes &out)
{
	std::vector<uint8_t> types;
	size_t off = 0;
	while (off < out.size()) {
		REQUIRE(out.size() - off >= 16);
		CHECK(out[off] == 5);
		CHECK(out[off + 1] == 0);
		CHECK(out[off + 4] == 0x10);
		uint16_t len = get_u16(out, off + 8);
		REQUIRE(len >= 16);
		REQUIRE(out.size() - off >= len);
		uint8_t t = out[off + 2];
		CHECK((t == PTYPE_BIND_ACK || t == PTYPE_BIND_NAK || t == PTYPE_RESPONSE ||
		       t == PTYPE_FAULT || t == PTYPE_ALTER_CONTEXT_RESP));
		types.push_back(t);
		off += len;
	}
	return types;
}

uint32_t fault_status(const Bytes &out)
{
	REQUIRE(out.size() == 32);
	REQUIRE(out[2] == PTYPE_FAULT);
	return get_u32(out, 24);
}

// A bind PDU with the given presentation contexts (abstract, transfer).
Bytes bind_pdu(const std::vector<std::pair<SyntaxId, SyntaxId>> &ctx, uint8_t ptype = PTYPE_BIND)
{
	Bytes b = {5, 0, ptype, 3, 0x10, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0};
	put_u16(b, 4280);
	put_u16(b, 4280);
	put_u32(b, 0);
	b.push_back(static_cast<uint8_t>(ctx.size()));
	b.insert(b.end(), {0, 0, 0});
	uint16_t id = 0;
	for (const auto &[a, t] : ctx) {
		put_u16(b, id++);
		b.push_back(1);
		b.push_back(0);
		b.insert(b.end(), a.uuid.b.begin(), a.uuid.b.end());
		put_u32(b, a.version);
		b.insert(b.end(), t.uuid.b.begin(), t.uuid.b.end());
		put_u32(b, t.version);
	}
	b[8] = static_cast<uint8_t>(b.size());
	b[9] = static_cast<uint8_t>(b.size() >> 8);
	return b;
}

Bytes request_pdu(uint16_t opnum, const Bytes &stub, uint32_t call_id = 2, uint16_t ctx = 0)
{
	Bytes b = {5, 0, PTYPE_REQUEST, 3, 0x10, 0, 0, 0, 0, 0, 0, 0};
	put_u32(b, call_id);
	put_u32(b, static_cast<uint32_t>(stub.size()));
	put_u16(b, ctx);
	put_u16(b, opnum);
	append(b, stub);
	b[8] = static_cast<uint8_t>(b.size());
	b[9] = static_cast<uint8_t>(b.size() >> 8);
	return b;
}

const SyntaxId srvsvc{Uuid::parse("4b324fc8-1670-01d3-1278-5a47bf6ee188"), 3};

} // namespace

TEST_CASE("rpc: impacket's recorded exchanges replay byte for byte")
{
	struct Case {
		const char *name, *pipe;
		bool admin;
	};
	for (auto c : {Case{"share-enum-1", "srvsvc", false},
		       Case{"share-enum-2-admin", "srvsvc", true},
		       Case{"wksta-100", "wkssvc", false}}) {
		auto pipe = open_pipe(c.pipe, test_server(), c.admin);
		REQUIRE(pipe);
		auto ex = recording(c.name);
		REQUIRE(ex.size() >= 2);
		for (const auto &e : ex) {
			CAPTURE(c.name);
			CHECK(without_assoc_group(pipe->process(e.in)) == without_assoc_group(e.out));
		}
	}
}

TEST_CASE("rpc: bind negotiates NDR, declines NDR64, acks bind time features")
{
	auto pipe = open_pipe("\\PIPE\\SRVSVC", test_server(), false);
	REQUIRE(pipe);
	SyntaxId btfn{Uuid::parse("6cb71c2c-9812-4540-0300-000000000000"), 1};
	Bytes out = pipe->process(bind_pdu({{srvsvc, NDR32}, {srvsvc, NDR64}, {srvsvc, btfn}}));
	REQUIRE(pdus(out) == std::vector<uint8_t>{PTYPE_BIND_ACK});
	// The secondary address names the pipe.
	CHECK(get_u16(out, 24) == 13);
	CHECK(std::string(out.begin() + 26, out.begin() + 38) == "\\PIPE\\srvsvc");
	size_t res = 40; // after the address and its padding
	REQUIRE(out[res] == 3);
	auto result = [&](size_t i) { return get_u16(out, res + 4 + 24 * i); };
	auto reason = [&](size_t i) { return get_u16(out, res + 6 + 24 * i); };
	CHECK(result(0) == 0); // acceptance, NDR
	CHECK(std::equal(NDR32.uuid.b.begin(), NDR32.uuid.b.end(), out.begin() + res + 8));
	CHECK(result(1) == 2); // provider rejection ...
	CHECK(reason(1) == 2); // ... proposed transfer syntaxes not supported
	CHECK(result(2) == 3); // negotiate_ack ...
	CHECK(reason(2) == 3); // ... with both features granted

	// A call on the accepted context works; on the declined one it faults.
	Bytes enum_stub = unhex("0000000001000000010000000100020000000000000000"
				"00ffffffff00000000");
	CHECK(pdus(pipe->process(request_pdu(15, enum_stub, 2, 0))) ==
	      std::vector<uint8_t>{PTYPE_RESPONSE});
	CHECK(fault_status(pipe->process(request_pdu(15, enum_stub, 3, 1))) == NCA_S_UNK_IF);
	CHECK(fault_status(pipe->process(request_pdu(15, enum_stub, 4, 9))) == NCA_S_UNK_IF);
	// alter context adds a context later.
	out = pipe->process(bind_pdu({{srvsvc, NDR32}}, PTYPE_ALTER_CONTEXT));
	CHECK(pdus(out) == std::vector<uint8_t>{PTYPE_ALTER_CONTEXT_RESP});
}

TEST_CASE("rpc: requests before a bind, unknown opnums, bad stub data")
{
	auto pipe = open_pipe("srvsvc", test_server(), false);
	CHECK(fault_status(pipe->process(request_pdu(15, {}))) == NCA_S_PROTO_ERROR);
	pipe->process(bind_pdu({{srvsvc, NDR32}}));
	CHECK(fault_status(pipe->process(request_pdu(99, {}))) == NCA_S_OP_RNG_ERROR);
	CHECK(fault_status(pipe->process(request_pdu(15, {}))) == NCA_S_FAULT_NDR);
	CHECK(fault_status(pipe->process(request_pdu(16, unhex("00000000ffffff7f00000000ffffff7f")))) ==
	      NCA_S_FAULT_NDR);
	// A request with an authentication trailer nobody negotiated.
	Bytes authed = request_pdu(21, unhex("0000000065000000"));
	authed[10] = 16;
	CHECK(fault_status(pipe->process(authed)) == NCA_S_PROTO_ERROR);
	CHECK(pdus(pipe->process(request_pdu(21, unhex("0000000065000000")))) ==
	      std::vector<uint8_t>{PTYPE_RESPONSE});
	CHECK(open_pipe("lsarpc", test_server(), false) == nullptr);
}

TEST_CASE("rpc: binds that cannot be served get a bind_nak")
{
	auto nak_reason = [](const Bytes &out) {
		REQUIRE(pdus(out) == std::vector<uint8_t>{PTYPE_BIND_NAK});
		return get_u16(out, 16);
	};
	Bytes b = bind_pdu({{srvsvc, NDR32}});
	Bytes v4 = b;
	v4[0] = 4;
	CHECK(nak_reason(open_pipe("srvsvc", test_server(), false)->process(v4)) == 4);
	Bytes authed = b;
	authed[10] = 8;
	CHECK(nak_reason(open_pipe("srvsvc", test_server(), false)->process(authed)) == 8);
	Bytes tiny = b;
	tiny[18] = 0x10; // max_recv_frag 16
	tiny[19] = 0;
	CHECK(nak_reason(open_pipe("srvsvc", test_server(), false)->process(tiny)) == 2);
	Bytes none = b;
	none[24] = 0; // no presentation context
	CHECK(nak_reason(open_pipe("srvsvc", test_server(), false)->process(none)) == 0);
}

TEST_CASE("rpc: a PDU split across writes waits for its end, at every cut")
{
	auto ex = recording("share-enum-1");
	Bytes bind = ex[0].in, req = ex[1].in;
	for (size_t cut = 0; cut <= req.size(); cut++) {
		auto pipe = open_pipe("srvsvc", test_server(), false);
		pipe->process(bind);
		Bytes first(req.begin(), req.begin() + static_cast<long>(cut));
		Bytes rest(req.begin() + static_cast<long>(cut), req.end());
		Bytes out = pipe->process(first);
		if (cut < req.size())
			CHECK(out.empty());
		append(out, pipe->process(rest));
		CHECK(out == ex[1].out);
	}
	// Two PDUs in one write: two answers.
	auto pipe = open_pipe("srvsvc", test_server(), false);
	Bytes both = bind;
	append(both, req);
	CHECK(pdus(pipe->process(both)) ==
	      std::vector<uint8_t>{PTYPE_BIND_ACK, PTYPE_RESPONSE});
}

TEST_CASE("rpc: truncated and mutated PDUs never get more than faults")
{
	auto ex = recording("share-enum-1");
	// Every truncation of the bind and of the request, each passed as a
	// complete PDU (frag_length rewritten to the cut).
	for (const Bytes &whole : {ex[0].in, ex[1].in}) {
		for (size_t cut = 16; cut < whole.size(); cut++) {
			auto pipe = open_pipe("srvsvc", test_server(), false);
			if (&whole != &ex[0].in)
				pipe->process(ex[0].in);
			Bytes t(whole.begin(), whole.begin() + static_cast<long>(cut));
			t[8] = static_cast<uint8_t>(cut);
			t[9] = 0;
			auto types = pdus(pipe->process(t));
			CHECK(types.size() <= 1);
		}
	}
	// Random mutations of the exchange, through one pipe: every answer
	// is well formed, and the pipe still answers a good request after.
	std::mt19937 rng(12345);
	auto pipe = open_pipe("srvsvc", test_server(), false);
	for (int i = 0; i < 3000; i++) {
		Bytes m = ex[static_cast<size_t>(i % 2)].in;
		int flips = 1 + static_cast<int>(rng() % 4);
		for (int f = 0; f < flips; f++)
			m[rng() % m.size()] = static_cast<uint8_t>(rng());
		if (rng() % 4 == 0)
			m.resize(rng() % m.size());
		pdus(pipe->process(m));
	}
	pipe = open_pipe("srvsvc", test_server(), false);
	CHECK(pdus(pipe->process(ex[0].in)) == std::vector<uint8_t>{PTYPE_BIND_ACK});
	CHECK(pipe->process(ex[1].in) == ex[1].out);
}

TEST_CASE("rpc: a client that never finishes a PDU is cut off")
{
	auto pipe = open_pipe("srvsvc", test_server(), false);
	Bytes header = {5, 0, PTYPE_REQUEST, 1, 0x10, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0};
	CHECK(pipe->process(header).empty());
	Bytes junk(Endpoint::max_request, 0);
	CHECK(fault_status(pipe->process(junk)) == NCA_S_PROTO_ERROR);
}

TEST_CASE("ndr: strings and pointers are checked against the data")
{
	NdrWriter w;
	w.ptr(true);
	w.string("Grüße");
	w.u32(7);
	Bytes b = w.take();
	NdrReader r(b);
	CHECK(r.unique_string() == "Grüße");
	CHECK(r.u32() == 7);
	CHECK(r.remaining() == 0);
	for (size_t cut = 0; cut < b.size() - 4; cut++) {
		NdrReader t(ByteView(b).first(cut));
		CHECK_THROWS_AS((t.unique_string(), t.u32()), NdrError);
	}
	// offset must be 0, actual within max, the last character NUL.
	for (const char *bad : {"010000000100000001000000410000", "02000000000000000300000041004200",
				"0200000000000000020000004100420000"}) {
		Bytes x = unhex(bad);
		NdrReader t(x);
		CHECK_THROWS_AS(t.string(), NdrError);
	}
}

TEST_CASE("rpc: the daemon's pipes: admins are IPC$'s admin users")
{
	std::string text = "[global]\n netbios name = SMBSRV-TEST\n workgroup = TESTGROUP\n"
			   " server string = smbsrv RPC test\n"
			   "[demo]\n path = /srv/demo\n comment = Demo share\n"
			   "[Daten]\n path = /srv/daten\n comment = Dateien für alle\n"
			   "[hidden]\n path = /srv/hidden\n comment = not listed\n browseable = no\n";
	Diagnostics d;
	Config plain = build_config(parse_conf_text(text, "t.conf", d), d);
	Config admins = build_config(
		parse_conf_text(text + "[IPC$]\n comment = IPC share\n admin users = Alice, carol\n",
				"t.conf", d),
		d);
	REQUIRE_FALSE(d.has_errors());
	auto replay = [](std::unique_ptr<RpcEndpoint> pipe) {
		REQUIRE(pipe);
		bool same = true;
		for (const auto &e : recording("share-enum-2-admin"))
			same = same && without_assoc_group(pipe->process(e.in)) ==
					       without_assoc_group(e.out);
		return same;
	};
	auto a = test::accounts();
	CHECK(replay(open_pipe("srvsvc", admins, "alice", a)));
	CHECK(replay(open_pipe("\\PIPE\\srvsvc", admins, "carol", a)));
	CHECK_FALSE(replay(open_pipe("srvsvc", admins, "bob", a)));
	CHECK_FALSE(replay(open_pipe("srvsvc", admins, "", a)));
	CHECK_FALSE(replay(open_pipe("srvsvc", plain, "alice", a)));
	CHECK(open_pipe("lsarpc", admins, "alice", a) == nullptr);

	// @group names every member, as in share access lists; [global]
	// sets IPC$'s default.
	Config group = build_config(
		parse_conf_text("[global]\n admin users = @family\n" + text, "t.conf", d), d);
	REQUIRE_FALSE(d.has_errors());
	CHECK(replay(open_pipe("srvsvc", group, "alice", a)));
	CHECK(replay(open_pipe("srvsvc", group, "bob", a)));
	CHECK_FALSE(replay(open_pipe("srvsvc", group, "demo", a)));
	CHECK_FALSE(replay(open_pipe("srvsvc", group, "carol", a)));
}
