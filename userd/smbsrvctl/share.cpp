// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl share list|show|add|update|del: the shares of the
// configuration file, edited in place (share_admin.hpp).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <strings.h>
#include <sys/stat.h>

#include "atomic_file.hpp"
#include "config.hpp"
#include "ctl.hpp"
#include "ctl_json.hpp"
#include "netlink.hpp"
#include "params.hpp"
#include "share_admin.hpp"

namespace smbsrv::ctl {

namespace {

Config load(const Options &o)
{
	Diagnostics d;
	Config cfg = load_config_file(o.config, d);
	for (const auto &x : d.all())
		if (x.severity == Severity::error)
			std::cerr << x.str() << "\n";
	return cfg;
}

// The shares' tree connects now, if the module can be asked.
std::optional<std::vector<ShareUse>> share_uses()
{
	try {
		GenlChannel nl;
		return nl.status().share_uses;
	} catch (const std::exception &) {
		// No module, or no permission: the configuration is all there is.
		return std::nullopt;
	}
}

int list(const Options &o)
{
	Config cfg = load(o);
	if (o.json) {
		print_json(shares_json(cfg, share_uses(), o.pretty));
		return 0;
	}
	size_t wn = 4, wp = 4;
	for (const auto &s : cfg.shares) {
		wn = std::max(wn, s.name.size());
		wp = std::max(wp, s.params.str("path").size());
	}
	std::printf("%-*s  %-*s  %s\n", static_cast<int>(wn), "NAME",
		    static_cast<int>(wp), "PATH", "COMMENT");
	for (const auto &s : cfg.shares)
		std::printf("%-*s  %-*s  %s\n", static_cast<int>(wn), s.name.c_str(),
			    static_cast<int>(wp), s.params.str("path").c_str(),
			    s.params.str("comment").c_str());
	return 0;
}

int show(const Options &o, const std::string &name, bool all)
{
	Config cfg = load(o);
	const ShareConfig *s = cfg.share(name);
	if (!s) {
		std::fprintf(stderr, "smbsrvctl: no share '%s' in %s\n", name.c_str(),
			     o.config.c_str());
		return 1;
	}
	if (o.json) {
		print_json(share_json(*s, all, o.pretty));
		return 0;
	}
	std::fputs(dump_share(*s, all).c_str(), stdout);
	// With the module loaded: the share's tree connects now, and whether
	// its max connections limits them.
	try {
		GenlChannel nl;
		ServerStatus st = nl.status();
		uint32_t trees = 0;
		for (const auto &u : st.share_uses)
			if (strcasecmp(u.name.c_str(), s->name.c_str()) == 0)
				trees = u.trees;
		uint64_t most = s->params.has("max connections")
					? s->params.number("max connections")
					: 0;
		std::printf("; %s\n", share_use_text(trees, static_cast<uint32_t>(
								    std::min<uint64_t>(most, 65536)),
							    " now")
					       .c_str());
	} catch (const std::exception &) {
		// No module, or no permission: the configuration is all there is.
	}
	return 0;
}

int edit(const Options &o, ShareOp op, const std::string &name,
	 const std::vector<ShareOption> &opts)
{
	DirLock lock(o.config);
	std::optional<std::string> text = read_file(o.config);
	if (!text && op != ShareOp::add) {
		std::fprintf(stderr, "smbsrvctl: %s does not exist\n", o.config.c_str());
		return 1;
	}
	ShareEdit r = edit_share(text.value_or(""), o.config, op, name, opts);
	for (const auto &e : r.errors)
		std::fprintf(stderr, "smbsrvctl: %s\n", e.c_str());
	if (!r.errors.empty()) {
		std::fprintf(stderr, "smbsrvctl: %s left unchanged\n", o.config.c_str());
		return 1;
	}
	for (const auto &w : r.warnings)
		std::fprintf(stderr, "%s\n", w.c_str());
	for (const auto &opt : opts) {
		struct stat st {};
		if (find_param(opt.key)->name == "path" && !opt.value.empty() &&
		    stat(opt.value.c_str(), &st) != 0)
			std::fprintf(stderr, "smbsrvctl: warning: path %s does not exist (yet)\n",
				     opt.value.c_str());
	}
	write_file_atomic(o.config, r.text);
	const char *what = op == ShareOp::add ? "added to" :
			   op == ShareOp::update ? "updated in" : "removed from";
	std::printf("share '%s' %s %s\n", name.c_str(), what, o.config.c_str());
	return o.reload ? reload_daemon(o, false) : 0;
}

} // namespace

int cmd_share(const Options &o, const Args &args)
{
	if (args.size() < 2)
		throw UsageError("share: which action? list, show, add, update or del");
	const std::string &action = args[1];
	if (action == "list") {
		if (args.size() != 2)
			throw UsageError("share list takes no arguments");
		return list(o);
	}
	if (args.size() < 3)
		throw UsageError("share " + action + ": which share?");
	const std::string &name = args[2];
	bool all = false;
	std::vector<ShareOption> opts;
	for (size_t i = 3; i < args.size(); i++) {
		const std::string &a = args[i];
		if ((a == "-a" || a == "--all") && action == "show") {
			all = true;
		} else if ((a == "-o" || a == "--option") && i + 1 < args.size()) {
			try {
				opts.push_back(parse_share_option(args[++i]));
			} catch (const std::invalid_argument &e) {
				throw UsageError(e.what());
			}
		} else {
			std::string msg = "share ";
			msg += action;
			msg += ": unexpected '" + a + "'";
			throw UsageError(msg);
		}
	}
	if (o.json && action != "show")
		throw UsageError("no JSON output for 'share " + action + "'");
	if (action == "show")
		return show(o, name, all);
	if (action == "add")
		return edit(o, ShareOp::add, name, opts);
	if (action == "update") {
		if (opts.empty())
			throw UsageError("share update: nothing to change (-o \"key = value\")");
		return edit(o, ShareOp::update, name, opts);
	}
	if (action == "del" || action == "delete") {
		if (!opts.empty())
			throw UsageError("share del takes no options");
		return edit(o, ShareOp::del, name, opts);
	}
	throw UsageError("share: unknown action '" + action + "'");
}

} // namespace smbsrv::ctl
