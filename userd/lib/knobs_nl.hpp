// SPDX-License-Identifier: GPL-2.0-or-later
//
// The module's knobs on the wire: struct Knobs <-> the "knobs" nest of the
// YNL spec, for startup (all knobs), knobs-set (some) and the status reply.
// One table maps each knob to its attribute and to the configuration
// parameter it comes from, so smbsrvctl can name knobs either way.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "params.hpp"

struct nl_msg;
struct nlattr;

namespace smbsrv {

struct KnobInfo {
	std::string_view name;	// as the YNL spec spells it: "route-policy"
	std::string_view param; // the configuration parameter: "route policy"
	int attr;		// SMBSRV_A_KNOBS_*
	uint32_t Knobs::*field; // nullptr for the one string knob
};

std::span<const KnobInfo> knob_table();

// A knob by spec name or parameter name, any case, '-', '_' or blanks.
const KnobInfo *find_knob(std::string_view name);

// Put a nest of type `type` holding the knobs whose attributes are in
// `only` (every knob when empty).  False if the message is full.
bool put_knobs(nl_msg *msg, int type, const Knobs &k,
	       std::span<const int> only = {});

// Read a knobs nest into k; attributes absent or too short leave their
// field as it was.  Returns the attributes found.
std::vector<int> parse_knobs(nlattr *nest, Knobs &k);

// A knob's value as text, the way the configuration spells it.
std::string knob_text(const KnobInfo &ki, const Knobs &k);

} // namespace smbsrv
