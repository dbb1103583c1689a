// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the daemon's ksmbd.conf parser (userd/lib/config.*)
// and the typed configuration built from it (userd/lib/params.*), on
// arbitrary text.  Host names in hosts allow/deny resolve through a fixed
// table, never DNS.  A configuration that builds without errors must
// survive the round trip testparm-style tools rely on: its dump
// (dump_config) parses and builds again without errors, to the same dump.
// The IPC$ view of it (rpc::server_info) is taken too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "config.hpp"
#include "hosts.hpp"
#include "log.hpp"
#include "params.hpp"
#include "rpc/rpc.hpp"

using namespace smbsrv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool setup = [] {
		log::set_level(log::Level::error);
		set_host_resolver([](const std::string &name) -> std::vector<std::string> {
			if (name.empty() || name[0] > 'm')
				return {};
			return {"192.0.2.1", "2001:db8::1"};
		});
		return true;
	}();
	(void)setup;
	std::string_view text(reinterpret_cast<const char *>(data), size);

	Diagnostics d;
	RawConfig raw = parse_conf_text(text, "fuzz.conf", d);
	Config cfg = build_config(raw, d);
	for (const auto &diag : d.all())
		(void)diag.str();
	(void)rpc::server_info(cfg);
	host_allowed(cfg.global.list("hosts allow"), cfg.global.list("hosts deny"), "192.0.2.1");
	if (d.has_errors())
		return 0;

	std::string dump = dump_config(cfg, true);
	Diagnostics d2;
	Config again = build_config(parse_conf_text(dump, "dump.conf", d2), d2);
	if (d2.has_errors() || dump_config(again, true) != dump)
		__builtin_trap();
	return 0;
}
