// SPDX-License-Identifier: GPL-2.0-or-later
//
// The module's counters in the Prometheus text exposition format (0.0.4):
// what `smbsrvctl stats --prometheus` writes for node_exporter's textfile
// collector and what smbsrvd's `metrics listen` endpoint serves.  The
// metric names are Documentation/admin-guide.md's "Metrics" table.
#pragma once

#include <string>

#include "ctl_json.hpp"

namespace smbsrv {

// Every metric of a snapshot, each family with its HELP and TYPE lines.
std::string prometheus_text(const StatsSnapshot &s);

// What is served when the module cannot be asked: smbsrv_up 0 (with why
// as a comment), so a scrape tells "module gone" from "host gone".
std::string prometheus_down_text(const std::string &why);

// The Content-Type of both.
inline constexpr const char *prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

} // namespace smbsrv
