// SPDX-License-Identifier: GPL-2.0-or-later
//
// The feature tables of the admin guide ("What smbsrv does and does not do
// yet") and the README ("What works, what does not yet") against the
// daemon's parameter table: a feature marked as working names only
// parameters smbsrv applies, one marked "not yet" or "no" only parameters
// it does not, every parameter smbsrv does not apply has such a row, and
// the README says of each feature what the admin guide says.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config.hpp"
#include "params.hpp"

using namespace smbsrv;

namespace {

std::string slurp(const std::string &rel)
{
	std::ifstream in(std::string(SMBSRV_TEST_DATA) + "/../../../" + rel);
	REQUIRE(in.good());
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

std::string trim(const std::string &s)
{
	size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
	return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The rows of the first Markdown table below `heading`, header and rule
// lines left out, each as its cells.
std::vector<std::vector<std::string>> table_after(const std::string &text,
						  const std::string &heading)
{
	size_t at = text.find("\n" + heading + "\n");
	REQUIRE(at != std::string::npos);
	std::istringstream in(text.substr(at + heading.size() + 2));
	std::vector<std::vector<std::string>> rows;
	std::string line;
	bool in_table = false;
	while (std::getline(in, line)) {
		if (line.rfind('#', 0) == 0)
			break;
		if (line.rfind('|', 0) != 0) {
			if (in_table)
				break;
			continue;
		}
		std::vector<std::string> cells;
		std::string cell;
		std::istringstream ls(line.substr(1));
		while (std::getline(ls, cell, '|'))
			cells.push_back(trim(cell));
		if (!in_table) { // the header; the rule line follows
			in_table = true;
			std::getline(in, line);
			continue;
		}
		rows.push_back(cells);
	}
	return rows;
}

struct ParamRef {
	std::string name, value; // value: "" for the parameter itself
	bool in_share = false;	 // "`max connections` in a share"
};

// "`a`, `b = c`, `d` in a share" -> references.
std::vector<ParamRef> param_refs(const std::string &cell)
{
	std::vector<ParamRef> out;
	static const std::regex item("`([^`=]+?)(?: = ([^`]+))?`( in a share)?");
	for (std::sregex_iterator it(cell.begin(), cell.end(), item), end; it != end; ++it) {
		ParamRef r;
		r.name = (*it)[1];
		r.value = (*it)[2];
		r.in_share = (*it)[3].matched;
		out.push_back(r);
	}
	return out;
}

// Does smbsrv act on this parameter (or on this value of it)?  A bare
// name: the table's mark.  With a value, or in a share section: whether
// the configuration layer reports it as accepted but not acted on.
bool applied(const ParamRef &r)
{
	const ParamDef *def = find_param(r.name);
	REQUIRE(def != nullptr);
	if (r.value.empty() && !r.in_share)
		return def->effect == Effect::applied;
	bool share_section = r.in_share || def->scope == Scope::share;
	std::string text = share_section ? "[s]\npath = /srv/s\n" : "[global]\n";
	text += r.name + " = " + (r.value.empty() ? "1" : r.value) + "\n";
	Diagnostics d;
	build_config(parse_conf_text(text, "t.conf", d), d);
	for (const auto &x : d.all())
		if (x.message.find("accepted but") != std::string::npos)
			return false;
	return true;
}

} // namespace

TEST_CASE("admin guide: what smbsrv does and does not do yet")
{
	auto rows = table_after(slurp("Documentation/admin-guide.md"),
				"## What smbsrv does and does not do yet");
	REQUIRE(rows.size() >= 20);
	std::set<std::string> not_applied_named;
	for (const auto &row : rows) {
		CAPTURE(row[0]);
		REQUIRE(row.size() == 3);
		const std::string &state = row[1];
		REQUIRE((state == "works" || state == "not yet" || state == "no"));
		for (const auto &ref : param_refs(row[2])) {
			CAPTURE(ref.name, ref.value, ref.in_share);
			bool a = applied(ref);
			CHECK(a == (state == "works"));
			if (!a && ref.value.empty() && !ref.in_share)
				not_applied_named.insert(ref.name);
		}
	}
	// Every parameter smbsrv does not act on is named by a row that says so.
	for (const auto &def : param_table()) {
		CAPTURE(def.name);
		if (def.effect != Effect::applied)
			CHECK(not_applied_named.contains(std::string(def.name)));
	}
}

TEST_CASE("README: what works and what does not yet agrees with the admin guide")
{
	std::map<std::string, std::string> guide;
	for (const auto &row : table_after(slurp("Documentation/admin-guide.md"),
					   "## What smbsrv does and does not do yet"))
		guide[row[0]] = row[1];
	auto rows = table_after(slurp("README.md"), "## What works, what does not yet");
	REQUIRE(rows.size() >= 10);
	for (const auto &row : rows) {
		CAPTURE(row[0]);
		REQUIRE(row.size() == 2);
		REQUIRE(guide.contains(row[0]));
		CHECK(guide[row[0]] == row[1]);
	}
	// The features newcomers ask about first are in the short table.
	for (const char *f : {"Oplocks", "Leases", "Directory leases", "Durable handles", "Persistent handles",
			      "Multichannel", "Kerberos", "NT ACLs", "Case-insensitive names",
			      "SMB Direct (RDMA)", "Zero-copy READ (`MSG_SPLICE_PAGES`)"}) {
		CAPTURE(f);
		bool found = false;
		for (const auto &row : rows)
			found = found || row[0] == f;
		CHECK(found);
	}
}

TEST_CASE("smbsrv.conf(5) describes every parameter smbsrv does not act on as such")
{
	std::string page = slurp("Documentation/man/smbsrv.conf.5");
	for (const auto &def : param_table()) {
		if (def.effect == Effect::applied)
			continue;
		CAPTURE(def.name);
		// The entry: from its .BR line to the next .TP or .SH.
		size_t at = page.find(".BR \"" + std::string(def.name) + "\"");
		REQUIRE(at != std::string::npos);
		size_t end = page.find("\n.", at + 1);
		std::string entry = page.substr(at, end - at);
		if (def.effect == Effect::not_yet)
			CHECK(entry.find("Not yet in effect") != std::string::npos);
		else
			CHECK(entry.find("ot supported") != std::string::npos);
	}
}
