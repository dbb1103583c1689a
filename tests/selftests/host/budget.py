#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The server-wide budget of opens, through impacket and raw PDUs: the
share's limits are `max open files` PER_SESSION, `max open files per user`
PER_USER and `server max open files` SERVER.  User demo opens files with
RWH leases over several sessions: each session stops at PER_SESSION with
TOO_MANY_OPENED_FILES, the user at PER_USER with INSUFFICIENT_RESOURCES
whatever session it uses; user alice then fills the server up to SERVER,
past which any open gets INSUFFICIENT_RESOURCES; `smbsrvctl stats` shows
the opens and counts each kind of refusal; dropping every connection
gives the opens, their leases and the kernel memory back.  Prints
PASS/FAIL lines for t_checks.

    budget.py PORT SHARE AGENT_PORT PER_SESSION PER_USER SERVER"""

import re
import struct
import sys
import time

import file3
from files import CREATE, Client, check, name
from storm import create_body, lease_ctx

ST_TOO_MANY = 0xC000011F
ST_INSUFFICIENT = 0xC000009A


def guest(script):
    return [ln for ln in file3.guest(script).splitlines()
            if not ln.startswith("__SMBSRV_RC__")]


def kmem():
    """Slab + kernel stacks + page tables in KiB, caches dropped first."""
    out = guest("sync; echo 2 > /proc/sys/vm/drop_caches; "
                "for f in /sys/kernel/slab/*/shrink; do echo 1 > $f; done "
                "2>/dev/null; sleep 1; awk '/^(Slab|KernelStack|PageTables):/"
                " { s += $2 } END { print s }' /proc/meminfo")
    nums = [ln.strip() for ln in out if ln.strip().isdigit()]
    return int(nums[-1])


def stats():
    out = {}
    for ln in guest("smbsrvctl stats"):
        m = re.match(r"(opens[^:]*): (\d+)$", ln.strip())
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


class Opener:
    """A session opening leased files until refused."""
    seq = 0

    def __init__(self, port, share, user):
        self.c = Client(port, share, user, user + "pass")

    def open_until(self, limit, tag):
        """Open up to @limit + 1 files; (opened, status of the refused)."""
        for i in range(limit + 1):
            Opener.seq += 1
            key = struct.pack("<QQ", 0x42554447, Opener.seq)
            st, d = self.c.raw(CREATE, create_body(
                "%s-%06d" % (tag, Opener.seq), ctxs=[lease_ctx(key)],
                oplock=0xFF))
            if st:
                return i, st
            if d[2] != 0xFF:
                return i, "no lease granted (oplock %#x)" % d[2]
        return limit + 1, 0

    def drop(self):
        try:
            self.c.smb._NetBIOSSession.close()
        except Exception:  # noqa: BLE001 - already gone is fine
            pass


def main():
    port, share, agent = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    per_sess, per_user, server = (int(a) for a in sys.argv[4:7])
    file3.AGENT[0] = agent
    base = kmem()
    st0 = stats()
    check("smbsrvctl stats shows no open before",
          st0.get("opens") == 0, "%s" % st0)

    sessions = []
    # demo: full sessions until the user's cap.
    opened, refused = 0, None
    while opened < per_user:
        s = Opener(port, share, "demo")
        sessions.append(s)
        n, st = s.open_until(per_sess, "demo")
        opened += n
        if opened < per_user:
            check("demo's session %d stops at max open files (%d) with "
                  "TOO_MANY_OPENED_FILES" % (len(sessions), per_sess),
                  n == per_sess and st == ST_TOO_MANY,
                  "%d opened, then %s" % (n, st if isinstance(st, str)
                                          else name(st)))
        else:
            refused = st
    check("demo stops at max open files per user (%d) across %d sessions "
          "with INSUFFICIENT_RESOURCES" % (per_user, len(sessions)),
          opened == per_user and refused == ST_INSUFFICIENT,
          "%d opened, then %s" % (opened, refused if isinstance(
              refused, str) or refused is None else name(refused)))
    s = Opener(port, share, "demo")
    sessions.append(s)
    n, st = s.open_until(0, "demo")
    check("a fresh session of demo is refused too", n == 0 and
          st == ST_INSUFFICIENT, "%d opened, then %s" % (n, name(st)))

    # alice: the rest of the server's budget.
    total, st = opened, 0
    while total < server:
        s = Opener(port, share, "alice")
        sessions.append(s)
        n, st = s.open_until(min(per_sess, server - total), "alice")
        total += n
        # A full session makes way for the next; any other refusal ends.
        if st and not (st == ST_TOO_MANY and n == per_sess):
            break
    check("alice fills the server to server max open files (%d) and is "
          "refused with INSUFFICIENT_RESOURCES" % server,
          total == server and st == ST_INSUFFICIENT,
          "%d opened in all, then %s" % (total, name(st) if st else "-"))
    st1 = stats()
    check("smbsrvctl stats: %d opens, refusals counted (server %d, user %d)"
          % (st1.get("opens", -1),
             st1.get("opens refused (server max open files)", -1),
             st1.get("opens refused (max open files per user)", -1)),
          st1.get("opens") == server and
          st1.get("opens refused (server max open files)", 0) >= 1 and
          st1.get("opens refused (max open files per user)", 0) >= 2,
          "%s" % st1)
    held = kmem()
    print("# %d opens with leases: kernel memory %d -> %d KiB (%.2f KiB "
          "per open)" % (server, base, held, (held - base) / server))
    for s in sessions:
        s.drop()
    guest("rm -f /srv/bg/demo* /srv/bg/alice*")
    target = base + max(1024, (held - base) // 10)
    for _ in range(30):
        now, st2 = kmem(), stats()
        if now <= target and st2.get("opens") == 0:
            break
        time.sleep(2)
    check("dropping the connections gives every open and its memory back "
          "(%d -> %d -> %d KiB, %d opens left)" % (base, held, now,
                                                  st2.get("opens", -1)),
          now <= target and st2.get("opens") == 0, "%s" % st2)
    # And the budget is whole again.
    s = Opener(port, share, "demo")
    n, st = s.open_until(per_sess, "again")
    check("after that demo opens %d files again" % per_sess,
          n == per_sess and st == ST_TOO_MANY,
          "%d opened, then %s" % (n, name(st) if st else "-"))
    s.drop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
