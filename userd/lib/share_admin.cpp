// SPDX-License-Identifier: GPL-2.0-or-later
#include "share_admin.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "conf_edit.hpp"
#include "config.hpp"
#include "params.hpp"

namespace smbsrv {

namespace {

// The messages (without file:line, which an edit shifts) of a text's
// diagnostics of one severity.
std::multiset<std::string> messages(std::string_view text, const std::string &file,
				    Severity sev, std::vector<Diagnostic> *all = nullptr)
{
	Diagnostics d;
	build_config(parse_conf_text(text, file, d), d);
	std::multiset<std::string> out;
	for (const auto &x : d.all()) {
		if (x.severity != sev)
			continue;
		out.insert(x.message);
		if (all)
			all->push_back(x);
	}
	return out;
}

// What `after` reports of a severity that `before` did not.
std::vector<std::string> new_problems(std::string_view before, std::string_view after,
				      const std::string &file, Severity sev)
{
	std::multiset<std::string> old = messages(before, file, sev);
	std::vector<Diagnostic> now;
	messages(after, file, sev, &now);
	std::vector<std::string> out;
	for (const auto &x : now) {
		auto it = old.find(x.message);
		if (it != old.end())
			old.erase(it);
		else
			out.push_back(x.str());
	}
	return out;
}

} // namespace

ShareOption parse_share_option(std::string_view opt)
{
	size_t eq = opt.find('=');
	if (eq == std::string_view::npos)
		throw std::invalid_argument("option '" + std::string(opt) +
					    "' is not 'parameter = value'");
	ShareOption o{trim(opt.substr(0, eq)), trim(opt.substr(eq + 1))};
	if (o.key.empty())
		throw std::invalid_argument("option '" + std::string(opt) +
					    "' has no parameter name");
	return o;
}

ShareEdit edit_share(std::string_view text, const std::string &file, ShareOp op,
		     std::string_view name, const std::vector<ShareOption> &opts)
{
	ShareEdit r;
	std::string bad = check_section_name(name);
	if (!bad.empty()) {
		r.errors.push_back(bad);
		return r;
	}
	if (normalize_section(name) == "global") {
		r.errors.emplace_back("[global] is not a share");
		return r;
	}
	for (const auto &o : opts) {
		const ParamDef *d = find_param(o.key);
		if (!d) {
			std::string hint = suggest_param(o.key);
			r.errors.push_back("unknown parameter '" + o.key + "'" +
					   (hint.empty() ? std::string()
							 : "; did you mean '" + hint + "'?"));
		} else if (d->scope == Scope::global) {
			r.errors.push_back("'" + std::string(d->name) +
					   "' is a global parameter, not a share's");
		}
	}
	if (!r.errors.empty())
		return r;

	ConfEditor e(text);
	bool exists = e.has_section(name);
	std::string quoted = "'" + std::string(name) + "'";
	try {
		switch (op) {
		case ShareOp::add: {
			if (exists) {
				r.errors.push_back("share " + quoted + " exists in " + file +
						   "; use 'share update' to change it");
				return r;
			}
			std::vector<std::pair<std::string, std::string>> params;
			bool has_path = false;
			for (const auto &o : opts) {
				if (o.value.empty())
					continue;
				has_path |= find_param(o.key)->name == "path";
				params.emplace_back(o.key, o.value);
			}
			if (!has_path) {
				r.errors.push_back("a share needs a path: -o \"path = /srv/" +
						   std::string(name) + "\"");
				return r;
			}
			e.add_section(name, params);
			break;
		}
		case ShareOp::update:
			if (!exists) {
				r.errors.push_back("no share " + quoted + " in " + file);
				return r;
			}
			for (const auto &o : opts) {
				if (o.value.empty())
					e.unset(name, o.key);
				else
					e.set(name, o.key, o.value);
			}
			break;
		case ShareOp::del:
			if (!exists) {
				r.errors.push_back("no share " + quoted + " in " + file);
				return r;
			}
			e.remove_section(name);
			break;
		}
	} catch (const std::invalid_argument &ex) {
		r.errors.emplace_back(ex.what());
		return r;
	}

	std::string after = e.text();
	r.errors = new_problems(text, after, file, Severity::error);
	if (!r.errors.empty())
		return r;
	r.warnings = new_problems(text, after, file, Severity::warning);
	r.text = std::move(after);
	return r;
}

} // namespace smbsrv
