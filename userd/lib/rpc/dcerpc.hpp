// SPDX-License-Identifier: GPL-2.0-or-later
//
// DCE/RPC connection-oriented PDUs (C706 chapter 12, MS-RPCE 2.2.2) and an
// endpoint that speaks them for one interface: presentation contexts with
// the NDR transfer syntax (NDR64 is declined), bind time feature
// negotiation, request reassembly, response fragmentation, and a fault
// PDU for anything it cannot serve.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "bytes.hpp"
#include "pipes.hpp"

namespace smbsrv::rpc {

struct Uuid {
	std::array<uint8_t, 16> b{}; // as on the wire
	// "4b324fc8-1670-01d3-1278-5a47bf6ee188" (a literal known good).
	static Uuid parse(const char *text);
	bool operator==(const Uuid &) const = default;
};

struct SyntaxId {
	Uuid uuid;
	uint32_t version = 0; // major | minor << 16, as on the wire
	bool operator==(const SyntaxId &) const = default;
};

// PDU types and header flags.
enum : uint8_t {
	PTYPE_REQUEST = 0,
	PTYPE_RESPONSE = 2,
	PTYPE_FAULT = 3,
	PTYPE_BIND = 11,
	PTYPE_BIND_ACK = 12,
	PTYPE_BIND_NAK = 13,
	PTYPE_ALTER_CONTEXT = 14,
	PTYPE_ALTER_CONTEXT_RESP = 15,
	PTYPE_AUTH3 = 16,
	PTYPE_CO_CANCEL = 18,
	PTYPE_ORPHANED = 19,
};
enum : uint8_t {
	PFC_FIRST_FRAG = 0x01,
	PFC_LAST_FRAG = 0x02,
	PFC_DID_NOT_EXECUTE = 0x20,
	PFC_OBJECT_UUID = 0x80,
};

// Fault statuses (MS-RPCE 3.1.1.5.5, MS-ERREF).
constexpr uint32_t NCA_S_OP_RNG_ERROR = 0x1c010002;
constexpr uint32_t NCA_S_UNK_IF = 0x1c010003;
constexpr uint32_t NCA_S_PROTO_ERROR = 0x1c01000b;
constexpr uint32_t NCA_S_FAULT_ACCESS_DENIED = 0x00000005;
constexpr uint32_t NCA_S_FAULT_NDR = 0x000006f7; // RPC_X_BAD_STUB_DATA

extern const SyntaxId NDR32;
extern const SyntaxId NDR64;

// One RPC interface: runs a call's stub data.
class Interface {
public:
	virtual ~Interface() = default;
	[[nodiscard]] virtual SyntaxId syntax() const = 0;
	// The response stub; nullopt for an opnum the interface lacks.
	// Throws NdrError for stub data it cannot decode.
	virtual std::optional<Bytes> call(uint16_t opnum, ByteView stub) = 0;
};

class Endpoint final : public RpcEndpoint {
public:
	Endpoint(std::string pipe, std::unique_ptr<Interface> iface);
	Bytes process(ByteView request) override;

	// Largest fragment either side sends; what smbsrv offers in bind_ack.
	static constexpr uint16_t max_frag = 4280;
	// Largest request (all fragments) and pending input smbsrv accepts.
	static constexpr size_t max_request = 1U << 20;

private:
	void pdu(ByteView pdu, Bytes &out);
	void bind(ByteView pdu, uint8_t ptype, uint32_t call_id, Bytes &out);
	void request(ByteView pdu, uint8_t flags, uint32_t call_id, Bytes &out);
	void respond(uint32_t call_id, uint16_t ctx, ByteView stub, Bytes &out) const;
	void fault(uint32_t call_id, uint16_t ctx, uint32_t status, Bytes &out);

	std::string pipe_;
	std::unique_ptr<Interface> iface_;
	Bytes in_;		      // input not yet a whole PDU
	std::map<uint16_t, bool> ctx_; // presentation contexts: accepted?
	bool bound_ = false;
	uint16_t xmit_ = max_frag; // the client's max_recv_frag, capped
	uint32_t assoc_group_ = 0;
	// The request being reassembled from fragments.
	struct Call {
		uint32_t call_id = 0;
		uint16_t ctx = 0;
		uint16_t opnum = 0;
		Bytes stub;
	};
	std::optional<Call> call_;
};

} // namespace smbsrv::rpc
