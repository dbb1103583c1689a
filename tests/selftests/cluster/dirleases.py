#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Directory leases across two cluster nodes: a client of node A caches a
directory's listing under a read-handle lease; creates, deletes, renames
(within, out of, into) and a size change made through node B in that
directory break it to none, as the same change through node A would;
a change in another directory does not; a listing through A after the
break shows B's file.  One raw impacket connection per node, both
serving the same CephFS directory as the same share (with leases);
leases.py's helpers.  Prints "PASS text" or "FAIL text: why" per check
(t_checks), and what it measured as plain lines.

    dirleases.py PORT_A PORT_B SHARE
    dirleases.py hold PORT SHARE DIR     lease DIR (read-handle), print
                                         HELD, never answer a break
    dirleases.py probe PORT SHARE DIR    create a file in DIR, then lease
                                         DIR (after its holder's node
                                         went)"""

import os
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "host"))
import cli  # noqa: E402
import files  # noqa: E402
from files import (DIRECTORY_FILE, FILE_RENAME_INFO, OPEN_IF,  # noqa: E402
                   READ_ATTRIBUTES, READ_DATA, check, name)
from leases import (ACK_REQUIRED, CREATE, LH, LR, Opened, ack_lease,  # noqa: E402
                    break_note, close, key_of, open_cached)
from storm import create_body, lease_ctx  # noqa: E402

RH = LR | LH
FILE_END_OF_FILE_INFO = 20
FILE_NAMES_INFO = 12
QUERY_DIRECTORY = 0x0E
DELETE = 0x10000


def open_dir(c, dname, key):
    """A CREATE (open or create) of directory @dname asking for an RH
    lease of key_of(@key): an Opened."""
    body = bytearray(create_body(dname, access=READ_DATA | READ_ATTRIBUTES,
                                 ctxs=[lease_ctx(key_of(key), RH)],
                                 oplock=0xFF))
    struct.pack_into("<I", body, 36, OPEN_IF)         # CreateDisposition
    struct.pack_into("<I", body, 40, DIRECTORY_FILE)  # CreateOptions
    st, d = c.raw(CREATE, bytes(body))
    return Opened(st, d)


def mkfile(c, fname):
    o = open_cached(c, fname)
    close(c, o.fid)
    return o.status


def rename(c, old, new):
    o = open_cached(c, old, access=DELETE | READ_ATTRIBUTES)
    if o.status:
        return o.status
    # ReplaceIfExists (@new does not exist): without it the server asks
    # for RENAME_NOREPLACE, which CephFS refuses (EINVAL).
    n = new.encode("utf-16-le")
    st = c.setinfo(o.fid, FILE_RENAME_INFO,
                   struct.pack("<B7xQI", 1, 0, len(n)) + n)
    close(c, o.fid)
    return st


def delete(c, fname):
    o = open_cached(c, fname, access=DELETE)
    if o.status:
        return o.status
    st = c.setinfo(o.fid, 13, b"\1")  # FileDispositionInformation
    close(c, o.fid)
    return st


def truncate(c, fname):
    o = open_cached(c, fname)
    if o.status:
        return o.status
    st = c.setinfo(o.fid, FILE_END_OF_FILE_INFO, struct.pack("<Q", 5))
    close(c, o.fid)
    return st


def listing(c, dname):
    """The names in directory @dname (QUERY_DIRECTORY, FileNames
    information, through @c), sorted."""
    o = open_cached(c, dname, access=READ_DATA | READ_ATTRIBUTES)
    names, flags = [], 1  # RESTART_SCANS
    pattern = "*".encode("utf-16-le")
    while o.status == 0:
        body = struct.pack("<HBBI16sHHI", 33, FILE_NAMES_INFO, flags, 0,
                           o.fid, 96, len(pattern), 65536) + pattern
        st, d = c.raw(QUERY_DIRECTORY, body)
        if st:
            break
        off, ln = struct.unpack_from("<HI", d, 2)
        buf, pos = d[off - 64:off - 64 + ln], 0
        while pos + 12 <= len(buf):
            nxt, _, nl = struct.unpack_from("<III", buf, pos)
            names.append(buf[pos + 12:pos + 12 + nl].decode("utf-16-le"))
            if not nxt:
                break
            pos += nxt
        flags = 0
    close(c, o.fid)
    return sorted(n for n in names if n not in (".", ".."))


class Holder:
    """A client's RH lease of a directory, taken again after each break."""

    def __init__(self, c, dname, key, who="A"):
        self.c, self.dname, self.key, self.h = c, dname, key, None
        self.who = who

    def take(self, what):
        close(self.c, self.h.fid if self.h else None)
        self.key += 1
        t0 = time.monotonic()
        self.h = open_dir(self.c, self.dname, self.key)
        took = time.monotonic() - t0
        check("%s: an RH lease of %s granted (%s)" % (self.who, self.dname,
                                                      what),
              self.h.status == 0 and self.h.lease == RH,
              "status %s, lease %r" % (name(self.h.status), self.h.lease))
        return took

    def broken(self, what, secs=10):
        """The lease's break by @what (to none, acknowledged)."""
        note = break_note(self.c, secs)
        ok = note == ("lease", RH, 0, ACK_REQUIRED)
        check("A: its directory lease broken to none by %s through B" % what,
              ok, "got %r" % (note,))
        if note:
            check("A: the break acknowledged",
                  ack_lease(self.c, self.key, 0) == 0)
        # A rename within the directory is two events, each of which may
        # be reported: the second finds the lease broken already.
        break_note(self.c, 0.5)
        return ok


def main():
    port_a, port_b, share = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    a = files.Client(port_a, share)
    b = files.Client(port_b, share)
    d, other = "dl-dir", "dl-other"
    for k, n in enumerate((d, other)):
        o = open_dir(b, n, 90 + k)
        close(b, o.fid)
    for f in ("del.txt", "ren.txt", "out.txt", "size.txt"):
        mkfile(b, d + "\\" + f)
    mkfile(b, "in.txt")
    h = Holder(a, d, 100)
    grants = [h.take("before any change")]

    # A create through B: the break, then a listing through A shows it.
    t0 = time.monotonic()
    st = mkfile(b, d + "\\new-b.txt")
    answered = time.monotonic() - t0
    check("B: creates %s\\new-b.txt" % d, st == 0, name(st))
    t1 = time.monotonic()
    h.broken("a create")
    print("B's CREATE answered in %.1f ms; A's break came %.1f ms after it"
          % (answered * 1000, (time.monotonic() - t1) * 1000))
    names = listing(a, d)
    check("A: its listing after the break shows B's file",
          "new-b.txt" in names, "got %r" % (names,))

    changes = [
        ("a delete", lambda: delete(b, d + "\\del.txt")),
        ("a rename within it", lambda: rename(b, d + "\\ren.txt",
                                              d + "\\ren2.txt")),
        ("a rename out of it", lambda: rename(b, d + "\\out.txt",
                                              "out-moved.txt")),
        ("a rename into it", lambda: rename(b, "in.txt", d + "\\in.txt")),
        ("a size change (set-info) of a file in it",
         lambda: truncate(b, d + "\\size.txt")),
    ]
    for what, change in changes:
        grants.append(h.take("again, after the last break"))
        st = change()
        check("B: %s in %s succeeds" % (what, d), st == 0, name(st))
        h.broken(what)
    names = listing(a, d)
    check("A: its listing shows every change made through B",
          names == ["in.txt", "new-b.txt", "ren2.txt", "size.txt"],
          "got %r" % (names,))

    # Another directory's change breaks nothing.
    grants.append(h.take("again"))
    plain = []
    for i in range(5):
        t0 = time.monotonic()
        st = mkfile(b, other + "\\x%d.txt" % i)
        plain.append(time.monotonic() - t0)
        check("B: creates %s\\x%d.txt" % (other, i), st == 0, name(st))
    note = break_note(a, 2)
    check("A: creates in another directory through B break nothing",
          note is None, "got %r" % (note,))
    print("B's CREATE+CLOSE in a directory nobody leases: median %.1f ms; "
          "in the leased one: %.1f ms" % (statistics.median(plain) * 1000,
                                          answered * 1000))

    # The other way round: a lease through B, a create through A.
    hb = Holder(b, other, 200, "B")
    hb.take("its client's")
    st = mkfile(a, other + "\\y.txt")
    check("A: creates %s\\y.txt" % other, st == 0, name(st))
    note = break_note(b, 10)
    check("B: its directory lease broken to none by a create through A",
          note == ("lease", RH, 0, ACK_REQUIRED), "got %r" % (note,))
    if note:
        ack_lease(b, hb.key, 0)
    close(b, hb.h.fid)
    close(a, h.h.fid)
    print("directory lease grants through A took %s ms (the first records "
          "and announces it)" % " ".join("%.1f" % (t * 1000) for t in grants))
    print("median re-grant %.1f ms" % (statistics.median(grants[1:]) * 1000))
    return 1 if files.failed else 0


def hold(port, share, dname):
    c = files.Client(port, share)
    h = open_dir(c, dname, 300)
    if h.status != 0 or h.lease != RH:
        print("NOT HELD %s %r" % (name(h.status), h.lease), flush=True)
        return 1
    print("HELD", flush=True)
    while True:
        time.sleep(60)


def probe(port, share, dname):
    c = files.Client(port, share)
    t0 = time.monotonic()
    st = mkfile(c, dname + "\\probe.txt")
    took = time.monotonic() - t0
    check("B: creates a file in %s, which node a leased, in %.1f ms" %
          (dname, took * 1000), st == 0, name(st))
    h = open_dir(c, dname, 400)
    check("B: leases %s after node a went" % dname,
          h.status == 0 and h.lease == RH,
          "status %s, lease %r" % (name(h.status), h.lease))
    close(c, h.fid)
    return 1 if files.failed else 0


if __name__ == "__main__":
    cli.run({"hold": (hold, int, str, str),
             "probe": (probe, int, str, str)}, main)
