// SPDX-License-Identifier: GPL-2.0-or-later
#include "rpc/dcerpc.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "log.hpp"
#include "rpc/ndr.hpp"

namespace smbsrv::rpc {

const SyntaxId NDR32{Uuid::parse("8a885d04-1ceb-11c9-9fe8-08002b104860"), 2};
const SyntaxId NDR64{Uuid::parse("71710533-beba-4937-8319-b5dbef9ccc36"), 1};

namespace {

constexpr size_t header_len = 16;
constexpr uint16_t min_frag = 1432; // C706 12.6.3.1: every peer takes this

// Presentation context results and reasons (C706 12.6.3.1, MS-RPCE 2.2.2.4).
constexpr uint16_t ACCEPTANCE = 0;
constexpr uint16_t PROVIDER_REJECTION = 2;
constexpr uint16_t NEGOTIATE_ACK = 3;
constexpr uint16_t ABSTRACT_SYNTAX_NOT_SUPPORTED = 1;
constexpr uint16_t TRANSFER_SYNTAXES_NOT_SUPPORTED = 2;
// bind_nak reasons.
constexpr uint16_t NAK_LOCAL_LIMIT_EXCEEDED = 2;
constexpr uint16_t NAK_PROTOCOL_VERSION_NOT_SUPPORTED = 4;
constexpr uint16_t NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED = 8;

// Bind time feature negotiation (MS-RPCE 3.3.1.5.3): a transfer syntax
// whose UUID starts 6CB71C2C-9812-4540 carries the client's feature bits
// in the next octet.  smbsrv has no security contexts to multiplex and
// keeps a pipe open after an orphaned PDU, so it can grant both.
constexpr uint8_t btfn_prefix[8] = {0x2c, 0x1c, 0xb7, 0x6c, 0x12, 0x98, 0x40, 0x45};
constexpr uint8_t btfn_supported = 0x03;

std::atomic<uint32_t> next_assoc_group{0x53f0};

void put_uuid(Bytes &out, const Uuid &u)
{
	out.insert(out.end(), u.b.begin(), u.b.end());
}

void put_syntax(Bytes &out, const SyntaxId &s)
{
	put_uuid(out, s.uuid);
	put_u32(out, s.version);
}

SyntaxId get_syntax(ByteView b, size_t off)
{
	SyntaxId s;
	std::copy_n(b.begin() + static_cast<long>(off), 16, s.uuid.b.begin());
	s.version = get_u32(b, off + 16);
	return s;
}

// A PDU header; frag_length is patched by finish().
void begin(Bytes &out, uint8_t ptype, uint8_t flags, uint32_t call_id)
{
	out.insert(out.end(), {5, 0, ptype, flags, 0x10, 0, 0, 0});
	put_u16(out, 0); // frag_length
	put_u16(out, 0); // auth_length
	put_u32(out, call_id);
}

void finish(Bytes &out, size_t start)
{
	auto len = static_cast<uint16_t>(out.size() - start);
	out[start + 8] = static_cast<uint8_t>(len);
	out[start + 9] = static_cast<uint8_t>(len >> 8);
}

void pad4(Bytes &out, size_t start)
{
	while ((out.size() - start) % 4)
		out.push_back(0);
}

void bind_nak(uint32_t call_id, uint16_t reason, Bytes &out)
{
	size_t start = out.size();
	begin(out, PTYPE_BIND_NAK, PFC_FIRST_FRAG | PFC_LAST_FRAG, call_id);
	put_u16(out, reason);
	out.push_back(1); // one protocol version supported: 5.0
	out.push_back(5);
	out.push_back(0);
	pad4(out, start);
	finish(out, start);
}

} // namespace

Uuid Uuid::parse(const char *text)
{
	unsigned a = 0, b = 0, c = 0, d[8] = {};
	std::sscanf(text, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &a, &b, &c,
		    &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6], &d[7]);
	Uuid u;
	Bytes le;
	put_u32(le, a);
	put_u16(le, static_cast<uint16_t>(b));
	put_u16(le, static_cast<uint16_t>(c));
	std::copy(le.begin(), le.end(), u.b.begin());
	for (int i = 0; i < 8; i++)
		u.b[8 + i] = static_cast<uint8_t>(d[i]);
	return u;
}

Endpoint::Endpoint(std::string pipe, std::unique_ptr<Interface> iface)
	: pipe_(std::move(pipe)), iface_(std::move(iface))
{
}

Bytes Endpoint::process(ByteView request)
{
	Bytes out;
	if (in_.size() + request.size() > max_request) {
		// Never a whole PDU: a client feeding garbage.
		in_.clear();
		call_.reset();
		fault(0, 0, NCA_S_PROTO_ERROR, out);
		return out;
	}
	append(in_, request);
	size_t used = 0;
	while (in_.size() - used >= header_len) {
		ByteView rest = ByteView(in_).subspan(used);
		uint16_t frag_len = get_u16(rest, 8);
		uint32_t call_id = get_u32(rest, 12);
		if (rest[0] != 5 || rest[1] > 1 || (rest[4] & 0xf0) != 0x10 ||
		    frag_len < header_len) {
			// Not DCE/RPC 5.0/5.1 little-endian: nothing after it can be
			// trusted to start a PDU.
			if (rest[2] == PTYPE_BIND && rest[0] != 5)
				bind_nak(call_id, NAK_PROTOCOL_VERSION_NOT_SUPPORTED, out);
			else
				fault(call_id, 0, NCA_S_PROTO_ERROR, out);
			used = in_.size();
			call_.reset();
			break;
		}
		if (rest.size() < frag_len)
			break; // the rest comes with the next write
		pdu(rest.first(frag_len), out);
		used += frag_len;
	}
	in_.erase(in_.begin(), in_.begin() + static_cast<long>(used));
	return out;
}

void Endpoint::pdu(ByteView p, Bytes &out)
{
	uint8_t ptype = p[2];
	uint8_t flags = p[3];
	uint32_t call_id = get_u32(p, 12);
	switch (ptype) {
	case PTYPE_BIND:
	case PTYPE_ALTER_CONTEXT:
		bind(p, ptype, call_id, out);
		return;
	case PTYPE_REQUEST:
		request(p, flags, call_id, out);
		return;
	case PTYPE_AUTH3:
	case PTYPE_CO_CANCEL:
		return; // no answer is due; there is nothing to cancel
	case PTYPE_ORPHANED:
		if (call_ && call_->call_id == call_id)
			call_.reset();
		return;
	default:
		log::debug("pipe " + pipe_ + ": PDU type " + std::to_string(ptype) +
			   " from a client");
		fault(call_id, 0, NCA_S_PROTO_ERROR, out);
		call_.reset();
	}
}

void Endpoint::bind(ByteView p, uint8_t ptype, uint32_t call_id, Bytes &out)
{
	bool alter = ptype == PTYPE_ALTER_CONTEXT;
	auto refuse = [&](uint16_t nak_reason, uint32_t fault_status) {
		if (alter)
			fault(call_id, 0, fault_status, out);
		else
			bind_nak(call_id, nak_reason, out);
	};
	if (get_u16(p, 10) != 0) { // auth_length: smbsrv's pipes take none
		refuse(NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED, NCA_S_FAULT_ACCESS_DENIED);
		return;
	}
	if (p.size() < 28 || p[24] == 0) {
		refuse(0, NCA_S_PROTO_ERROR);
		return;
	}
	uint16_t client_recv = get_u16(p, 18);
	if (!alter && client_recv < min_frag) {
		refuse(NAK_LOCAL_LIMIT_EXCEEDED, NCA_S_PROTO_ERROR);
		return;
	}
	struct Result {
		uint16_t result, reason;
		SyntaxId syntax;
	};
	std::vector<Result> results;
	size_t off = 28;
	for (unsigned i = 0; i < p[24]; i++) {
		if (p.size() - off < 24) {
			refuse(0, NCA_S_PROTO_ERROR);
			return;
		}
		uint16_t ctx_id = get_u16(p, off);
		uint8_t n_ts = p[off + 2];
		SyntaxId abstract = get_syntax(p, off + 4);
		off += 24;
		if (n_ts == 0 || (p.size() - off) / 20 < n_ts) {
			refuse(0, NCA_S_PROTO_ERROR);
			return;
		}
		Result r{PROVIDER_REJECTION, TRANSFER_SYNTAXES_NOT_SUPPORTED, {}};
		bool ndr32 = false;
		for (unsigned t = 0; t < n_ts; t++, off += 20) {
			SyntaxId ts = get_syntax(p, off);
			if (std::equal(std::begin(btfn_prefix), std::end(btfn_prefix),
				       ts.uuid.b.begin()))
				r = {NEGOTIATE_ACK,
				     static_cast<uint16_t>(ts.uuid.b[8] & btfn_supported),
				     {}};
			ndr32 |= ts == NDR32;
		}
		if (r.result != NEGOTIATE_ACK) {
			if (abstract != iface_->syntax())
				r = {PROVIDER_REJECTION, ABSTRACT_SYNTAX_NOT_SUPPORTED, {}};
			else if (ndr32)
				r = {ACCEPTANCE, 0, NDR32};
		}
		if (r.result != NEGOTIATE_ACK)
			ctx_[ctx_id] = r.result == ACCEPTANCE;
		results.push_back(r);
	}

	if (!alter) {
		bound_ = true;
		xmit_ = std::min(client_recv, max_frag);
		uint32_t assoc = get_u32(p, 20);
		assoc_group_ = assoc ? assoc : next_assoc_group++;
	}
	size_t start = out.size();
	begin(out, alter ? PTYPE_ALTER_CONTEXT_RESP : PTYPE_BIND_ACK,
	      PFC_FIRST_FRAG | PFC_LAST_FRAG, call_id);
	put_u16(out, max_frag);
	put_u16(out, max_frag);
	put_u32(out, assoc_group_);
	// The secondary address: the pipe, on a bind; none on an alter context.
	std::string addr = alter ? "" : "\\PIPE\\" + pipe_;
	put_u16(out, static_cast<uint16_t>(addr.empty() ? 0 : addr.size() + 1));
	if (!addr.empty()) {
		append(out, as_bytes(addr));
		out.push_back(0);
	}
	pad4(out, start);
	out.push_back(static_cast<uint8_t>(results.size()));
	out.insert(out.end(), {0, 0, 0});
	for (const auto &r : results) {
		put_u16(out, r.result);
		put_u16(out, r.reason);
		put_syntax(out, r.syntax);
	}
	finish(out, start);
}

void Endpoint::request(ByteView p, uint8_t flags, uint32_t call_id, Bytes &out)
{
	size_t stub_off = 24 + ((flags & PFC_OBJECT_UUID) ? 16 : 0);
	if (!bound_ || p.size() < stub_off || get_u16(p, 10) != 0) {
		// Before a bind, or with an authentication trailer smbsrv never
		// negotiated, or too short to be a request.
		fault(call_id, 0, NCA_S_PROTO_ERROR, out);
		call_.reset();
		return;
	}
	uint16_t ctx = get_u16(p, 20);
	uint16_t opnum = get_u16(p, 22);
	ByteView stub = p.subspan(stub_off);
	if (flags & PFC_FIRST_FRAG) {
		call_ = Call{call_id, ctx, opnum, {}};
	} else if (!call_ || call_->call_id != call_id) {
		fault(call_id, ctx, NCA_S_PROTO_ERROR, out);
		call_.reset();
		return;
	}
	if (call_->stub.size() + stub.size() > max_request) {
		fault(call_id, ctx, NCA_S_PROTO_ERROR, out);
		call_.reset();
		return;
	}
	append(call_->stub, stub);
	if (!(flags & PFC_LAST_FRAG))
		return;

	Call c = std::move(*call_);
	call_.reset();
	auto it = ctx_.find(c.ctx);
	if (it == ctx_.end() || !it->second) {
		fault(call_id, c.ctx, NCA_S_UNK_IF, out);
		return;
	}
	std::optional<Bytes> result;
	try {
		result = iface_->call(c.opnum, c.stub);
	} catch (const NdrError &e) {
		log::info("pipe " + pipe_ + ": opnum " + std::to_string(c.opnum) +
			  ": bad stub data (" + e.what() + ")");
		fault(call_id, c.ctx, NCA_S_FAULT_NDR, out);
		return;
	}
	if (!result) {
		fault(call_id, c.ctx, NCA_S_OP_RNG_ERROR, out);
		return;
	}
	respond(call_id, c.ctx, *result, out);
}

void Endpoint::respond(uint32_t call_id, uint16_t ctx, ByteView stub, Bytes &out) const
{
	// Fragments no larger than the client takes, stub in multiples of 8.
	size_t room = (size_t{xmit_} - 24) / 8 * 8;
	size_t off = 0;
	do {
		size_t n = std::min(room, stub.size() - off);
		uint8_t flags = (off == 0 ? PFC_FIRST_FRAG : 0) |
				(off + n == stub.size() ? PFC_LAST_FRAG : 0);
		size_t start = out.size();
		begin(out, PTYPE_RESPONSE, flags, call_id);
		put_u32(out, static_cast<uint32_t>(stub.size() - off)); // alloc_hint
		put_u16(out, ctx);
		out.push_back(0); // cancel_count
		out.push_back(0);
		append(out, stub.subspan(off, n));
		finish(out, start);
		off += n;
	} while (off < stub.size());
}

void Endpoint::fault(uint32_t call_id, uint16_t ctx, uint32_t status, Bytes &out)
{
	size_t start = out.size();
	begin(out, PTYPE_FAULT, PFC_FIRST_FRAG | PFC_LAST_FRAG | PFC_DID_NOT_EXECUTE,
	      call_id);
	put_u32(out, 0); // alloc_hint
	put_u16(out, ctx);
	out.push_back(0); // cancel_count
	out.push_back(0);
	put_u32(out, status);
	put_u32(out, 0);
	finish(out, start);
}

} // namespace smbsrv::rpc
