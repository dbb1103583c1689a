#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Byte-range locks across two cluster nodes: raw SMB2 LOCK, READ and
WRITE through one impacket connection to each node, both serving the same
CephFS directory as the same share.  Prints "PASS text" or "FAIL text:
why" per check (t_checks), and the LOCK + UNLOCK latencies it measured as
plain lines.

    locks.py PORT_A PORT_B SHARE
    locks.py hold PORT SHARE FILE       open FILE (read, denying writes),
                                        lock bytes 0-9 exclusively, print
                                        HELD, keep both
    locks.py probe PORT SHARE FILE      that lock must be refused
    locks.py wait PORT SHARE FILE SECS  try the same lock until granted;
                                        PASS with the time it took
    locks.py latency PORT SHARE         LOCK + UNLOCK latency through one
                                        node

Mirrors smbtorture's smb2.lock cases (conflicts, I/O against a lock,
blocking locks, cancel) with the two opens on different nodes; the
helpers are the single-node suite's (host/file3.py)."""

import os
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "host"))
import cli  # noqa: E402
import files  # noqa: E402
from file3 import (CANCEL, EX, FI, SH, ST, UN, lock, name,  # noqa: E402
                   nothing_pending, pending_lock, recv, send)
from files import OPEN, OPEN_IF, READ_DATA, SH_ALL, Client, check  # noqa: E402

FILE_SHARE_READ = 1


def check_st(text, got, want):
    check(text, got == ST[want], "got %s, want %s" % (name(got), want))


def granted_within(c, mid, secs):
    """The final response to the pending request @mid arrives within
    @secs: its status, or None."""
    try:
        st, _, m, _, _ = recv(c, secs)
    except Exception:
        return None
    return st if m == mid else None


def conflicts(a, b, fa, fb):
    # Exclusive against exclusive, both ways; shared against exclusive.
    check_st("A: exclusive lock of bytes 0-9", lock(a, fa, [(0, 10, EX | FI)]),
             "SUCCESS")
    check_st("B: exclusive lock of bytes 5-14 while A holds 0-9 -> LOCK_NOT_GRANTED",
             lock(b, fb, [(5, 10, EX | FI)]), "LOCK_NOT_GRANTED")
    check_st("B: shared lock of byte 5 while A holds 0-9 exclusively -> "
             "LOCK_NOT_GRANTED", lock(b, fb, [(5, 1, SH | FI)]), "LOCK_NOT_GRANTED")
    check_st("B: exclusive lock of bytes 10-19 (outside A's range)",
             lock(b, fb, [(10, 10, EX | FI)]), "SUCCESS")
    # READ and WRITE into another node's range.
    check_st("B: READ of bytes 0-4 (A's exclusive range) -> FILE_LOCK_CONFLICT",
             b.read(fb, 0, 5)[0], "FILE_LOCK_CONFLICT")
    check_st("B: WRITE of byte 2 (A's exclusive range) -> FILE_LOCK_CONFLICT",
             b.write(fb, 2, b"x")[0], "FILE_LOCK_CONFLICT")
    check_st("B: READ of bytes 50-59 (unlocked)", b.read(fb, 50, 10)[0], "SUCCESS")
    check_st("A: WRITE of byte 12 (B's range) -> FILE_LOCK_CONFLICT",
             a.write(fa, 12, b"x")[0], "FILE_LOCK_CONFLICT")
    check_st("A: exclusive lock of bytes 15-16 (B's range) -> LOCK_NOT_GRANTED",
             lock(a, fa, [(15, 2, EX | FI)]), "LOCK_NOT_GRANTED")
    # Unlocking frees the range on the other node.
    check_st("A: unlock bytes 0-9", lock(a, fa, [(0, 10, UN)]), "SUCCESS")
    check_st("B: READ of bytes 0-4 after A's unlock", b.read(fb, 0, 5)[0], "SUCCESS")
    check_st("B: exclusive lock of bytes 0-9 after A's unlock",
             lock(b, fb, [(0, 10, EX | FI)]), "SUCCESS")
    check_st("A: READ of byte 3 (now B's) -> FILE_LOCK_CONFLICT",
             a.read(fa, 3, 1)[0], "FILE_LOCK_CONFLICT")
    check_st("B: unlock bytes 0-9 and 10-19",
             lock(b, fb, [(0, 10, UN), (10, 10, UN)]), "SUCCESS")
    check_st("A: WRITE of byte 12 after B's unlock", a.write(fa, 12, b"y")[0],
             "SUCCESS")
    # Shared against shared: both granted; reads pass, writes do not.
    check_st("A: shared lock of bytes 100-109", lock(a, fa, [(100, 10, SH | FI)]),
             "SUCCESS")
    check_st("B: shared lock of bytes 100-109 while A holds it shared",
             lock(b, fb, [(100, 10, SH | FI)]), "SUCCESS")
    check_st("B: READ of bytes 100-104 under both shared locks",
             b.read(fb, 100, 5)[0], "SUCCESS")
    check_st("B: WRITE of byte 100 under A's shared lock -> FILE_LOCK_CONFLICT",
             b.write(fb, 100, b"x")[0], "FILE_LOCK_CONFLICT")
    check_st("A: exclusive lock of bytes 105-106 under B's shared lock -> "
             "LOCK_NOT_GRANTED", lock(a, fa, [(105, 2, EX | FI)]), "LOCK_NOT_GRANTED")
    lock(a, fa, [(100, 10, UN)])
    lock(b, fb, [(100, 10, UN)])


def blocking(a, a2, b, fa, fb, path):
    # Granted by the other node's unlock.
    lock(a, fa, [(20, 10, EX)])
    p = pending_lock(b, fb, 20, 10)
    check("B: blocking lock of A's range goes async (STATUS_PENDING)", p is not None)
    if not p:
        return
    check("... and stays pending while A holds it", nothing_pending(b, 1.0))
    t = time.monotonic()
    check_st("A: unlock bytes 20-29", lock(a, fa, [(20, 10, UN)]), "SUCCESS")
    st = granted_within(b, p[0], 20)
    check("B's waiting lock is granted after A's unlock (%.2f s)"
          % (time.monotonic() - t), st == 0, name(st) if st is not None else "no answer")
    check_st("A: the range is B's now -> LOCK_NOT_GRANTED",
             lock(a, fa, [(20, 10, EX | FI)]), "LOCK_NOT_GRANTED")
    lock(b, fb, [(20, 10, UN)])

    # Granted when the other node's client closes its handle.
    fa2 = a2.open(path, disp=OPEN, share=SH_ALL)
    lock(a2, fa2, [(30, 10, EX)])
    p = pending_lock(b, fb, 30, 10)
    check("B: blocking lock of a range another handle on A holds goes async",
          p is not None)
    if p:
        t = time.monotonic()
        a2.close(fa2)
        st = granted_within(b, p[0], 20)
        check("B's waiting lock is granted after A's client closed its handle "
              "(%.2f s)" % (time.monotonic() - t), st == 0,
              name(st) if st is not None else "no answer")
        lock(b, fb, [(30, 10, UN)])

    # Cancel of a lock waiting for another node.
    lock(a, fa, [(40, 10, EX)])
    p = pending_lock(b, fb, 40, 10)
    check("B: blocking lock of A's range 40-49 goes async", p is not None)
    if p:
        send(b, CANCEL, struct.pack("<HH", 4, 0), mid=0, async_id=p[1])
        st = granted_within(b, p[0], 10)
        check("CANCEL of B's waiting lock: STATUS_CANCELLED",
              st == ST["CANCELLED"], name(st) if st is not None else "no answer")
    lock(a, fa, [(40, 10, UN)])
    check_st("B: after the cancel and A's unlock the range is free",
             lock(b, fb, [(40, 10, EX | FI)]), "SUCCESS")
    lock(b, fb, [(40, 10, UN)])


def lock_latency(c, f, n=100):
    """Median LOCK + UNLOCK of one range through connection c, in ms;
    None when one of them failed."""
    t0 = []
    for _ in range(n):
        t = time.perf_counter()
        if lock(c, f, [(1000, 10, EX | FI)]) or lock(c, f, [(1000, 10, UN)]):
            return None
        t0.append(time.perf_counter() - t)
    return statistics.median(t0) * 1000


def latency(a, b, fa):
    """LOCK + UNLOCK through A, with the file open on A only (one store
    write each) and open on both nodes (each also pushed to B)."""
    only_a = lock_latency(a, fa)
    b_open = b.open("lat-lock.txt", disp=OPEN, share=SH_ALL)
    both = lock_latency(a, fa)
    b.close(b_open)
    check("A: 200 LOCK + UNLOCK pairs of lat-lock.txt (their latencies)",
          only_a is not None and both is not None, "a LOCK failed")
    if only_a is not None and both is not None:
        print("latency LOCK+UNLOCK, file open on this node only: median %.2f ms" % only_a)
        print("latency LOCK+UNLOCK, file open on both nodes: median %.2f ms" % both)


def one_node_latency(port, share):
    """LOCK + UNLOCK through one node alone."""
    c = Client(port, share)
    f = c.open("lat-lock1.txt", disp=OPEN_IF, share=SH_ALL)
    ms = lock_latency(c, f)
    c.close(f)
    check("100 LOCK + UNLOCK pairs of lat-lock1.txt through the node (their latency)",
          ms is not None, "a LOCK failed")
    if ms is not None:
        print("latency LOCK+UNLOCK, file open on this node only: median %.2f ms" % ms)
    print("%d failed" % files.failed)
    return 1 if files.failed else 0


def main():
    pa, pb, share = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    a = Client(pa, share)
    a2 = Client(pa, share)
    b = Client(pb, share)
    fa = a.open("locks.txt", disp=OPEN_IF, share=SH_ALL)
    a.write(fa, 0, b"\0" * 200)
    fb = b.open("locks.txt", disp=OPEN, share=SH_ALL)
    conflicts(a, b, fa, fb)
    blocking(a, a2, b, fa, fb, "locks.txt")
    a.close(fa)
    b.close(fb)
    fl = a.open("lat-lock.txt", disp=OPEN_IF, share=SH_ALL)
    latency(a, b, fl)
    a.close(fl)
    print("%d failed" % files.failed)
    return 1 if files.failed else 0


def hold(port, share, path):
    c = Client(port, share)
    f = c.create(path, access=READ_DATA, share=FILE_SHARE_READ, disp=OPEN_IF)
    if f.status:
        print("cannot open: %s" % name(f.status), flush=True)
        return 1
    st = lock(c, f.fid, [(0, 10, EX | FI)])
    if st:
        print("cannot lock: %s" % name(st), flush=True)
        return 1
    print("HELD", flush=True)
    while True:
        time.sleep(60)


def probe(port, share, path):
    """While node a is alive: B's lock of the range is refused."""
    c = Client(port, share)
    f = c.create(path, access=READ_DATA, share=SH_ALL, disp=OPEN)
    check("B: read open of %s next to A's client" % path, f.status == 0, name(f.status))
    if f.status == 0:
        check_st("B: lock of bytes 0-9 of %s while A's client holds them -> "
                 "LOCK_NOT_GRANTED" % path, lock(c, f.fid, [(0, 10, EX | FI)]),
                 "LOCK_NOT_GRANTED")
        c.close(f.fid)
    print("%d failed" % files.failed)
    return 1 if files.failed else 0


def wait(port, share, path, secs):
    """Node a was killed just now, holding a lock of @path."""
    c = Client(port, share)
    t0 = time.monotonic()
    st = None
    f = c.create(path, access=READ_DATA, share=SH_ALL, disp=OPEN)
    while f.status == 0 and time.monotonic() - t0 < secs:
        st = lock(c, f.fid, [(0, 10, EX | FI)])
        if st != ST["LOCK_NOT_GRANTED"]:
            break
        time.sleep(1)
    took = time.monotonic() - t0
    check("B: the dead node's lock of %s is gone within %d s (took %.1f s)"
          % (path, secs, took), st == 0,
          "open: %s, lock: %s" % (name(f.status), name(st) if st is not None else "-"))
    if st == 0:
        lock(c, f.fid, [(0, 10, UN)])
    if f.status == 0:
        c.close(f.fid)
    print("%d failed" % files.failed)
    return 0 if st == 0 else 1


if __name__ == "__main__":
    cli.run({"hold": (hold, int, str, str),
             "probe": (probe, int, str, str),
             "wait": (wait, int, str, str, int),
             "latency": (one_node_latency, int, str)}, main)
