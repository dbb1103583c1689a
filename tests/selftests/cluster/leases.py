#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Leases and oplocks across two cluster nodes: raw SMB2 CREATE and
OPLOCK_BREAK through one impacket connection to each node, both serving
the same CephFS directory as the same share (with oplocks and leases).
Prints "PASS text" or "FAIL text: why" per check (t_checks), and what it
measured as plain lines.

    leases.py PORT_A PORT_B SHARE
    leases.py hold PORT SHARE FILE       open FILE with a read-write-handle
                                         lease, print HELD, never answer
                                         a break
    leases.py wait PORT SHARE FILE SECS  open FILE for writing until it
                                         succeeds; PASS with the time

Mirrors smbtorture's smb2.lease and smb2.oplock break cases (a second
open breaks write and handle caching and waits for the acknowledgement,
a writer breaks read caching to none, an unanswered break times out)
with the holder and the second open on different nodes; the helpers are
the single-node suites' (host/files.py, host/file3.py, host/storm.py)."""

import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "host"))
import cli  # noqa: E402
import files  # noqa: E402
from file3 import ST, send  # noqa: E402
from files import (READ_DATA, WRITE_DATA, Client, check,  # noqa: E402
                   name, parse_ctxs)
from storm import BREAK_TIMEOUT, create_body, lease_ctx  # noqa: E402

CREATE, CLOSE, WRITE, OPLOCK_BREAK = 5, 6, 9, 0x12
LR, LH, LW = 1, 2, 4
RWH = LR | LH | LW
OPLOCK_NONE, OPLOCK_II, OPLOCK_BATCH, OPLOCK_LEASE = 0, 1, 9, 0xFF
OVERWRITE_IF = 5
ACK_REQUIRED = 1
RW = READ_DATA | WRITE_DATA | 0x80  # and READ_ATTRIBUTES
R = READ_DATA | 0x80


def pdu(c, timeout):
    """The next PDU on @c: (command, status, message id, body)."""
    stash = c.smb._Connection["OutstandingResponses"]
    if stash:
        pkt = stash.pop(next(iter(stash))).getData()
    else:
        pkt = c.smb._NetBIOSSession.recv_packet(timeout).get_trailer()
    st, cmd = struct.unpack_from("<IH", pkt, 8)
    mid, = struct.unpack_from("<Q", pkt, 24)
    return cmd, st, mid, pkt[64:]


def pdu_or_none(c, timeout):
    try:
        return pdu(c, timeout)
    except Exception:
        return None


class Opened:
    """A CREATE's answer: status, oplock level, lease state, FileId."""

    def __init__(self, st, d):
        self.status = st
        self.oplock = d[2] if st == 0 else None
        self.fid = d[64:80] if st == 0 else None
        self.lease = None
        if st == 0:
            off, ln = struct.unpack_from("<II", d, 80)
            ls = parse_ctxs(d[off - 64:off - 64 + ln]).get(b"RqLs") if ln else None
            if ls:
                self.lease, = struct.unpack_from("<I", ls, 16)


def key_of(i):
    return struct.pack("<QQ", 0x6c62726b, i)


def open_cached(c, fname, access=RW, lease=None, oplock=OPLOCK_NONE, key=1,
                share=None):
    """CREATE asking for a lease in state @lease (with key_of(@key)) or
    for oplock level @oplock, sharing @share (None: all); waits for the
    answer."""
    ctxs = [lease_ctx(key_of(key), lease)] if lease is not None else None
    body = bytearray(create_body(fname, access=access, ctxs=ctxs,
                                 oplock=OPLOCK_LEASE if lease is not None
                                 else oplock))
    if share is not None:
        struct.pack_into("<I", body, 32, share)  # ShareAccess
    st, d = c.raw(CREATE, bytes(body))
    return Opened(st, d)


def send_open(c, fname, access=RW):
    """A CREATE without caching, sent and not waited for: its MessageId."""
    return send(c, CREATE, create_body(fname, access=access))


def final(c, mid, secs):
    """The final response to @mid within @secs (interim ones skipped):
    an Opened, or None."""
    end = time.monotonic() + secs
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return None
        p = pdu_or_none(c, left)
        if p is None:
            return None
        cmd, st, m, body = p
        if m == mid and st != ST["PENDING"]:
            return Opened(st, body)


def completed_within(c, mid, secs):
    """True when the final response to @mid comes within @secs; the
    response (if any) is consumed."""
    return final(c, mid, secs) is not None


def break_note(c, secs=15):
    """The next OPLOCK_BREAK notification on @c: ("lease", current, new,
    flags) or ("oplock", level, fid), or None."""
    end = time.monotonic() + secs
    while time.monotonic() < end:
        p = pdu_or_none(c, max(0.1, end - time.monotonic()))
        if p is None:
            return None
        cmd, _, mid, body = p
        if cmd != OPLOCK_BREAK or mid != 0xFFFFFFFFFFFFFFFF:
            continue
        size, = struct.unpack_from("<H", body)
        if size == 44:
            flags, = struct.unpack_from("<I", body, 4)
            cur, new = struct.unpack_from("<II", body, 24)
            return ("lease", cur, new, flags)
        if size == 24:
            return ("oplock", body[2], body[8:24])
    return None


def ack_lease(c, key, state):
    mid = send(c, OPLOCK_BREAK, struct.pack("<HHI16sIQ", 36, 0, 0, key_of(key),
                                            state, 0))
    return final_status(c, mid)


def ack_oplock(c, fid, level):
    mid = send(c, OPLOCK_BREAK, struct.pack("<HBBI16s", 24, level, 0, 0, fid))
    return final_status(c, mid)


def final_status(c, mid, secs=15):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        p = pdu_or_none(c, max(0.1, end - time.monotonic()))
        if p and p[2] == mid and p[1] != ST["PENDING"]:
            return p[1]
    return None


def close(c, fid):
    if fid:
        c.raw(CLOSE, struct.pack("<HHI", 24, 0, 0) + fid)


def prepare(c, fname):
    o = open_cached(c, fname)
    close(c, o.fid)


def breaks_and_waits(a, b, fname, holder, taken_to, ack, what):
    """@holder (a CREATE on @a, done) caches @fname; B's open for
    writing breaks it (the notification on @a must say @taken_to) and
    completes only after @ack acknowledged it.  Returns the seconds from
    the acknowledgement to B's answer, or None."""
    mid = send_open(b, fname)
    note = break_note(a)
    check("A: B's open for writing breaks its %s (%s)" % (what, taken_to[0]),
          note is not None and note[:len(taken_to)] == taken_to,
          "got %r" % (note,))
    if note is None:
        final(b, mid, BREAK_TIMEOUT + 10)
        return None
    early = final(b, mid, 1.5)
    check("B: its open waits for A's acknowledgement", early is None,
          "answered %s before it" % (name(early.status) if early else ""))
    t0 = time.monotonic()
    st = ack(note)
    check("A: the break acknowledged", st == 0, "got %s" % name(st or 0))
    done = early or final(b, mid, 15)
    took = time.monotonic() - t0
    check("B: its open succeeds once A acknowledged (%.2f s after)" % took,
          done is not None and done.status == 0,
          "got %s" % (name(done.status) if done else "nothing in 15 s"))
    if done:
        close(b, done.fid)
    close(a, holder.fid)
    return took


def main():
    port_a, port_b, share = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    a = Client(port_a, share)
    b = Client(port_b, share)
    waits = []

    # 1. A read-write-handle lease on node A; B opens for writing.
    f = "lease-rwh.txt"
    prepare(a, f)
    h = open_cached(a, f, lease=RWH, key=1)
    check("A: RWH lease granted on the cluster's CephFS (no other node has "
          "the file open)", h.status == 0 and h.lease == RWH,
          "status %s, lease %r" % (name(h.status), h.lease))
    if h.status == 0:
        t = breaks_and_waits(a, b, f, h, ("lease", RWH, 0), lambda n:
                             ack_lease(a, 1, 0), "RWH lease to none")
        if t is not None:
            waits.append(t)

    # 2. A batch oplock on node A; B opens for writing.
    f = "oplock-batch.txt"
    prepare(a, f)
    h = open_cached(a, f, oplock=OPLOCK_BATCH)
    check("A: batch oplock granted", h.status == 0 and h.oplock == OPLOCK_BATCH,
          "status %s, oplock %r" % (name(h.status), h.oplock))
    if h.status == 0:
        t = breaks_and_waits(a, b, f, h, ("oplock", OPLOCK_NONE),
                             lambda n: ack_oplock(a, h.fid, OPLOCK_NONE),
                             "batch oplock to none")
        if t is not None:
            waits.append(t)

    # 3. A reader on B takes only write caching: RWH becomes RH.
    f = "lease-reader.txt"
    prepare(a, f)
    h = open_cached(a, f, lease=RWH, key=3)
    if h.status == 0 and h.lease == RWH:
        mid = send_open(b, f, access=R)
        note = break_note(a)
        check("A: B's open for reading breaks its RWH lease to RH only",
              note == ("lease", RWH, LR | LH, ACK_REQUIRED), "got %r" % (note,))
        check("B: its open for reading waits for the acknowledgement",
              final(b, mid, 1.5) is None, "answered before it")
        check("A: the break to RH acknowledged", ack_lease(a, 3, LR | LH) == 0)
        done = final(b, mid, 15)
        check("B: its open for reading succeeds once A acknowledged",
              done is not None and done.status == 0)
        # A keeps RH: a second reader on B breaks nothing.
        o = open_cached(b, f, access=R)
        check("B: a second open for reading breaks nothing more",
              o.status == 0 and break_note(a, 1.5) is None)
        close(b, o.fid)
        if done:
            close(b, done.fid)
    else:
        check("A: RWH lease granted (reader case)", False, "got %r" % h.lease)
    close(a, h.fid)

    # 4. A read lease on node A; B opens for writing and writes.
    f = "lease-read.txt"
    prepare(a, f)
    h = open_cached(a, f, lease=LR, key=4)
    check("A: read lease granted", h.status == 0 and h.lease == LR,
          "status %s, lease %r" % (name(h.status), h.lease))
    if h.status == 0:
        o = final(b, send_open(b, f), 15) or Opened(ST["PENDING"], b"")
        st = b.write(o.fid, 0, b"from-b")[0] if o.status == 0 else o.status
        check("B: opens the file for writing and writes it", st == 0,
              "got %s" % name(st))
        note = break_note(a, 5)
        check("A: its read lease is broken to none, no acknowledgement asked",
              note == ("lease", LR, 0, 0), "got %r" % (note,))
        # Nothing to acknowledge: a second write breaks nothing more.
        st = b.write(o.fid, 6, b"again")[0] if o.status == 0 else o.status
        check("B: a second WRITE breaks nothing more",
              st == 0 and break_note(a, 1.5) is None)
        # A asks again: B writes, so A gets no read caching back.
        h2 = open_cached(a, f, lease=LR, key=5)
        check("A: no read lease while B has the file open for writing",
              h2.status == 0 and not h2.lease, "got %r" % h2.lease)
        close(a, h2.fid)
        close(b, o.fid)
    close(a, h.fid)

    # 4b. An overwrite through B without write access still writes: A's
    # read lease goes to none before the data does.
    f = "lease-overwrite.txt"
    prepare(a, f)
    w = open_cached(a, f)
    st = a.write(w.fid, 0, b"0123456789")[0] if w.status == 0 else w.status
    close(a, w.fid)
    h = open_cached(a, f, lease=LR, key=9)
    if st == 0 and h.status == 0 and h.lease == LR:
        body = bytearray(create_body(f, access=R))
        struct.pack_into("<I", body, 36, OVERWRITE_IF)  # CreateDisposition
        o = final(b, send(b, CREATE, bytes(body)), 15)
        check("B: a read-only open overwriting the file succeeds",
              o is not None and o.status == 0,
              "got %s" % (name(o.status) if o else "nothing"))
        note = break_note(a, 5)
        check("A: its read lease is broken to none by B's overwrite",
              note == ("lease", LR, 0, 0), "got %r" % (note,))
        if o is not None and o.status == 0:
            close(b, o.fid)
    else:
        check("A: read lease granted (overwrite case)", False,
              "write %s, lease %r" % (name(st), h.lease))
    close(a, h.fid)

    # 5. A sharing violation takes handle caching too: A's client may
    # close what it keeps open; it does not, so B's open then fails.
    f = "lease-violation.txt"
    prepare(a, f)
    h = open_cached(a, f, lease=RWH, key=8, share=0)
    if h.status == 0 and h.lease == RWH:
        mid = send_open(b, f, access=R)
        note = break_note(a)
        check("A (sharing nothing): B's open for reading breaks its RWH lease "
              "to R", note == ("lease", RWH, LR, ACK_REQUIRED), "got %r" % (note,))
        check("B: its conflicting open waits for the acknowledgement",
              final(b, mid, 1.5) is None, "answered before it")
        check("A: the break to R acknowledged", ack_lease(a, 8, LR) == 0)
        done = final(b, mid, 15)
        check("B: then its open fails with SHARING_VIOLATION (A kept its open)",
              done is not None and done.status == ST["SHARING_VIOLATION"],
              "got %s" % (name(done.status) if done else "nothing in 15 s"))
    else:
        check("A: RWH lease granted (sharing nothing)", False, "got %r" % h.lease)
    close(a, h.fid)

    # 6. Nobody answers: B waits one break timeout, not longer.
    f = "lease-silent.txt"
    prepare(a, f)
    mute = Client(port_a, share)
    h = open_cached(mute, f, lease=RWH, key=6)
    if h.status == 0 and h.lease == RWH:
        t0 = time.monotonic()
        mid = send_open(b, f)
        done = final(b, mid, BREAK_TIMEOUT + 20)
        took = time.monotonic() - t0
        print("B's open waited %.1f s for a break nobody answered" % took)
        check("B: its open succeeds once A's unanswered break timed out "
              "(%.1f s, the break timeout %d s)" % (took, BREAK_TIMEOUT),
              done is not None and done.status == 0 and
              BREAK_TIMEOUT - 5 <= took <= BREAK_TIMEOUT + 10,
              "got %s after %.1f s" % (name(done.status) if done else "nothing",
                                       took))
        if done:
            close(b, done.fid)
    else:
        check("A: RWH lease granted (silent holder)", False, "got %r" % h.lease)
    close(mute, h.fid)

    if waits:
        print("B's open answered %s s after A's acknowledgement" %
              " ".join("%.2f" % t for t in waits))
    return 1 if files.failed else 0


def hold(port, share, fname):
    c = Client(port, share)
    prepare(c, fname)
    h = open_cached(c, fname, lease=RWH, key=7)
    if h.status != 0 or h.lease != RWH:
        print("NOT HELD %s %r" % (name(h.status), h.lease), flush=True)
        return 1
    print("HELD", flush=True)
    while True:
        time.sleep(60)


def wait(port, share, fname, secs):
    t0 = time.monotonic()
    end = t0 + float(secs)
    c = Client(port, share)
    last = None
    while time.monotonic() < end:
        mid = send_open(c, fname)
        o = final(c, mid, max(1, end - time.monotonic()))
        if o and o.status == 0:
            close(c, o.fid)
            check("B: opens %s for writing %.1f s after node a went (no stale "
                  "caching blocks it)" % (fname, time.monotonic() - t0), True)
            return 0
        last = o.status if o else None
        time.sleep(1)
    check("B: opens %s for writing after node a went" % fname, False,
          "still %s after %s s" % (name(last) if last is not None else "nothing",
                                   secs))
    return 1


if __name__ == "__main__":
    cli.run({"hold": (hold, int, str, str),
             "wait": (wait, int, str, str, int)}, main)
