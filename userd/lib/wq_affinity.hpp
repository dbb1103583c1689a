// SPDX-License-Identifier: GPL-2.0-or-later
//
// The affinity of the module's unbound request workqueue.  The kernel does
// not export apply_workqueue_attrs() to modules, so smbsrv.ko creates the
// queue with WQ_SYSFS and smbsrvd sets it through sysfs at start-up:
// affinity scope "cpu" (a message starts on the CPU that queued it when
// that CPU is free) and not strict (it may run elsewhere when the CPU is
// busy).  See Documentation/design.md, "Request routing".
#pragma once

#include <string>
#include <vector>

#include "ctl_netlink.hpp"

namespace smbsrv {

inline constexpr const char *kWorkqueueSysfs = "/sys/devices/virtual/workqueue";

// Write affinity_scope and affinity_strict of every unbound queue in qs
// under sysfs/NAME/.  Returns one message per problem (empty: all set).
std::vector<std::string> tune_unbound_queues(const std::vector<QueueInfo> &qs,
					     const std::string &sysfs = kWorkqueueSysfs);

} // namespace smbsrv
