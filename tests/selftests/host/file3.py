#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""File service III checks through impacket and raw SMB2 PDUs: LOCK
(byte-range locks and their conflicts with READ and WRITE, blocking locks
that go async, CANCEL, close, tree disconnect and logoff under a waiting
lock).  Prints "PASS text" or "FAIL text: why" per check (t_checks in
lib.sh turns them into TAP).

    file3.py PORT SHARE GROUP

The expectations are what smbtorture's smb2.lock shows Windows doing
(STATUS_LOCK_NOT_GRANTED for a failed lock, STATUS_FILE_LOCK_CONFLICT for
I/O, zero-byte locks, stacking, unlock order)."""

import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (DIRECTORY_FILE, OPEN, OPEN_IF, READ_ATTRIBUTES,  # noqa
                   READ_DATA, SH_ALL, WRITE_DATA, Client, check, name)

LOCK, CANCEL, TREE_DISCONNECT, LOGOFF = 0x0A, 0x0C, 0x04, 0x02
FLAG_ASYNC = 0x2

ST = dict(files.ST)
ST.update({
    "PENDING": 0x103,
    "CANCELLED": 0xC0000120,
    "FILE_LOCK_CONFLICT": 0xC0000054,
    "LOCK_NOT_GRANTED": 0xC0000055,
    "RANGE_NOT_LOCKED": 0xC000017E,
    "INVALID_LOCK_RANGE": 0xC00001A1,
})
files.ST.update(ST)

SH, EX, UN, FI = 0x1, 0x2, 0x4, 0x10
MAX64 = (1 << 64) - 1


def check_st(text, got, want):
    check(text, got == ST[want], "got %s, want %s" % (name(got), want))


def lock_body(fid, els, count=None, seq=0):
    b = struct.pack("<HHI16s", 48, len(els) if count is None else count,
                    seq, fid)
    for off, ln, fl in els:
        b += struct.pack("<QQII", off, ln, fl, 0)
    return b


def lock(c, fid, els, **kw):
    return c.raw(LOCK, lock_body(fid, els, **kw))[0]


def send(c, cmd, body, mid=None, flags=0, async_id=None):
    """Send a request without waiting; returns its MessageId."""
    p = c.smb.SMB_PACKET()
    p["Command"] = cmd
    p["TreeID"] = c.tid
    p["Data"] = body
    if mid is not None:
        p["MessageID"] = mid
    if async_id is not None:
        p["Flags"] = flags | FLAG_ASYNC
        p["Reserved"] = async_id & 0xffffffff
        p["TreeID"] = async_id >> 32
    return c.smb.sendSMB(p)


def recv(c, timeout=30):
    """One response PDU: (status, flags, message id, async id, body).
    impacket keeps responses it read while waiting for another one."""
    stash = c.smb._Connection["OutstandingResponses"]
    if stash:
        pkt = stash.pop(next(iter(stash))).getData()
    else:
        pkt = c.smb._NetBIOSSession.recv_packet(timeout).get_trailer()
    st, = struct.unpack_from("<I", pkt, 8)
    flags, = struct.unpack_from("<I", pkt, 16)
    mid, aid = struct.unpack_from("<QQ", pkt, 24)
    return st, flags, mid, aid, pkt[64:]


def pending_lock(c, fid, off, ln, fl=EX):
    """Send a blocking lock and wait for its interim response; returns
    (message id, async id) or None."""
    mid = send(c, LOCK, lock_body(fid, [(off, ln, fl)]))
    st, flags, rmid, aid, _ = recv(c)
    if st != ST["PENDING"] or rmid != mid or not flags & FLAG_ASYNC:
        return None
    return mid, aid


def nothing_pending(c, wait=0.5):
    """True when no response arrives on @c within @wait seconds."""
    try:
        recv(c, wait)
    except Exception:
        return True
    return False


def testfile(c, fname, size=200):
    f = c.open(fname, disp=OPEN_IF, share=SH_ALL)
    c.write(f, 0, b"\0" * size)
    return f


def g_lock(c):
    """smbtorture smb2.lock: request validation, ranges, stacking,
    errors, zero-byte locks, unlock order, rollback, I/O conflicts."""
    h = testfile(c, "lock1.txt")
    h2 = c.open("lock1.txt", disp=OPEN)
    check_st("LockCount 0", lock(c, h, [(0, 0, SH)], count=0),
             "INVALID_PARAMETER")
    check_st("flags 0 (no lock type)", lock(c, h, [(0, 0, 0)]),
             "INVALID_PARAMETER")
    bad = bytes([h[0] ^ 1]) + h[1:]
    check_st("unknown FileId", lock(c, bad, [(0, 1, EX)]), "FILE_CLOSED")
    check_st("range past 2^64 - 1", lock(c, h, [(MAX64, MAX64, EX | FI)]),
             "INVALID_LOCK_RANGE")
    check_st("max/2 past 2^64 - 1", lock(c, h, [(MAX64, 2, EX | FI)]),
             "INVALID_LOCK_RANGE")

    # Stacking: exclusive, then shared twice on the same handle; three
    # unlocks, the fourth finds nothing.
    r = (0xffffffff, 0xffffffff)
    sts = [lock(c, h, [r + (EX | FI,)]), lock(c, h, [r + (SH,)]),
           lock(c, h, [r + (SH,)])]
    check("stacking shared on an own exclusive lock",
          sts == [0, 0, 0], str([name(s) for s in sts]))
    sts = [lock(c, h, [r + (UN,)]) for _ in range(4)]
    check("three unlocks, then STATUS_RANGE_NOT_LOCKED",
          sts[:3] == [0, 0, 0] and sts[3] == ST["RANGE_NOT_LOCKED"],
          str([name(s) for s in sts]))
    sts = [lock(c, h, [(1, 1, fl)]) for fl in
           (~0x17 & 0xffffffff, UN | EX, UN | SH, UN | FI)]
    check("invalid flag combinations", all(
        s == ST["INVALID_PARAMETER"] for s in sts),
        str([name(s) for s in sts]))
    check_st("unlock of what is not locked", lock(c, h, [(1, 1, UN)]),
             "RANGE_NOT_LOCKED")
    # Two elements (smb2.lock.valid-request).
    check_st("2 elements: flags 0, unlock",
             lock(c, h, [(9999, 1, 0), (9999, 1, UN)]), "INVALID_PARAMETER")
    check_st("2 elements: unlock first (not locked), flags 0",
             lock(c, h, [(9999, 1, UN), (9999, 1, 0)]), "RANGE_NOT_LOCKED")
    sts = [lock(c, h, [(9999, 1, SH)]), lock(c, h, [(9999, 1, SH)]),
           lock(c, h, [(9999, 1, UN), (9999, 1, UN)]),
           lock(c, h, [(9999, 1, UN)])]
    check("2 shared locks go with one 2-element unlock",
          sts[:3] == [0, 0, 0] and sts[3] == ST["RANGE_NOT_LOCKED"],
          str([name(s) for s in sts]))

    # Different handles (smb2.lock.lock).
    for off, ln, conflict in ((0, 0, False), (0, 1, True),
                              (0xEEFFFFFF, 4000, True),
                              ((1 << 63) - 1, 1, True), (1 << 63, 1, True),
                              (MAX64, 0, False), (MAX64, 1, True)):
        a = lock(c, h, [(off, ln, EX | FI)])
        b = lock(c, h2, [(off, ln, EX | FI)])
        want = "LOCK_NOT_GRANTED" if conflict else "SUCCESS"
        u = [lock(c, h, [(off, ln, UN)])]
        if not conflict:
            u.append(lock(c, h2, [(off, ln, UN)]))
        check("lock %#x/%d on two handles: %s" % (off, ln, want),
              a == 0 and b == ST[want] and u == [0] * len(u),
              "%s, %s, unlock %s" % (name(a), name(b),
                                     [name(s) for s in u]))
    a = lock(c, h, [(10001, 40002, EX | FI)])
    b = lock(c, h2, [(10001, 40002, UN)])
    u = lock(c, h, [(10001, 40002, UN)])
    check("unlock through another handle: STATUS_RANGE_NOT_LOCKED",
          a == 0 and b == ST["RANGE_NOT_LOCKED"] and u == 0,
          "%s %s %s" % (name(a), name(b), name(u)))

    # LOCK_NOT_GRANTED every time, whatever the handle (errorcode).
    lock(c, h, [(100, 10, EX | FI)])
    sts = [lock(c, x, [(o, ln, EX | FI)]) for x in (h, h2, h, h2)
           for o, ln in ((100, 10), (102, 0), (102, 5))]
    check("conflicts always give STATUS_LOCK_NOT_GRANTED", all(
        s == ST["LOCK_NOT_GRANTED"] for s in sts),
        str([name(s) for s in sts]))
    # I/O under locks (rw-exclusive): the owner reads and writes, the
    # other handle gets STATUS_FILE_LOCK_CONFLICT; a 0-byte READ passes.
    w1, _ = c.write(h, 100, b"x" * 10)
    r1, _ = c.read(h, 100, 10)
    w2, _ = c.write(h2, 105, b"x")
    r2, _ = c.read(h2, 99, 2)
    r3, _ = c.read(h2, 105, 0)
    check("exclusive lock: owner I/O passes, others' conflict",
          (w1, r1, w2, r2, r3) == (0, 0, ST["FILE_LOCK_CONFLICT"],
                                   ST["FILE_LOCK_CONFLICT"], 0),
          str([name(s) for s in (w1, r1, w2, r2, r3)]))
    lock(c, h, [(100, 10, UN)])
    w2, _ = c.write(h2, 105, b"x")
    check("after the unlock the other handle writes", w2 == 0, name(w2))
    # rw-shared: nobody writes, everybody reads.
    lock(c, h, [(0, 100, SH)])
    w1, _ = c.write(h, 50, b"y")
    w2, _ = c.write(h2, 50, b"y")
    r1, _ = c.read(h, 50, 1)
    r2, _ = c.read(h2, 50, 1)
    check("shared lock: no one writes, everyone reads",
          (w1, w2, r1, r2) == (ST["FILE_LOCK_CONFLICT"],
                               ST["FILE_LOCK_CONFLICT"], 0, 0),
          str([name(s) for s in (w1, w2, r1, r2)]))
    lock(c, h, [(0, 100, UN)])

    # Zero-byte locks (zerobytelength), same handle and two handles.
    for same in (True, False):
        x = h if same else h2
        bad = []
        for l1, l2, conflict in (((10, 0), (10, 0), 0), ((10, 0), (9, 1), 0),
                                 ((10, 0), (10, 1), 0), ((10, 0), (11, 1), 0),
                                 ((10, 0), (9, 2), 1), ((10, 0), (10, 2), 0),
                                 ((10, 0), (9, 3), 1), ((9, 1), (10, 0), 0),
                                 ((9, 2), (10, 0), 1), ((10, 2), (10, 0), 0),
                                 ((9, 3), (10, 0), 1), ((0, 0), (0, 0), 0)):
            a = lock(c, h, [l1 + (EX | FI,)])
            b = lock(c, x, [l2 + (EX | FI,)])
            if b == 0:
                lock(c, x, [l2 + (UN,)])
            u = lock(c, h, [l1 + (UN,)])
            want = ST["LOCK_NOT_GRANTED"] if conflict else 0
            if (a, b, u) != (0, want, 0):
                bad.append("%s+%s: %s" % (l1, l2, name(b)))
        check("zero-byte lock table (%s)" %
              ("same handle" if same else "two handles"), not bad,
              "; ".join(bad))

    # Unlock order: exclusive before shared (unlock).
    lock(c, h, [(10, 10, EX | FI)])
    lock(c, h, [(10, 10, SH | FI)])
    a = lock(c, h2, [(5, 10, SH | FI)])
    lock(c, h, [(10, 10, UN)])
    b = lock(c, h2, [(5, 10, SH | FI)])
    lock(c, h2, [(5, 10, UN)])
    u = lock(c, h, [(10, 10, UN)])
    check("the first unlock takes the exclusive lock, the shared stays",
          (a, b, u) == (ST["LOCK_NOT_GRANTED"], 0, 0),
          str([name(s) for s in (a, b, u)]))
    a = lock(c, h, [(0, 10, SH | FI)])
    b = lock(c, h, [(0, 10, EX | FI)])
    u = lock(c, h, [(0, 10, UN)])
    check("an exclusive lock does not stack on an own shared lock",
          (a, b, u) == (0, ST["LOCK_NOT_GRANTED"], 0),
          str([name(s) for s in (a, b, u)]))

    # multiple-unlock: in order, no rollback; locks: all or none.
    lock(c, h, [(10, 10, EX | FI)])
    a = lock(c, h, [(0, 10, UN), (10, 10, UN)])
    b = lock(c, h, [(10, 10, EX | FI)])
    lock(c, h, [(10, 10, UN)])
    check("unlocking 2, the first not locked: the second stays",
          (a, b) == (ST["RANGE_NOT_LOCKED"], ST["LOCK_NOT_GRANTED"]),
          str([name(s) for s in (a, b)]))
    lock(c, h2, [(10, 10, EX | FI)])
    a = lock(c, h, [(0, 10, EX | FI), (10, 10, EX | FI)])
    b = lock(c, h, [(0, 10, EX | FI)])
    lock(c, h, [(0, 10, UN)])
    lock(c, h2, [(10, 10, UN)])
    check("2 locks, the second conflicts: neither is taken",
          (a, b) == (ST["LOCK_NOT_GRANTED"], 0),
          str([name(s) for s in (a, b)]))
    lock(c, h, [(0, 10, EX | FI)])
    a = lock(c, h, [(0, 10, UN), (10, 10, EX | FI)])
    b = lock(c, h, [(0, 10, EX | FI), (10, 10, EX | FI)])
    lock(c, h, [(0, 10, UN), (10, 10, UN)])
    check("unlock then lock in one request: the unlock stays done",
          (a, b) == (ST["INVALID_PARAMETER"], 0),
          str([name(s) for s in (a, b)]))
    a = lock(c, h, [(0, 10, EX | FI), (10, 10, SH)])
    check_st("2 locks, one that would wait", a, "INVALID_PARAMETER")

    # range: locks spread over the 64-bit range, two handles.
    step, bad = MAX64 // 20, []
    offs = [step * (i + 1) for i in range(20)]
    for o in offs:
        if lock(c, h, [(o - 1, 1, EX | FI)]) or \
           lock(c, h2, [(o - 2, 1, EX | FI)]):
            bad.append("lock %#x" % o)
    for o in offs:
        for x in (h, h2):
            for d in (1, 2):
                if lock(c, x, [(o - d, 1, EX | FI)]) != \
                   ST["LOCK_NOT_GRANTED"]:
                    bad.append("relock %#x" % (o - d))
    for o in offs:
        if lock(c, h, [(o - 1, 1, UN)]) or lock(c, h2, [(o - 2, 1, UN)]):
            bad.append("unlock %#x" % o)
    check("locks spread across the 64-bit range", not bad, ", ".join(bad))

    # Another session's opens conflict the same way (overlap).
    c2 = Client(c.port, c.share)
    h3 = c2.open("lock1.txt", disp=OPEN)
    a = lock(c, h, [(20, 4, EX | FI)])
    b = lock(c2, h3, [(22, 4, EX | FI)])
    d = lock(c, h, [(30, 4, SH | FI)])
    e = lock(c2, h3, [(32, 4, SH | FI)])
    check("another session: exclusive conflicts, shared share",
          (a, b, d, e) == (0, ST["LOCK_NOT_GRANTED"], 0, 0),
          str([name(s) for s in (a, b, d, e)]))
    c2.close(h3)
    c2.conn.logoff()

    # Closing a handle releases its locks.
    lock(c, h2, [(0, 8, SH | FI)])
    c.close(h2)
    a = lock(c, h, [(0, 8, EX | FI)])
    check("a closed handle's locks are gone", a == 0, name(a))
    c.close(h)

    d = c.open("lockdir", disp=OPEN_IF, options=DIRECTORY_FILE)
    check_st("LOCK on a directory", lock(c, d, [(0, 1, EX | FI)]),
             "INVALID_PARAMETER")
    c.close(d)
    f = c.open("lock1.txt", access=READ_ATTRIBUTES, disp=OPEN)
    check_st("LOCK without read or write access",
             lock(c, f, [(0, 1, EX | FI)]), "ACCESS_DENIED")
    c.close(f)
    c.rm("lockdir", True)
    c.rm("lock1.txt")


def g_lock_async(c):
    """Blocking locks: STATUS_PENDING, then granted by an unlock or a
    close of the holder, cancelled (by AsyncId or MessageId), failed by a
    close of their own handle; tree disconnect and logoff."""
    h = testfile(c, "async.txt")
    h2 = c.open("async.txt", disp=OPEN)
    lock(c, h, [(100, 50, EX)])
    p = pending_lock(c, h2, 100, 50)
    check("a conflicting blocking lock goes async (STATUS_PENDING)",
          p is not None)
    time.sleep(0.3)
    check("... and stays pending", nothing_pending(c))
    a = lock(c, h, [(100, 50, UN)])
    st, _, mid, _, body = recv(c)
    check("the unlock grants it: STATUS_SUCCESS",
          a == 0 and st == 0 and p and mid == p[0] and
          body[:2] == b"\x04\x00", "%s, final %s" % (name(a), name(st)))
    a = lock(c, h, [(100, 50, EX | FI)])
    check_st("the waiter now holds the range", a, "LOCK_NOT_GRANTED")
    lock(c, h2, [(100, 50, UN)])

    # Cancel by AsyncId and by MessageId.
    lock(c, h, [(100, 10, EX)])
    p = pending_lock(c, h2, 100, 10)
    send(c, CANCEL, struct.pack("<HH", 4, 0), mid=0, async_id=p[1])
    st, _, mid, _, _ = recv(c)
    check("CANCEL by AsyncId: STATUS_CANCELLED",
          st == ST["CANCELLED"] and mid == p[0], name(st))
    p = pending_lock(c, h2, 100, 10)
    send(c, CANCEL, struct.pack("<HH", 4, 0), mid=p[0])
    st, _, mid, _, _ = recv(c)
    check("CANCEL by MessageId: STATUS_CANCELLED",
          st == ST["CANCELLED"] and mid == p[0], name(st))
    # Unlocking a range that is only waited for is not an unlock.
    p = pending_lock(c, h2, 100, 10)
    a = lock(c, h2, [(100, 10, UN)])
    send(c, CANCEL, struct.pack("<HH", 4, 0), mid=0, async_id=p[1])
    st, _, _, _, _ = recv(c)
    check("unlock of a pending lock's range: RANGE_NOT_LOCKED",
          a == ST["RANGE_NOT_LOCKED"] and st == ST["CANCELLED"],
          "%s, %s" % (name(a), name(st)))
    # Closing the waiting handle ends the wait: STATUS_RANGE_NOT_LOCKED.
    p = pending_lock(c, h2, 100, 10)
    mid = send(c, 6, struct.pack("<HHI", 24, 0, 0) + h2)
    got = {}
    for _ in range(2):
        st, _, m, _, _ = recv(c)
        got[m] = st
    check("closing the waiting handle: RANGE_NOT_LOCKED",
          got.get(p[0]) == ST["RANGE_NOT_LOCKED"] and got.get(mid) == 0,
          str({k: name(v) for k, v in got.items()}))
    # Closing the holder grants the waiter.
    h2 = c.open("async.txt", disp=OPEN)
    p = pending_lock(c, h2, 100, 10)
    mid = send(c, 6, struct.pack("<HHI", 24, 0, 0) + h)
    got = {}
    for _ in range(2):
        st, _, m, _, _ = recv(c)
        got[m] = st
    check("closing the holder grants the waiter",
          got.get(p[0]) == 0 and got.get(mid) == 0,
          str({k: name(v) for k, v in got.items()}))
    c.close(h2)

    # Another session waits; this one disconnects its tree (which closes
    # the holder): the waiter is granted.
    c2 = Client(c.port, c.share)
    h = c.open("async.txt", disp=OPEN)
    h3 = c2.open("async.txt", disp=OPEN)
    lock(c, h, [(0, 1, EX)])
    p = pending_lock(c2, h3, 0, 1)
    c.raw(TREE_DISCONNECT, struct.pack("<HH", 4, 0))
    st, _, mid, _, _ = recv(c2)
    check("tree disconnect of the holder grants a waiter",
          p and st == 0 and mid == p[0], name(st))
    # The waiter's own logoff ends its wait.
    c3 = Client(c.port, c.share)
    h4 = c3.open("async.txt", disp=OPEN)
    p = pending_lock(c3, h4, 0, 1)
    send(c3, LOGOFF, struct.pack("<HH", 4, 0))
    got = set()
    for _ in range(2):
        got.add(recv(c3)[0])
    check("logoff of a waiting session ends its wait",
          p and got == {0, ST["RANGE_NOT_LOCKED"]},
          str([name(s) for s in got]))
    # A waiter whose connection drops leaves nothing behind.
    c4 = Client(c.port, c.share)
    h5 = c4.open("async.txt", disp=OPEN)
    p = pending_lock(c4, h5, 0, 1)
    c4.smb._NetBIOSSession.close()
    time.sleep(1)
    lock(c2, h3, [(0, 1, UN)])
    a = lock(c2, h3, [(0, 1, EX | FI)])
    check("a dropped connection's waiting lock is not granted later",
          p is not None and a == 0, name(a))
    c2.close(h3)
    c2.rm("async.txt")


def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    c = Client(port, share)
    c.port, c.share = port, share
    globals()["g_" + group.replace("-", "_")](c)
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
