#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""File service III checks through impacket and raw SMB2 PDUs: LOCK
(byte-range locks and their conflicts with READ and WRITE, blocking locks
that go async, CANCEL, close, tree disconnect and logoff under a waiting
lock).  Prints "PASS text" or "FAIL text: why" per check (t_checks in
lib.sh turns them into TAP).

    file3.py PORT SHARE GROUP [AGENT_PORT]

The expectations are what smbtorture's smb2.lock shows Windows doing
(STATUS_LOCK_NOT_GRANTED for a failed lock, STATUS_FILE_LOCK_CONFLICT for
I/O, zero-byte locks, stacking, unlock order)."""

import base64
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (CREATE_D, DELETE, DIRECTORY_FILE, NON_DIRECTORY_FILE,  # noqa
                   OPEN_REPARSE_POINT, SYNCHRONIZE,
                   OPEN, OPEN_IF, OVERWRITE_IF, READ_ATTRIBUTES,
                   READ_DATA, SH_ALL, WRITE_DATA, Client, check, name)

LOCK, CANCEL, TREE_DISCONNECT, LOGOFF, IOCTL = 0x0A, 0x0C, 0x04, 0x02, 0x0B
NOTIFY = 0x0F
AGENT = [0]  # the guest agent's port (argv[4])
FLAG_ASYNC = 0x2

ST = dict(files.ST)
ST.update({
    "PENDING": 0x103,
    "CANCELLED": 0xC0000120,
    "FILE_LOCK_CONFLICT": 0xC0000054,
    "LOCK_NOT_GRANTED": 0xC0000055,
    "RANGE_NOT_LOCKED": 0xC000007E,
    "INVALID_LOCK_RANGE": 0xC00001A1,
    "BUFFER_OVERFLOW": 0x80000005,
    "BUFFER_TOO_SMALL": 0xC0000023,
    "INVALID_VIEW_SIZE": 0xC000001F,
    "FS_DRIVER_REQUIRED": 0xC000019C,
    "NOT_A_REPARSE_POINT": 0xC0000275,
    "IO_REPARSE_DATA_INVALID": 0xC0000278,
    "IO_REPARSE_TAG_NOT_HANDLED": 0xC0000279,
    "NOTIFY_CLEANUP": 0x0000010B,
    "NOTIFY_ENUM_DIR": 0x0000010C,
    "INVALID_USER_BUFFER": 0xC00000E8,
    "INVALID_HANDLE": 0xC0000008,
    "INSUFFICIENT_RESOURCES": 0xC000009A,
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


FSCTL = dict(
    NETIF=0x001401fc, DFS=0x00060194, SET_SPARSE=0x000900c4,
    GET_COMPRESSION=0x0009003c, SET_COMPRESSION=0x0009c040,
    DUP_EXTENTS=0x00098344,
    QAR=0x000940cf, ZERO=0x000980c8, RESUME_KEY=0x00140078,
    COPYCHUNK=0x001440f2, COPYCHUNK_WRITE=0x001480f2,
    GET_REPARSE=0x000900a8, SET_REPARSE=0x000900a4, GET_OBJID=0x0009009c,
    CREATE_OBJID=0x000900c0)
NOFILE = b"\xff" * 16
K, M = 1024, 1024 * 1024


BRL_MAX = 16384  # SMBSRV_BRL_MAX_PER_SESSION, kmod/brl.h


def g_lock_budget(c):
    """A session holds at most BRL_MAX byte-range locks over all its
    opens: one more is STATUS_INSUFFICIENT_RESOURCES, also for a lock
    that could wait, and a request of several past it takes none; another
    session has its own; an unlock or a close gives them back."""
    per, batch = 2048, 1024
    hs = [testfile(c, "budget%d.txt" % i) for i in range(BRL_MAX // per)]
    sts = set()
    for h in hs:
        for k in range(0, per, batch):
            sts.add(lock(c, h, [(2 * (k + j), 1, EX | FI)
                                for j in range(batch)]))
    check("%d locks over %d files in one session" % (BRL_MAX, len(hs)),
          sts == {0}, "statuses %s" % sorted(name(s) for s in sts))
    x = testfile(c, "budget-x.txt")
    check_st("one more, on another file: INSUFFICIENT_RESOURCES",
             lock(c, x, [(0, 1, EX | FI)]), "INSUFFICIENT_RESOURCES")
    check_st("... also a lock that could wait (it does not conflict)",
             lock(c, x, [(0, 1, EX)]), "INSUFFICIENT_RESOURCES")
    check("two unlocked", lock(c, hs[0], [(0, 1, UN), (2, 1, UN)]) == 0)
    check_st("then a request of three fails",
             lock(c, x, [(10, 1, EX | FI), (20, 1, EX | FI),
                         (30, 1, EX | FI)]), "INSUFFICIENT_RESOURCES")
    check_st("... and holds none of the three",
             lock(c, x, [(10, 1, UN)]), "RANGE_NOT_LOCKED")
    check("two fit", lock(c, x, [(10, 1, EX | FI), (20, 1, EX | FI)]) == 0)
    c2 = Client(c.port, c.share)
    h2 = testfile(c2, "budget-c2.txt")
    check("another session takes its own locks meanwhile",
          lock(c2, h2, [(0, 1, EX | FI)]) == 0)
    check("a close of one of the files", c.close(hs[1])[0] == 0)
    check("gives its %d locks back" % per,
          lock(c, x, [(100 + 2 * j, 1, EX | FI) for j in range(batch)]) ==
          0 and lock(c, x, [(5000 + 2 * j, 1, EX | FI)
                            for j in range(batch)]) == 0)
    check_st("and no more than those",
             lock(c, x, [(1, 1, EX | FI)]), "INSUFFICIENT_RESOURCES")


def ioctl(c, fid, code, data=b"", max_out=65536, flags=1):
    """One IOCTL; returns (status, output buffer)."""
    body = struct.pack("<HHI16sIIIIIIII", 57, 0, code, fid,
                       120 if data else 0, len(data), 0, 0, 0, max_out,
                       flags, 0) + (data or b"\0")
    st, d = c.raw(IOCTL, body)
    if len(d) < 48:
        return st, b""
    off, cnt = struct.unpack_from("<II", d, 32)
    return st, d[off - 64:off - 64 + cnt] if cnt else b""


def ranges(buf):
    return [struct.unpack_from("<QQ", buf, i) for i in
            range(0, len(buf) - 15, 16)]


def chunks(key, els, count=None):
    b = key + struct.pack("<II", len(els) if count is None else count, 0)
    for src, dst, ln in els:
        b += struct.pack("<QQII", src, dst, ln, 0)
    return b


def symlink_buf(target, flags=1, tag=0xA000000C, extra=0):
    n = target.encode("utf-16-le")
    data = struct.pack("<HHHHI", 0, len(n), len(n), len(n), flags) + n + n
    return struct.pack("<IHH", tag, len(data) + extra, 0) + data


def g_ioctl(c):
    """IOCTL: what is refused, sparse files (SET_SPARSE, SET_ZERO_DATA,
    QUERY_ALLOCATED_RANGES), server-side copy, symbolic link reparse
    points, object ids, network interfaces."""
    f = testfile(c, "io.bin", 4 * K)
    check_st("an IOCTL that is no FSCTL", ioctl(c, f, FSCTL["QAR"],
                                                 flags=0)[0],
             "NOT_SUPPORTED")
    check_st("an FSCTL no file system knows", ioctl(c, f, 0x000900f0)[0],
             "INVALID_DEVICE_REQUEST")
    bad = bytes([f[0] ^ 1]) + f[1:]
    check_st("an FSCTL on an unknown FileId",
             ioctl(c, bad, FSCTL["QAR"], struct.pack("<QQ", 0, 1))[0],
             "FILE_CLOSED")
    check_st("MaxOutputResponse beyond MaxTransactSize",
             ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 0, 1),
                   max_out=64 * M)[0], "INVALID_PARAMETER")
    check_st("DFS referrals: no DFS here",
             ioctl(c, NOFILE, FSCTL["DFS"], b"\0\0" + "\\x\\y".encode(
                 "utf-16-le") + b"\0\0")[0], "FS_DRIVER_REQUIRED")
    st, out = ioctl(c, NOFILE, FSCTL["NETIF"])
    fam = struct.unpack_from("<H", out, 24)[0] if len(out) == 152 else 0
    check("network interfaces: the address the client reached",
          st == 0 and fam in (2, 0x17), "%s, %d bytes, family %d" % (
              name(st), len(out), fam))
    check_st("network interfaces on a real FileId (3.3.5.15)",
             ioctl(c, f, FSCTL["NETIF"])[0], "INVALID_PARAMETER")
    st, out = ioctl(c, f, FSCTL["GET_COMPRESSION"])
    check("GET_COMPRESSION: COMPRESSION_FORMAT_NONE",
          st == 0 and out == b"\0\0", "%s %r" % (name(st), out))
    check_st("GET_COMPRESSION with no room for the answer",
             ioctl(c, f, FSCTL["GET_COMPRESSION"], max_out=1)[0],
             "INVALID_USER_BUFFER")
    check_st("SET_COMPRESSION to the default format: not supported",
             ioctl(c, f, FSCTL["SET_COMPRESSION"], b"\1\0")[0],
             "NOT_SUPPORTED")
    check_st("SET_COMPRESSION to none",
             ioctl(c, f, FSCTL["SET_COMPRESSION"], b"\0\0")[0], "SUCCESS")
    # Block cloning: a tmpfs cannot share blocks.
    g = testfile(c, "clone.bin")
    dup = FSCTL["DUP_EXTENTS"]
    check_st("DUPLICATE_EXTENTS on a tmpfs: STATUS_NOT_SUPPORTED",
             ioctl(c, g, dup, f + struct.pack("<QQQ", 0, 0, 100))[0],
             "NOT_SUPPORTED")
    check_st("DUPLICATE_EXTENTS of nothing", ioctl(
        c, g, dup, f + struct.pack("<QQQ", 0, 0, 0))[0], "SUCCESS")
    check_st("DUPLICATE_EXTENTS: short input",
             ioctl(c, g, dup, f + struct.pack("<QQ", 0, 0))[0],
             "INVALID_PARAMETER")
    check_st("DUPLICATE_EXTENTS from an unknown FileId",
             ioctl(c, g, dup, bad + struct.pack("<QQQ", 0, 0, 100))[0],
             "INVALID_HANDLE")
    check_st("DUPLICATE_EXTENTS past the largest offset",
             ioctl(c, g, dup, f + struct.pack("<QQQ", 1 << 62, 0,
                                               1 << 62))[0],
             "INVALID_PARAMETER")
    c.close(g)
    st, out = ioctl(c, f, FSCTL["GET_OBJID"])
    st2, out2 = ioctl(c, f, FSCTL["CREATE_OBJID"])
    g = c.open("io.bin", disp=OPEN)
    st3, out3 = ioctl(c, g, FSCTL["GET_OBJID"])
    c.close(g)
    g = testfile(c, "io2.bin")
    st4, out4 = ioctl(c, g, FSCTL["GET_OBJID"])
    c.close(g)
    check("object ids: stable per file, distinct between files",
          (st, st2, st3, st4) == (0, 0, 0, 0) and len(out) == 64 and
          out == out2 == out3 and out4[:16] != out[:16],
          "%s %s %s %s" % (name(st), name(st2), name(st3), name(st4)))
    c.close(f)

    # Sparse files and zeroing.
    data = bytes(range(256)) * 4 * K
    f = c.open("sparse.bin", disp=OPEN_IF, share=SH_ALL)
    c.write_all(f, data)
    st, out = ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 0, 2 * M))
    check("allocated ranges of a file that is not sparse: all of it",
          st == 0 and ranges(out) == [(0, M)], "%s %s" % (name(st),
                                                         ranges(out)))
    check_st("allocated ranges: short input",
             ioctl(c, f, FSCTL["QAR"], b"\0" * 8)[0], "INVALID_PARAMETER")
    check_st("allocated ranges: negative offset",
             ioctl(c, f, FSCTL["QAR"], struct.pack("<qq", -1, 5))[0],
             "INVALID_PARAMETER")
    check_st("allocated ranges: output below one range",
             ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 0, M),
                   max_out=8)[0], "BUFFER_TOO_SMALL")
    e = c.open("empty.bin", disp=OVERWRITE_IF, share=SH_ALL)
    check_st("allocated ranges of an empty file, no room: none, success",
             ioctl(c, e, FSCTL["QAR"], struct.pack("<QQ", 0, 1024),
                   max_out=0)[0], "SUCCESS")
    c.close(e)
    check_st("zero data: offset beyond BeyondFinalZero",
             ioctl(c, f, FSCTL["ZERO"], struct.pack("<QQ", 10, 5))[0],
             "INVALID_PARAMETER")
    check_st("set sparse", ioctl(c, f, FSCTL["SET_SPARSE"])[0], "SUCCESS")
    st, d = c.raw(IOCTL, struct.pack("<HHI16sIIIIIIII", 57, 0,
                                     FSCTL["SET_SPARSE"], f, 120, 1, 0, 0,
                                     0, 0, 1, 0) + b"\1")
    check("... with no output, still an IOCTL response body (size 49)",
          st == 0 and len(d) >= 48 and struct.unpack_from("<H", d)[0] == 49,
          "%s, %d bytes" % (name(st), len(d)))
    r = c.create("sparse.bin", disp=OPEN)
    check("the sparse attribute is reported",
          r.status == 0 and r.attrs & 0x200, "%s 0x%x" % (
              name(r.status), getattr(r, "attrs", 0)))
    if r.status == 0:
        c.close(r.fid)
    check_st("set the HIDDEN attribute (FileBasicInformation)",
             c.set_attrs(f, 0x2), "SUCCESS")
    r = c.create("sparse.bin", disp=OPEN)
    check("... keeps the sparse attribute", r.status == 0 and
          r.attrs & 0x202 == 0x202, "%s 0x%x" % (
              name(r.status), getattr(r, "attrs", 0)))
    if r.status == 0:
        c.close(r.fid)
    check_st("zero data: punch 256K..768K",
             ioctl(c, f, FSCTL["ZERO"], struct.pack("<QQ", 256 * K,
                                                   768 * K))[0], "SUCCESS")
    st, back = c.read(f, 0, M)
    want = data[:256 * K] + bytes(512 * K) + data[768 * K:]
    check("the punched range reads as zeros, the rest is intact",
          st == 0 and back == want, name(st))
    st, out = ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 0, M))
    check("allocated ranges around the hole",
          st == 0 and ranges(out) == [(0, 256 * K), (768 * K, 256 * K)],
          "%s %s" % (name(st), ranges(out)))
    st, out = ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 0, M),
                    max_out=16)
    check("allocated ranges that do not fit: STATUS_BUFFER_OVERFLOW",
          st == ST["BUFFER_OVERFLOW"] and ranges(out) == [(0, 256 * K)],
          "%s %s" % (name(st), ranges(out)))
    st, out = ioctl(c, f, FSCTL["QAR"], struct.pack("<QQ", 300 * K, 100 * K))
    check("allocated ranges inside the hole: none",
          st == 0 and out == b"", "%s %s" % (name(st), ranges(out)))
    check_st("zero data beyond the end of file",
             ioctl(c, f, FSCTL["ZERO"], struct.pack("<QQ", M, 4 * M))[0],
             "SUCCESS")
    st, _ = c.read(f, M, 1)
    check_st("... does not extend the file", st, "END_OF_FILE")
    ro = c.open("sparse.bin", disp=OPEN, access=READ_DATA | READ_ATTRIBUTES)
    check_st("zero data needs write access",
             ioctl(c, ro, FSCTL["ZERO"], struct.pack("<QQ", 0, 5))[0],
             "ACCESS_DENIED")
    check_st("a lock on the range: STATUS_FILE_LOCK_CONFLICT",
             (lock(c, ro, [(0, 10, EX | FI)]) or
              ioctl(c, f, FSCTL["ZERO"], struct.pack("<QQ", 5, 20))[0]),
             "FILE_LOCK_CONFLICT")
    c.close(ro)
    check_st("set sparse FALSE", ioctl(c, f, FSCTL["SET_SPARSE"], b"\0")[0],
             "SUCCESS")
    r = c.create("sparse.bin", disp=OPEN)
    check("... clears the attribute", r.status == 0 and not r.attrs & 0x200,
          name(r.status))
    if r.status == 0:
        c.close(r.fid)
    c.close(f)
    d = c.open("iodir", disp=OPEN_IF, options=DIRECTORY_FILE)
    check_st("allocated ranges of a directory",
             ioctl(c, d, FSCTL["QAR"], struct.pack("<QQ", 0, 1))[0],
             "INVALID_PARAMETER")
    c.close(d)

    # Server-side copy.
    src_data = os.urandom(3 * M + 4321)
    s_ = c.open("src.bin", disp=OPEN_IF, share=SH_ALL)
    c.write_all(s_, src_data)
    st, key = ioctl(c, s_, FSCTL["RESUME_KEY"])
    check("resume key", st == 0 and len(key) == 32, name(st))
    key = key[:24]
    d = c.open("dst.bin", disp=OPEN_IF, share=SH_ALL)
    els = [(0, 0, M), (M, M, M), (2 * M, 2 * M, M), (3 * M, 3 * M, 4321)]
    st, out = ioctl(c, d, FSCTL["COPYCHUNK_WRITE"], chunks(key, els), 12)
    got = struct.unpack("<III", out) if len(out) == 12 else ()
    check("copychunk: four chunks, 3 MiB + 4321 bytes",
          st == 0 and got == (4, 0, 3 * M + 4321), "%s %s" % (name(st),
                                                             got))
    back = c.read_all(d, len(src_data))
    check("the copy has the source's bytes", back == src_data,
          "%d bytes read back" % len(back))
    limits = (256, M, 16 * M)
    for what, body in (("a chunk above 1 MiB", chunks(key, [(0, 0, M + 1)])),
                       ("257 chunks", chunks(key, [(0, 0, 1)] * 257)),
                       ("a zero-length chunk", chunks(key, [(0, 0, 0)])),
                       ("more than 16 MiB", chunks(key, [(0, 0, M)] * 17)),
                       ("chunks past the input", chunks(key, [], count=2))):
        st, out = ioctl(c, d, FSCTL["COPYCHUNK_WRITE"], body, 12)
        got = struct.unpack("<III", out) if len(out) == 12 else ()
        check("copychunk limits: " + what,
              st == ST["INVALID_PARAMETER"] and got == limits,
              "%s %s" % (name(st), got))
    check_st("copychunk: MaxOutputResponse below 12",
             ioctl(c, d, FSCTL["COPYCHUNK_WRITE"],
                   chunks(key, [(0, 0, 10)]), 11)[0], "INVALID_PARAMETER")
    bad = key[:16] + bytes(8)
    check_st("copychunk: a key this server did not issue",
             ioctl(c, d, FSCTL["COPYCHUNK_WRITE"],
                   chunks(bad, [(0, 0, 10)]), 12)[0],
             "OBJECT_NAME_NOT_FOUND")
    st, out = ioctl(c, d, FSCTL["COPYCHUNK_WRITE"],
                    chunks(key, [(0, 0, 10), (3 * M, 0, 10000)]), 12)
    got = struct.unpack("<III", out) if len(out) == 12 else ()
    check("copychunk past the source's end: STATUS_INVALID_VIEW_SIZE",
          st == ST["INVALID_VIEW_SIZE"] and got == (1, 0, 10),
          "%s %s" % (name(st), got))
    wo = c.open("dst.bin", disp=OPEN, access=WRITE_DATA | READ_ATTRIBUTES)
    check_st("COPYCHUNK needs read access to the target",
             ioctl(c, wo, FSCTL["COPYCHUNK"], chunks(key, [(0, 0, 10)]),
                   12)[0], "ACCESS_DENIED")
    check_st("COPYCHUNK_WRITE does not",
             ioctl(c, wo, FSCTL["COPYCHUNK_WRITE"],
                   chunks(key, [(0, 0, 10)]), 12)[0], "SUCCESS")
    c.close(wo)
    st, out = ioctl(c, s_, FSCTL["COPYCHUNK"],
                    chunks(key, [(0, 100, 1000)]), 12)
    st2, back = c.read(s_, 0, 1100)
    check("copychunk inside one file, overlapping ranges",
          st == 0 and back == src_data[:100] + src_data[:1000],
          name(st))
    c.close(s_)
    c.close(d)
    check_st("copychunk after the source was closed",
             ioctl(c, c.open("dst.bin", disp=OPEN), FSCTL["COPYCHUNK_WRITE"],
                   chunks(key, [(0, 0, 10)]), 12)[0],
             "OBJECT_NAME_NOT_FOUND")

    # Symbolic links as reparse points.
    f = c.open("io.bin", disp=OPEN)
    check_st("reparse point of a regular file",
             ioctl(c, f, FSCTL["GET_REPARSE"])[0], "NOT_A_REPARSE_POINT")
    check_st("a reparse point on a file with data",
             ioctl(c, f, FSCTL["SET_REPARSE"], symlink_buf("x"))[0],
             "NOT_SUPPORTED")
    c.close(f)
    opts = NON_DIRECTORY_FILE | OPEN_REPARSE_POINT
    for lname, target, flags in (("link1", "target.txt", 1),
                                 ("link2", "sub\\dir\\f", 1),
                                 ("link3", "\\abs\\path", 0)):
        r = c.create(lname, disp=CREATE_D, options=opts,
                     access=DELETE | READ_ATTRIBUTES | 0x100 | SYNCHRONIZE)
        st = r.status or ioctl(c, r.fid, FSCTL["SET_REPARSE"],
                               symlink_buf(target, flags))[0]
        check_st("cifs-style symlink %s -> %s" % (lname, target), st,
                 "SUCCESS")
        if r.status == 0:
            c.close(r.fid)
    r = c.create("link1", disp=OPEN, options=OPEN_REPARSE_POINT,
                 access=READ_ATTRIBUTES)
    st, out = (r.status, b"") if r.status else ioctl(c, r.fid,
                                                      FSCTL["GET_REPARSE"])
    got = ()
    if len(out) >= 20:
        tag, dlen = struct.unpack_from("<IH", out)
        so, sl, po, pl, fl = struct.unpack_from("<HHHHI", out, 8)
        got = (tag, dlen + 8 == len(out), fl,
               out[20 + so:20 + so + sl].decode("utf-16-le"),
               out[20 + po:20 + po + pl].decode("utf-16-le"))
    check("the symlink's reparse point reads back",
          st == 0 and got == (0xA000000C, True, 1, "target.txt",
                              "target.txt"), "%s %r" % (name(st), got))
    check_st("... not with a small buffer",
             r.status or ioctl(c, r.fid, FSCTL["GET_REPARSE"],
                               max_out=20)[0], "BUFFER_TOO_SMALL")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("link1", disp=OPEN)
    check_st("the share does not follow it: the client must",
             r.status, "STOPPED_ON_SYMLINK")
    check("... told the target by the error response",
          files.symlink_error(r.data) == ("target.txt", 1, 0),
          repr(files.symlink_error(r.data)))
    g = testfile(c, "plain0", 0)
    for what, buf, want in (
            ("an NFS reparse point", symlink_buf("x", tag=0x80000014),
             "IO_REPARSE_TAG_NOT_HANDLED"),
            ("a length that does not match", symlink_buf("x", extra=2),
             "IO_REPARSE_DATA_INVALID"),
            ("a name outside the buffer",
             symlink_buf("x")[:8] + struct.pack("<HHHHI", 40, 2, 0, 2, 1) +
             b"x\0x\0", "IO_REPARSE_DATA_INVALID")):
        check_st("reparse point refused: " + what,
                 ioctl(c, g, FSCTL["SET_REPARSE"], buf)[0], want)
    c.close(g)

def guest(script):
    """Run @script in the guest through its agent; returns its output."""
    s = socket.create_connection(("127.0.0.1", AGENT[0]), timeout=120)
    s.sendall(base64.b64encode(script.encode()) + b"\n")
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        out += d
    s.close()
    return out.decode(errors="replace")


def notify_body(fid, flt, length=4096, tree=False):
    return struct.pack("<HHI16sII", 32, 1 if tree else 0, length, fid, flt,
                       0)


def notify(c, fid, flt, **kw):
    return c.raw(NOTIFY, notify_body(fid, flt, **kw))


def pending_notify(c, fid, flt, **kw):
    """Send a CHANGE_NOTIFY and wait for its interim response; returns
    (message id, async id) or None."""
    mid = send(c, NOTIFY, notify_body(fid, flt, **kw))
    st, flags, rmid, aid, _ = recv(c)
    if st != ST["PENDING"] or rmid != mid or not flags & FLAG_ASYNC:
        return None
    return mid, aid


def records(body):
    """FILE_NOTIFY_INFORMATION records of a response body."""
    if len(body) < 8:
        return []
    off, ln = struct.unpack_from("<HI", body, 2)
    buf = body[off - 64:off - 64 + ln]
    out, pos = [], 0
    while pos + 12 <= len(buf):
        nxt, act, nlen = struct.unpack_from("<III", buf, pos)
        out.append((act, buf[pos + 12:pos + 12 + nlen].decode("utf-16-le")))
        if not nxt:
            break
        pos += nxt
    return out


def completion(c, p, timeout=30):
    """The final response of pending request @p: (status, records)."""
    try:
        st, _, mid, _, body = recv(c, timeout)
    except Exception as e:  # noqa: BLE001 - a timeout is a failure here
        return None, str(e)
    if p is None or mid != p[0]:
        return None, "unexpected message %d" % mid
    return st, records(body) if st == 0 else []


FN, DN, ATTR, SIZE, LW = 0x1, 0x2, 0x4, 0x8, 0x10
LIST = READ_DATA | READ_ATTRIBUTES | SYNCHRONIZE
ADDED, REMOVED, MODIFIED, OLD, NEW = 1, 2, 3, 4, 5


def g_notify(c):
    """CHANGE_NOTIFY: requests refused, changes made in the guest (by
    local processes) and over SMB reported as they happen or buffered
    between requests, each completion filter class, WATCH_TREE, renames,
    overflow (STATUS_NOTIFY_ENUM_DIR), CANCEL and close
    (STATUS_NOTIFY_CLEANUP)."""
    share = "/srv/f3/"
    guest("mkdir -p %snd/sub/deep && echo x > %snd/f.txt && "
          "chmod -R a+rwX %snd" % (share, share, share))
    f = c.open("nd\\f.txt", disp=OPEN, access=LIST)
    check_st("CHANGE_NOTIFY on a file", notify(c, f, FN)[0],
             "INVALID_PARAMETER")
    c.close(f)
    d = c.open("nd", disp=OPEN, options=DIRECTORY_FILE, access=LIST)
    check_st("CHANGE_NOTIFY with an empty filter", notify(c, d, 0)[0],
             "INVALID_PARAMETER")
    check_st("CHANGE_NOTIFY beyond MaxTransactSize",
             notify(c, d, FN, length=64 * M)[0], "INVALID_PARAMETER")
    bad = bytes([d[0] ^ 1]) + d[1:]
    check_st("CHANGE_NOTIFY on an unknown FileId", notify(c, bad, FN)[0],
             "FILE_CLOSED")
    noread = c.open("nd", disp=OPEN, options=DIRECTORY_FILE,
                    access=READ_ATTRIBUTES)
    check_st("CHANGE_NOTIFY needs FILE_LIST_DIRECTORY",
             notify(c, noread, FN)[0], "ACCESS_DENIED")
    c.close(noread)

    p = pending_notify(c, d, FN)
    check("a CHANGE_NOTIFY waits (STATUS_PENDING)", p is not None)
    check("... while nothing changes", nothing_pending(c))
    guest("touch %snd/a.txt" % share)
    st, recs = completion(c, p)
    check("a file created in the guest: ADDED a.txt",
          st == 0 and recs == [(ADDED, "a.txt")], "%s %s" % (
              name(st) if st is not None else st, recs))
    # Changes between requests are kept for the next one.
    guest("cd %snd && touch b.txt c.txt && rm a.txt && mv b.txt d.txt" %
          share)
    st, d_ = notify(c, d, FN)
    recs = records(d_) if st == 0 else []
    check("changes between requests are buffered, in order",
          st == 0 and recs == [(ADDED, "b.txt"), (ADDED, "c.txt"),
                               (REMOVED, "a.txt"), (OLD, "b.txt"),
                               (NEW, "d.txt")],
          "%s %s" % (name(st), recs))
    # Filters: names of files, names of directories, attributes, size.
    p = pending_notify(c, d, DN)
    guest("cd %snd && touch e.txt && mkdir dir1" % share)
    st, recs = completion(c, p)
    check("DIR_NAME: a new directory, not a new file",
          st == 0 and recs == [(ADDED, "dir1")], "%s %s" % (
              name(st) if st is not None else st, recs))
    p = pending_notify(c, d, ATTR)
    guest("chmod 600 %snd/c.txt" % share)
    st, recs = completion(c, p)
    check("ATTRIBUTES: a chmod", st == 0 and recs == [(MODIFIED, "c.txt")],
          "%s %s" % (name(st) if st is not None else st, recs))
    p = pending_notify(c, d, SIZE)
    guest("echo more >> %snd/d.txt" % share)
    st, recs = completion(c, p)
    check("SIZE: an append", st == 0 and recs == [(MODIFIED, "d.txt")],
          "%s %s" % (name(st) if st is not None else st, recs))
    guest("cd %snd && for i in 1 2 3; do echo $i >> d.txt; done" % share)
    st, d_ = notify(c, d, SIZE)
    recs = records(d_) if st == 0 else []
    check("writes in a row are reported once",
          st == 0 and recs == [(MODIFIED, "d.txt")], "%s %s" % (name(st),
                                                              recs))
    # Over SMB, from another connection.
    c2 = Client(c.port, c.share)
    p = pending_notify(c, d, FN)
    c2.close(c2.open("nd\\smb.txt", disp=OPEN_IF))
    st, recs = completion(c, p)
    check("a file created over SMB on another connection",
          st == 0 and recs[:1] == [(ADDED, "smb.txt")], "%s %s" % (
              name(st) if st is not None else st, recs))
    # The new file's own attribute set-up is not reported; an attribute
    # set afterwards over SMB is (smbtorture notify.mask-change).
    p = pending_notify(c, d, ATTR)
    f = c2.open("nd\\attr.txt", disp=CREATE_D)
    st = c2.set_attrs(f, 0x2)
    c2.close(f)
    st, recs = completion(c, p)
    check("ATTRIBUTES: HIDDEN set over SMB on a file just created",
          st == 0 and recs == [(MODIFIED, "attr.txt")], "%s %s" % (
              name(st) if st is not None else st, recs))

    # The subtree.
    p = pending_notify(c, d, FN)
    guest("touch %snd/sub/deep/x.txt && touch %snd/top.txt" % (share,
                                                                 share))
    st, recs = completion(c, p)
    check("without WATCH_TREE only the directory itself",
          st == 0 and recs == [(ADDED, "top.txt")], "%s %s" % (
              name(st) if st is not None else st, recs))
    t = c.open("nd", disp=OPEN, options=DIRECTORY_FILE, access=LIST)
    p = pending_notify(c, t, FN, tree=True)
    guest("touch %snd/sub/deep/y.txt" % share)
    st, recs = completion(c, p)
    check("WATCH_TREE: sub\\deep\\y.txt",
          st == 0 and recs == [(ADDED, "sub\\deep\\y.txt")],
          "%s %s" % (name(st) if st is not None else st, recs))
    guest("mv %snd/sub/deep/y.txt %snd/sub/z.txt" % (share, share))
    st, d_ = notify(c, t, FN, tree=True)
    recs = records(d_) if st == 0 else []
    check("WATCH_TREE: a rename across subdirectories",
          st == 0 and recs == [(OLD, "sub\\deep\\y.txt"),
                               (NEW, "sub\\z.txt")],
          "%s %s" % (name(st), recs))
    # A pending request ends with a CANCEL or the close of its handle.
    p = pending_notify(c, t, FN, tree=True)
    guest("touch %soutside.txt" % share)
    check("changes outside the watched tree are not reported",
          p is not None and nothing_pending(c, 1))
    if p:
        send(c, CANCEL, struct.pack("<HH", 4, 0), mid=0, async_id=p[1])
    st, _ = completion(c, p)
    check_st("CANCEL: STATUS_CANCELLED", st if st is not None else 1,
             "CANCELLED")
    # A CANCEL naming its request by MessageId, sent right behind it, may
    # be handled before that request went async: it is cancelled all the
    # same, at once or after an interim response (smbtorture notify.mask
    # used to wait forever for it).
    done, why = 0, ""
    for i in range(30):
        m = send(c, NOTIFY, notify_body(t, FN))
        send(c, CANCEL, struct.pack("<HH", 4, 0), mid=m)
        st = None
        for _ in range(2):
            try:
                st, _, rmid, _, _ = recv(c, 10)
            except Exception as e:  # noqa: BLE001 - a timeout fails it
                st, why = None, "round %d: no answer (%s)" % (i, e)
                break
            if st != ST["PENDING"] or rmid != m:
                break
        if st != ST["CANCELLED"]:
            why = why or "round %d: %s" % (i, name(st))
            break
        done += 1
    check("CANCEL by MessageId right behind its CHANGE_NOTIFY, 30 times",
          done == 30, why)
    p = pending_notify(c, t, FN)
    mid = send(c, 6, struct.pack("<HHI", 24, 0, 0) + t)
    got = {}
    for _ in range(2):
        try:
            st, _, m, _, _ = recv(c)
            got[m] = st
        except Exception:  # noqa: BLE001
            break
    check("closing the handle: STATUS_NOTIFY_CLEANUP",
          p is not None and got.get(p[0]) == ST["NOTIFY_CLEANUP"] and
          got.get(mid) == 0, str({k: name(v) for k, v in got.items()}))

    # A watched directory that becomes pending deletion ends the requests
    # waiting on it with STATUS_DELETE_PENDING (smbtorture notify.rmdir*).
    guest("mkdir -p %snd/doomed && chmod 777 %snd/doomed" % (share, share))
    w = c.open("nd\\doomed", disp=OPEN, options=DIRECTORY_FILE,
               access=LIST, share=SH_ALL)
    p = pending_notify(c, w, FN)
    x = c2.open("nd\\doomed", disp=OPEN, options=DIRECTORY_FILE,
                access=LIST | DELETE, share=SH_ALL)
    st = c2.setinfo(x, 13, b"\1")
    c2.close(x)
    st, _ = completion(c, p)
    check_st("a watched directory set to delete: STATUS_DELETE_PENDING",
             st if st is not None else 1, "DELETE_PENDING")
    c.close(w)
    check("... and it is gone after the last close",
          "doomed" not in guest("ls %snd" % share))

    # Too much for the client's buffer: enumerate instead.
    guest("cd %snd && for i in 1 2 3 4 5 6 7 8; do touch long-name-$i; "
          "done" % share)
    check_st("more than OutputBufferLength: STATUS_NOTIFY_ENUM_DIR",
             notify(c, d, FN, length=64)[0], "NOTIFY_ENUM_DIR")
    guest("cd %snd && for i in $(seq 1 40); do touch "
          "a-rather-long-name-to-fill-the-buffer-quickly-$i; done" % share)
    check_st("more than the server buffers: STATUS_NOTIFY_ENUM_DIR",
             notify(c, d, FN)[0], "NOTIFY_ENUM_DIR")
    guest("touch %snd/after.txt" % share)
    st, d_ = notify(c, d, FN)
    check("... and then changes are reported again",
          st == 0 and records(d_) == [(ADDED, "after.txt")],
          "%s %s" % (name(st), records(d_) if st == 0 else []))
    # A request left pending at logoff and disconnect.
    p = pending_notify(c, d, FN)
    check("a request left waiting at disconnect", p is not None)


def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    if len(sys.argv) > 4:
        AGENT[0] = int(sys.argv[4])
    c = Client(port, share)
    c.port, c.share = port, share
    globals()["g_" + group.replace("-", "_")](c)
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
