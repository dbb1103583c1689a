#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# host/budget at the scale that once exhausted the guest: 10,000 leased
# opens per session, 35,000 per user (three full sessions of demo and half
# of a fourth), 60,000 in all (alice's sessions fill the rest), instead of
# make check's 300, 700 and 1,000.  Run with `make check-long`.
export BUDGET=${BUDGET:-10000 35000 60000}
exec bash "$(dirname "$0")/../host/budget.sh"
