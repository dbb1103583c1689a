// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/route.c: which received messages may leave the per-CPU queue,
// and the adaptive policy's rule.
#include <catch2/catch.hpp>

#include "wire_util.hpp"

extern "C" {
#include "route.h"
#include "rw.h"
}

using namespace wiretest;

namespace {

Bytes write_msg(uint32_t length, uint32_t flags = 0)
{
	Bytes b = header(SMB2_WRITE, 7, flags);
	Bytes body(48, 0);
	put16(body, 0, SMB2_WRITE_REQ_SIZE);
	put16(body, SMB2_WRITE_REQ_DATA_OFFSET, 112);
	put32(body, SMB2_WRITE_REQ_LENGTH, length);
	append(b, body);
	b.resize(b.size() + 16, 0xab); // some of the data (peek never reads it)
	return b;
}

Bytes read_msg(uint32_t length, uint32_t flags = 0)
{
	Bytes b = header(SMB2_READ, 9, flags);
	Bytes body(49, 0);
	put16(body, 0, SMB2_READ_REQ_SIZE);
	put32(body, SMB2_READ_REQ_LENGTH, length);
	put64(body, SMB2_READ_REQ_OFFSET, 1u << 20);
	append(b, body);
	return b;
}

// A TRANSFORM header in front of @orig_size bytes of (pretend) ciphertext.
Bytes sealed_msg(uint32_t orig_size, uint16_t flags = SMB2_TRANSFORM_FLAG_ENCRYPTED)
{
	Bytes b(SMB2_TRANSFORM_HDR_SIZE, 0);
	put32(b, 0, SMB2_TRANSFORM_PROTO_NUMBER);
	put32(b, SMB2_TF_ORIG_SIZE, orig_size);
	put16(b, SMB2_TF_FLAGS, flags);
	put64(b, SMB2_TF_SESSION_ID, 0x1122334455667788ull);
	b.resize(b.size() + orig_size, 0x5a);
	return b;
}

smb2_route_info peek(const Bytes &b, size_t len)
{
	smb2_route_info ri{true, 12345, true, 54321, true};
	smb2_route_peek(b.data(), static_cast<uint32_t>(len), &ri);
	return ri;
}

smb2_route_info peek(const Bytes &b)
{
	return peek(b, b.size());
}

} // namespace

TEST_CASE("route peek: one plain WRITE is eligible", "[wire][route]")
{
	Bytes b = write_msg(1 << 20);
	smb2_route_info ri = peek(b);
	CHECK(ri.write);
	CHECK(ri.length == 1u << 20);

	SECTION("signed is still eligible")
	{
		put32(b, SMB2_HDR_FLAGS, SMB2_FLAGS_SIGNED);
		CHECK(peek(b).write);
	}
	SECTION("the Length field is whatever the client says")
	{
		put32(b, SMB2_HDR_SIZE + SMB2_WRITE_REQ_LENGTH, 0xffffffffu);
		CHECK(peek(b).length == 0xffffffffu);
	}
}

TEST_CASE("route peek: everything else stays bound", "[wire][route]")
{
	Bytes w = write_msg(4096);

	SECTION("other commands")
	{
		for (uint16_t cmd : {SMB2_READ, SMB2_CREATE, SMB2_NEGOTIATE, SMB2_SESSION_SETUP,
				     SMB2_FLUSH, SMB2_IOCTL}) {
			Bytes b = w;
			put16(b, SMB2_HDR_COMMAND, cmd);
			smb2_route_info ri = peek(b);
			CHECK_FALSE(ri.write);
			CHECK(ri.length == 0);
		}
	}
	SECTION("async, related or a response")
	{
		for (uint32_t f : {SMB2_FLAGS_ASYNC_COMMAND, SMB2_FLAGS_RELATED_OPERATIONS,
				   SMB2_FLAGS_SERVER_TO_REDIR}) {
			Bytes b = write_msg(4096, f);
			CHECK_FALSE(peek(b).write);
		}
	}
	SECTION("a compound: WRITE first, anything after")
	{
		Bytes b = write_msg(4096);
		b.resize(136, 0); // 8-aligned end of the first PDU
		put32(b, SMB2_HDR_NEXT_COMMAND, 136);
		append(b, header(SMB2_FLUSH, 8, SMB2_FLAGS_RELATED_OPERATIONS));
		Bytes body(24, 0);
		put16(body, 0, SMB2_FLUSH_REQ_SIZE);
		append(b, body);
		CHECK_FALSE(peek(b).write);
	}
	SECTION("a compound whose NextCommand points past the end")
	{
		Bytes b = write_msg(4096);
		put32(b, SMB2_HDR_NEXT_COMMAND, 4096);
		CHECK_FALSE(peek(b).write);
	}
	SECTION("encrypted, compressed and SMB1 messages")
	{
		for (uint32_t proto : {uint32_t{SMB2_TRANSFORM_PROTO_NUMBER},
				       uint32_t{SMB2_COMPRESSION_PROTO_NUMBER},
				       uint32_t{SMB1_PROTO_NUMBER}, uint32_t{0}}) {
			Bytes b = w;
			put32(b, SMB2_HDR_PROTOCOL, proto);
			CHECK_FALSE(peek(b).write);
		}
	}
	SECTION("a header whose StructureSize is wrong")
	{
		Bytes b = w;
		put16(b, SMB2_HDR_STRUCT_SIZE, 65);
		CHECK_FALSE(peek(b).write);
	}
	SECTION("every truncation before the Length field's end")
	{
		for (size_t n = 0; n < SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER; n++) {
			smb2_route_info ri = peek(w, n);
			CHECK_FALSE(ri.write);
			CHECK(ri.length == 0);
		}
		CHECK(peek(w, SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER).write);
	}
}

TEST_CASE("adaptive rule: deep queues of large WRITEs go unbound", "[wire][route]")
{
	smb2_route_info big{true, SMB2_ROUTE_LENGTH_MIN, false, 0, false};
	smb2_route_info small{true, SMB2_ROUTE_LENGTH_MIN - 1, false, 0, false};
	smb2_route_info other{false, 1u << 20, true, 1u << 20, false};

	// Queue depth 1 and 2 stay local whatever the size (the QD1 regression).
	for (uint32_t d = 0; d < SMB2_ROUTE_DEPTH_MIN; d++) {
		CHECK_FALSE(smb2_route_adaptive(&big, d));
		CHECK_FALSE(smb2_route_adaptive(&small, d));
	}
	CHECK(SMB2_ROUTE_DEPTH_MIN == 4);
	CHECK(SMB2_ROUTE_LENGTH_MIN == 65536);
	for (uint32_t d : {4u, 5u, 16u, 256u}) {
		CHECK(smb2_route_adaptive(&big, d));
		CHECK_FALSE(smb2_route_adaptive(&small, d)); // 4 KiB stays bound
		CHECK_FALSE(smb2_route_adaptive(&other, d)); // not eligible at all
	}
	smb2_route_info huge{true, 0xffffffffu, false, 0, false};
	CHECK(smb2_route_adaptive(&huge, 4));
}

TEST_CASE("route peek: one plain READ may run inline", "[wire][route]")
{
	Bytes b = read_msg(4096);
	smb2_route_info ri = peek(b);
	CHECK(ri.read);
	CHECK(ri.read_length == 4096);
	CHECK_FALSE(ri.write);
	CHECK(ri.length == 0);
	CHECK_FALSE(ri.sealed);

	SECTION("signed is still eligible")
	{
		put32(b, SMB2_HDR_FLAGS, SMB2_FLAGS_SIGNED);
		CHECK(peek(b).read);
	}
	SECTION("the Length field is whatever the client says")
	{
		put32(b, SMB2_HDR_SIZE + SMB2_READ_REQ_LENGTH, 0xffffffffu);
		CHECK(peek(b).read_length == 0xffffffffu);
	}
	SECTION("async, related or a response are not")
	{
		for (uint32_t f : {SMB2_FLAGS_ASYNC_COMMAND, SMB2_FLAGS_RELATED_OPERATIONS,
				   SMB2_FLAGS_SERVER_TO_REDIR}) {
			smb2_route_info r = peek(read_msg(4096, f));
			CHECK_FALSE(r.read);
			CHECK(r.read_length == 0);
		}
	}
	SECTION("a compound of READs is not")
	{
		Bytes c = read_msg(4096);
		c.resize(120, 0); // 8-aligned end of the first PDU
		put32(c, SMB2_HDR_NEXT_COMMAND, 120);
		append(c, read_msg(4096, SMB2_FLAGS_RELATED_OPERATIONS));
		CHECK_FALSE(peek(c).read);
	}
	SECTION("every truncation before the Length field's end")
	{
		for (size_t n = 0; n < SMB2_HDR_SIZE + SMB2_READ_REQ_BUFFER; n++)
			CHECK_FALSE(peek(b, n).read);
	}
	SECTION("other commands are not READs")
	{
		for (uint16_t cmd : {SMB2_WRITE, SMB2_CREATE, SMB2_CLOSE, SMB2_FLUSH,
				     SMB2_IOCTL, SMB2_QUERY_INFO}) {
			put16(b, SMB2_HDR_COMMAND, cmd);
			CHECK_FALSE(peek(b).read);
		}
	}
}

TEST_CASE("route peek: small encrypted messages are decrypted to look", "[wire][route]")
{
	// A READ request is 113 bytes; the limit leaves room, and no more.
	CHECK(SMB2_ROUTE_SEALED_MAX == 256);
	for (uint32_t n : {64u, 113u, 200u, 256u}) {
		smb2_route_info ri = peek(sealed_msg(n));
		CHECK(ri.sealed);
		CHECK_FALSE(ri.read);
		CHECK_FALSE(ri.write);
	}
	SECTION("larger ones (a WRITE's data) are left to the worker")
	{
		CHECK_FALSE(peek(sealed_msg(257)).sealed);
		CHECK_FALSE(peek(sealed_msg(1u << 20)).sealed);
	}
	SECTION("a TRANSFORM header that does not decode")
	{
		Bytes b = sealed_msg(113);
		CHECK_FALSE(peek(sealed_msg(113, 0)).sealed); // flags not "encrypted"
		CHECK_FALSE(peek(b, b.size() - 1).sealed);     // size mismatch
		CHECK_FALSE(peek(sealed_msg(63)).sealed);      // shorter than a header
		for (size_t n = 0; n < SMB2_TRANSFORM_HDR_SIZE; n++)
			CHECK_FALSE(peek(b, n).sealed);
	}
}

namespace {

struct Place {
	bool unbound;
	bool inline_write;
	bool inline_depth;
};

Place place(uint32_t inflight, bool behind, bool write, uint32_t len, bool unbound,
	    bool run_unbound)
{
	smb2_recv_facts f{inflight, behind, write, len, unbound, run_unbound};
	smb2_recv_placement p{!unbound, true, true};
	smb2_recv_place(&f, &p);
	return {p.unbound, p.inline_write, p.inline_depth};
}

} // namespace

TEST_CASE("receive placement: large WRITEs sent one at a time go unbound", "[wire][route]")
{
	const uint32_t big = 1u << 20, edge = SMB2_RECV_WAIT_MIN;

	for (bool unbound : {false, true}) {
		for (bool run : {false, true}) {
			CAPTURE(unbound, run);
			for (uint32_t len : {big, edge}) {
				Place p = place(0, false, true, len, unbound, run);
				CHECK(p.unbound);
				// Run inline only where the unbound run got it.
				CHECK(p.inline_write == run);
				CHECK_FALSE(p.inline_depth);
			}
		}
	}
}

TEST_CASE("receive placement: a small WRITE sent alone runs inline, per-CPU", "[wire][route]")
{
	for (uint32_t len : {4096u, SMB2_RECV_WAIT_MIN - 1})
		for (bool unbound : {false, true})
			for (bool run : {false, true}) {
				CAPTURE(len, unbound, run);
				Place p = place(0, false, true, len, unbound, run);
				CHECK_FALSE(p.unbound);
				CHECK(p.inline_write);
				// Alone: the inline path without the may-it-wait test.
				CHECK_FALSE(p.inline_depth);
			}
}

TEST_CASE("receive placement: depth, bytes behind or another command go per-CPU",
	  "[wire][route]")
{
	for (bool unbound : {false, true})
		for (bool run : {false, true}) {
			CAPTURE(unbound, run);
			// Two or more in flight.
			for (uint32_t n : {2u, 3u, 255u}) {
				Place p = place(n, false, true, 1u << 20, unbound, run);
				CHECK_FALSE(p.unbound);
				CHECK_FALSE(p.inline_write);
			}
			// Bytes behind the frame, whatever is in flight.
			for (uint32_t n : {0u, 1u, 4u}) {
				Place p = place(n, true, true, 1u << 20, unbound, run);
				CHECK_FALSE(p.unbound);
				CHECK_FALSE(p.inline_write);
			}
			// Not a plain WRITE (a READ, a compound, an encrypted one).
			Place p = place(0, false, false, 1u << 20, unbound, run);
			CHECK_FALSE(p.unbound);
			CHECK_FALSE(p.inline_write);
			CHECK_FALSE(p.inline_depth);
			// A large WRITE at depth goes to a worker.
			for (uint32_t n : {0u, 2u, 8u}) {
				Place q = place(n, n == 0, true, SMB2_RECV_WAIT_MIN,
						unbound, run);
				CHECK_FALSE(q.inline_depth);
			}
		}
}

TEST_CASE("receive placement: a small WRITE at depth may run inline, per-CPU only",
	  "[wire][route]")
{
	for (uint32_t len : {4096u, SMB2_RECV_WAIT_MIN - 1})
		for (bool unbound : {false, true})
			for (bool run : {false, true}) {
				CAPTURE(len, unbound, run);
				// Messages in flight, bytes behind, or both.
				for (uint32_t n : {2u, 8u, 255u})
					for (bool behind : {false, true}) {
						Place p = place(n, behind, true, len, unbound, run);
						CHECK_FALSE(p.unbound);
						CHECK_FALSE(p.inline_write);
						// Never in the unbound run: it may wait in
						// the socket, and that is not this path's.
						CHECK(p.inline_depth == !run);
					}
				Place p = place(0, true, true, len, unbound, run);
				CHECK_FALSE(p.inline_write);
				CHECK(p.inline_depth == !run);
				// Nothing behind, one in flight: not alone either.
				p = place(1, false, true, len, unbound, run);
				CHECK(p.inline_write == (unbound && run));
				CHECK(p.inline_depth == !run);
				// Not a WRITE: never.
				p = place(8, true, false, len, unbound, run);
				CHECK_FALSE(p.inline_depth);
			}
}

TEST_CASE("receive placement: one in flight and nothing behind decides nothing",
	  "[wire][route]")
{
	for (bool write : {false, true})
		for (uint32_t len : {4096u, 1u << 20})
			for (bool unbound : {false, true})
				for (bool run : {false, true}) {
					CAPTURE(write, len, unbound, run);
					Place p = place(1, false, write, len, unbound, run);
					CHECK(p.unbound == unbound);
					// A WRITE inline only in the unbound run of an
					// unbound placement.
					CHECK(p.inline_write == (write && unbound && run));
				}
}

TEST_CASE("write head: a plain WRITE whose data is the rest of the frame",
	  "[wire][route]")
{
	// write_msg() is the head and 16 bytes of data; the frame is longer.
	Bytes b = write_msg(1 << 20);
	const uint32_t frame = SMB2_WRITE_HEAD_SIZE + (1u << 20);
	smb2_route_info ri{false, 0, true, 5, true};

	REQUIRE(SMB2_WRITE_HEAD_SIZE == SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER);
	REQUIRE(smb2_route_write_head(b.data(), frame, &ri));
	CHECK(ri.write);
	CHECK(ri.length == 1u << 20);
	CHECK_FALSE(ri.read);
	CHECK_FALSE(ri.sealed);

	SECTION("the Length must be the rest of the frame")
	{
		CHECK_FALSE(smb2_route_write_head(b.data(), frame + 1, &ri));
		CHECK_FALSE(ri.write);
		CHECK_FALSE(smb2_route_write_head(b.data(), frame - 1, &ri));
		CHECK_FALSE(smb2_route_write_head(b.data(), SMB2_WRITE_HEAD_SIZE, &ri));
		put32(b, SMB2_HDR_SIZE + SMB2_WRITE_REQ_LENGTH, 0);
		CHECK_FALSE(smb2_route_write_head(b.data(), SMB2_WRITE_HEAD_SIZE, &ri));
		put32(b, SMB2_HDR_SIZE + SMB2_WRITE_REQ_LENGTH, 0xffffffffu);
		CHECK_FALSE(smb2_route_write_head(b.data(), 0xffffffffu, &ri));
	}
	SECTION("signed: into pages too (the signature is checked over them)")
	{
		Bytes c = b;
		put32(c, SMB2_HDR_FLAGS, SMB2_FLAGS_SIGNED);
		smb2_route_info si{};
		REQUIRE(smb2_route_write_head(c.data(), frame, &si));
		CHECK(si.write);
		CHECK(si.length == 1u << 20);
		put32(c, SMB2_HDR_FLAGS, SMB2_FLAGS_SIGNED | SMB2_FLAGS_RELATED_OPERATIONS);
		CHECK_FALSE(smb2_route_write_head(c.data(), frame, &si));
	}
	SECTION("compounded, async, related or a response: whole")
	{
		for (uint32_t f : {SMB2_FLAGS_ASYNC_COMMAND,
				   SMB2_FLAGS_RELATED_OPERATIONS, SMB2_FLAGS_SERVER_TO_REDIR}) {
			Bytes c = b;
			put32(c, SMB2_HDR_FLAGS, f);
			CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
		}
		Bytes c = b;
		put32(c, SMB2_HDR_NEXT_COMMAND, 120);
		CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
	}
	SECTION("data elsewhere, channel info, another structure: whole")
	{
		const std::pair<size_t, uint32_t> changes[] = {
			{SMB2_WRITE_REQ_DATA_OFFSET, 120},
			{SMB2_WRITE_REQ_DATA_OFFSET, 0},
			{SMB2_WRITE_REQ_CHANNEL, 1},
			{SMB2_WRITE_REQ_CHINFO_OFFSET, 112},
			{SMB2_WRITE_REQ_CHINFO_LENGTH, 16},
			{0, 48},
		};
		for (const auto &[off, v] : changes) {
			Bytes c = b;
			if (off == SMB2_WRITE_REQ_CHANNEL)
				put32(c, SMB2_HDR_SIZE + off, v);
			else
				put16(c, SMB2_HDR_SIZE + off, static_cast<uint16_t>(v));
			CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
		}
	}
	SECTION("other commands and protocols: whole")
	{
		Bytes c = b;
		put16(c, SMB2_HDR_COMMAND, SMB2_READ);
		CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
		c = b;
		put32(c, 0, SMB2_TRANSFORM_PROTO_NUMBER);
		CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
		c = b;
		put16(c, SMB2_HDR_STRUCT_SIZE, 65);
		CHECK_FALSE(smb2_route_write_head(c.data(), frame, &ri));
	}
}

TEST_CASE("sealed head: a TRANSFORM header whose message is the rest of the frame",
	  "[wire][route]")
{
	const uint32_t orig = SMB2_WRITE_HEAD_SIZE + (1u << 20);
	const uint32_t frame = SMB2_TRANSFORM_HDR_SIZE + orig;
	Bytes b = sealed_msg(orig);
	b.resize(SMB2_SEALED_HEAD_SIZE, 0x5a);

	REQUIRE(SMB2_SEALED_HEAD_SIZE == SMB2_TRANSFORM_HDR_SIZE + SMB2_WRITE_HEAD_SIZE);
	CHECK(smb2_route_sealed_head(b.data(), frame));

	SECTION("OriginalMessageSize must be the rest of the frame")
	{
		CHECK_FALSE(smb2_route_sealed_head(b.data(), frame + 1));
		CHECK_FALSE(smb2_route_sealed_head(b.data(), frame - 1));
	}
	SECTION("more than the head must follow")
	{
		Bytes c = sealed_msg(SMB2_WRITE_HEAD_SIZE);
		c.resize(SMB2_SEALED_HEAD_SIZE, 0);
		CHECK_FALSE(smb2_route_sealed_head(c.data(), SMB2_SEALED_HEAD_SIZE));
		Bytes d = sealed_msg(SMB2_WRITE_HEAD_SIZE + 1);
		d.resize(SMB2_SEALED_HEAD_SIZE, 0);
		CHECK(smb2_route_sealed_head(d.data(), SMB2_SEALED_HEAD_SIZE + 1));
	}
	SECTION("not encrypted, or another protocol")
	{
		Bytes c = sealed_msg(orig, 0);
		c.resize(SMB2_SEALED_HEAD_SIZE, 0);
		CHECK_FALSE(smb2_route_sealed_head(c.data(), frame));
		c = b;
		put32(c, 0, SMB2_PROTO_NUMBER);
		CHECK_FALSE(smb2_route_sealed_head(c.data(), frame));
		c = b;
		put32(c, 0, 0x424d53fcu);	// compressed
		CHECK_FALSE(smb2_route_sealed_head(c.data(), frame));
	}
}
