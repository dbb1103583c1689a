#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scale without unbounded state (issue 14 item 2), through impacket and
raw SMB2 PDUs: 10,000 open files in one session, 10,000 blocking locks
and 10,000 CHANGE_NOTIFY requests (on as many directory handles) waiting
across 100 sessions; the limits
answer with their statuses (TOO_MANY_OPENED_FILES past `max open files`,
INSUFFICIENT_RESOURCES past a connection's async limit, its credit
maximum), and dropping the connections gives back every open, waiter and
the kernel memory they took.  Prints PASS/FAIL lines for t_checks.

    scale.py PORT SHARE AGENT_PORT USER PASSWORD MAX_CREDITS"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "host"))
import files  # noqa: E402
import file3  # noqa: E402
from files import (DIRECTORY_FILE, OPEN_IF, READ_DATA, SH_ALL,  # noqa: E402
                   SYNCHRONIZE, Client, check, name)
from file3 import (EX, FLAG_ASYNC, LOCK, NOTIFY, ST,  # noqa: E402
                   lock_body, notify_body, recv, send)

N_OPENS = int(os.environ.get("SCALE_OPENS", "10000"))
N_SESS = int(os.environ.get("SCALE_SESSIONS", "100"))
PER_SESS = int(os.environ.get("SCALE_PER_SESSION", "100"))


def guest(script):
    """The guest script's output lines, without the agent's status line."""
    return [ln for ln in file3.guest(script).splitlines()
            if not ln.startswith("__SMBSRV_RC__")]


def kmem():
    """Slab + kernel stacks + page tables in KiB, caches dropped first."""
    out = guest("sync; echo 2 > /proc/sys/vm/drop_caches; "
                "for f in /sys/kernel/slab/*/shrink; do echo 1 > $f; done "
                "2>/dev/null; sleep 1; awk '/^(Slab|KernelStack|PageTables):/"
                " { s += $2 } END { print s }' /proc/meminfo")
    nums = [ln.strip() for ln in out if ln.strip().isdigit()]
    if not nums:
        raise RuntimeError("no memory figure from the guest: %r" % out)
    return int(nums[-1])


def opens_listed():
    """Lines of `smbsrvctl opens` naming an open (its header left out)."""
    out = guest("smbsrvctl opens 2>&1")
    return [ln for ln in out if ln.strip() and not ln.startswith("SESSION")]


def waiting(c, cmd, body):
    """Send one request that should wait; its first answer's status."""
    mid = send(c, cmd, body)
    st, flags, rmid, _, _ = recv(c)
    if rmid != mid or (st == ST["PENDING"] and not flags & FLAG_ASYNC):
        print("# sent MessageId %d, got %d status 0x%08x flags 0x%x" %
              (mid, rmid, st, flags))
        return None
    return st


def settle(base, held):
    """Memory comes back after the connections drop (the server tears
    them down in the background): wait up to a minute for it to be within
    a tenth of what was taken (at least 1 MiB: slab noise) of @base."""
    target = base + max(1024, (held - base) // 10)
    for _ in range(20):
        now = kmem()
        if now <= target:
            break
        time.sleep(2)
    return now, now <= target


def drop(clients):
    for c in clients:
        try:
            c.smb._NetBIOSSession.close()
        except Exception:  # noqa: BLE001 - already gone is fine
            pass


def opens(port, share, user, pw):
    base = kmem()
    c = Client(port, share, user, pw)
    t0 = time.time()
    bad = []
    for i in range(N_OPENS):
        r = c.create("s%05d" % i, disp=OPEN_IF, share=SH_ALL)
        if r.status:
            bad.append((i, r.status))
            if len(bad) > 3:
                break
    secs = time.time() - t0
    check("%d opens held in one session (%.0f s)" % (N_OPENS, secs), not bad,
          "first failures %s" % [(i, name(s)) for i, s in bad])
    r = c.create("one-more", disp=OPEN_IF, share=SH_ALL)
    check("open %d is refused with TOO_MANY_OPENED_FILES" % (N_OPENS + 1),
          r.status == files.ST.get("TOO_MANY_OPENED_FILES", 0xC000011F),
          "got %s" % name(r.status))
    held = kmem()
    print("# %d opens: kernel memory %d -> %d KiB (%.2f KiB per open and "
          "its file)" %
          (N_OPENS, base, held, (held - base) / max(N_OPENS, 1)))
    drop([c])
    # The files themselves (tmpfs inodes and dentries) are not the
    # server's: they go before memory is compared.
    guest("rm -f /srv/sc/s[0-9]* /srv/sc/one-more")
    after, ok = settle(base, held)
    check("dropping the connection gives back what %d opens took "
          "(%d -> %d -> %d KiB)" % (N_OPENS, base, held, after), ok,
          "%d KiB still held" % (after - base))
    left = opens_listed()
    check("no open left after the connection dropped", not left,
          "%d listed, first %s" % (len(left), left[:2]))


def waiters(port, share, user, pw, what):
    base = kmem()
    holder = Client(port, share, user, pw)
    if what == "lock":
        hf = holder.open("lk.bin", disp=OPEN_IF, share=SH_ALL)
        st = file3.lock(holder, hf, [(0, 1 << 40, EX)])
        check("the holder locks the whole range", st == 0, name(st))
    else:
        holder.open("nd", disp=OPEN_IF, share=SH_ALL, options=DIRECTORY_FILE,
                    access=READ_DATA | SYNCHRONIZE)
    clients, n_wait, bad = [], 0, []
    t0 = time.time()
    for s in range(N_SESS):
        c = Client(port, share, user, pw)
        clients.append(c)
        if what == "lock":
            f = c.open("lk.bin", disp=OPEN_IF, share=SH_ALL)
        for i in range(PER_SESS):
            if what == "lock":
                body = lock_body(f, [(s * PER_SESS + i, 1, EX)])
            else:
                # One watch per handle: a directory handle each.
                f = c.open("nd", disp=OPEN_IF, share=SH_ALL,
                           options=DIRECTORY_FILE,
                           access=READ_DATA | SYNCHRONIZE)
                body = notify_body(f, 0x1, 4096)
            st = waiting(c, LOCK if what == "lock" else NOTIFY, body)
            if st == ST["PENDING"]:
                n_wait += 1
            else:
                bad.append((s, i, st))
                if len(bad) > 3:
                    break
        if bad:
            break
    secs = time.time() - t0
    total = N_SESS * PER_SESS
    noun = ("blocking locks" if what == "lock" else
            "CHANGE_NOTIFY requests (a directory handle each)")
    check("%d %s wait across %d sessions (%.0f s)" % (total, noun, N_SESS,
                                                      secs),
          n_wait == total and not bad,
          "%d waiting; first failures %s" %
          (n_wait, [(s, i, name(x) if x is not None else "no answer")
                    for s, i, x in bad]))
    held = kmem()
    print("# %d %s: kernel memory %d -> %d KiB (%.2f KiB per waiter)" %
          (total, noun, base, held, (held - base) / max(n_wait, 1)))
    drop(clients + [holder])
    after, ok = settle(base, held)
    check("dropping the %d connections gives back what the %s took "
          "(%d -> %d -> %d KiB)" % (N_SESS + 1, noun, base, held, after), ok,
          "%d KiB still held" % (after - base))
    left = opens_listed()
    check("no open left after the connections dropped", not left,
          "%d listed, first %s" % (len(left), left[:2]))


def async_limit(port, share, user, pw, max_credits):
    """One connection asks for more waiting locks than its credit maximum:
    the ones past it are refused at once, the rest keep waiting."""
    holder = Client(port, share, user, pw)
    hf = holder.open("lim.bin", disp=OPEN_IF, share=SH_ALL)
    file3.lock(holder, hf, [(0, 1 << 40, EX)])
    c = Client(port, share, user, pw)
    f = c.open("lim.bin", disp=OPEN_IF, share=SH_ALL)
    want = max_credits + 50
    got = {}
    for i in range(want):
        st = waiting(c, LOCK, lock_body(f, [(i, 1, EX)]))
        got[st] = got.get(st, 0) + 1
    check("%d of %d blocking locks on one connection wait (its credit "
          "maximum)" % (max_credits, want),
          got.get(ST["PENDING"], 0) == max_credits,
          "got %s" % {name(k) if k is not None else None: v
                      for k, v in got.items()})
    check("the other %d are refused with INSUFFICIENT_RESOURCES" %
          (want - max_credits),
          got.get(files.ST.get("INSUFFICIENT_RESOURCES", 0xC000009A), 0) ==
          want - max_credits, "got %s" %
          {name(k) if k is not None else None: v for k, v in got.items()})
    # Unlocking lets the waiters in: the connection still works.
    st = file3.lock(holder, hf, [(0, 1 << 40, 0x4)])
    check("the holder unlocks", st == 0, name(st))
    ok = 0
    for _ in range(max_credits):
        try:
            st, _, _, _, _ = recv(c, 60)
        except Exception:  # noqa: BLE001
            break
        ok += st == 0
    check("then all %d waiting locks are granted" % max_credits,
          ok == max_credits, "%d granted" % ok)
    drop([c, holder])


def main():
    port, share = int(sys.argv[1]), sys.argv[2]
    file3.AGENT[0] = int(sys.argv[3])
    user, pw, max_credits = sys.argv[4], sys.argv[5], int(sys.argv[6])
    files.ST.setdefault("TOO_MANY_OPENED_FILES", 0xC000011F)
    files.ST.setdefault("INSUFFICIENT_RESOURCES", 0xC000009A)
    opens(port, share, user, pw)
    waiters(port, share, user, pw, "lock")
    waiters(port, share, user, pw, "notify")
    async_limit(port, share, user, pw, max_credits)
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
