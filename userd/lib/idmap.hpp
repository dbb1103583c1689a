// SPDX-License-Identifier: GPL-2.0-or-later
//
// Domain SIDs to Unix ids, with Samba's parameters:
//
//   idmap config * : backend = tdb          the default range: SIDs of
//   idmap config * : range = 3000-7999      other domains get the next free
//                                           id there, kept (idmap_db.hpp)
//   idmap config DOM : backend = rid        domain DOM (its NetBIOS name):
//   idmap config DOM : range = 10000-999999 id = range low + RID
//
// The rid backend is Samba's arithmetic (base_rid 0): the same SID gets the
// same id on every server configured alike, with no state to keep; a RID
// whose id would fall beyond the range maps to nothing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "config.hpp"

namespace smbsrv {

class ParamSet;

struct IdmapRange {
	std::string backend; // "rid", "tdb", ... as configured, lower case
	uint32_t low = 0, high = 0;
	bool has_range = false;
	int line = 0;
};

class Idmap {
public:
	// The "idmap config" keys of [global] (stored by the configuration
	// layer as "idmap config DOM : backend" and "... : range").
	static Idmap from_params(const ParamSet &global);

	// The id of RID @rid of domain @domain (NetBIOS name, any case): only
	// a domain with backend = rid and a range maps.
	[[nodiscard]] std::optional<uint32_t> id(const std::string &domain, uint32_t rid) const;
	// Whether @domain has backend = rid with a range.
	[[nodiscard]] bool maps(const std::string &domain) const;
	[[nodiscard]] bool empty() const { return domains_.empty() && !default_range_; }
	// The * range (backend tdb) when one is configured: ids for SIDs of
	// domains that do not map.
	[[nodiscard]] const std::optional<std::pair<uint32_t, uint32_t>> &default_range() const
	{
		return default_range_;
	}

private:
	std::map<std::string, IdmapRange> domains_; // upper-case name -> range
	std::optional<std::pair<uint32_t, uint32_t>> default_range_;
};

// "idmap config DOM : opt" keys.  The configuration layer calls these.
namespace idmap_key {
// Whether @key (as written) is an idmap config key; its domain (upper
// case, "*" for the default) and its option (lower case) then.
bool parse(std::string_view key, std::string *domain, std::string *option);
std::string make(const std::string &domain, const std::string &option);
// "low - high": nullopt unless two numbers 1..2^32-2 with low <= high.
std::optional<std::pair<uint32_t, uint32_t>> range(std::string_view v);
// Check one line; the value to store (or "" to drop it) and problems in
// diags at @file:@line.
std::string check(const std::string &domain, const std::string &option,
		  const std::string &value, Diagnostics &diags, const std::string &file, int line);
// Checks across lines: every rid domain has a range, ranges do not
// overlap.  @lines: the line of each key.
void check_all(const ParamSet &global, const std::map<std::string, int> &lines,
	       Diagnostics &diags, const std::string &file);
} // namespace idmap_key

} // namespace smbsrv
