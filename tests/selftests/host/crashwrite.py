#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The client side of long/crash-writes.sh: write a file through SMB2 and
keep, on the host, a record of what the server acknowledged; later,
check that every acknowledged byte is in the file.

    crashwrite.py write PORT SHARE USER PASSWORD NAME LOG MODE [SECONDS]
    crashwrite.py verify PORT SHARE USER PASSWORD NAME LOG durable|acked
        [LABEL]

write: WRITEs of 4-64 KiB at ever higher offsets of NAME (never over
earlier data, so an acknowledged range can only hold what was written
there), until killed or SECONDS have passed.  MODE says how data is made
durable: "wt", every WRITE with SMB2_WRITEFLAG_WRITE_THROUGH; "flush",
plain WRITEs and a FLUSH after every 1-8 of them; "mixed", each WRITE
write-through or not at random, FLUSHes in between; "none", plain WRITEs
and no FLUSH (nothing durable: the control that shows a kill loses
what was never made durable).  LOG gets one line
per acknowledgement, appended and fsync()ed before the next request:
"A OFF LEN" when a WRITE succeeded, "D OFF LEN" once it is durable (its
write-through WRITE, or a later FLUSH, succeeded).  A 4 KiB page of data
is 256 copies of a 16-byte tag (the file's and the page's number), so a
page that holds anything else, zeros or another page's tag, is found.

verify: read NAME back and check every range of LOG's "D" lines
(durable) or of all its lines (acked: the server did not crash, so even
unflushed acknowledged data must be there).  Prints PASS/FAIL lines
(t_checks) with the counts; the lost bytes, if any, in the FAIL line."""

import hashlib
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files import FULL, OPEN, OPEN_IF, Client, name  # noqa: E402

PAGE = 4096
WRITE_THROUGH = 0x1  # SMB2_WRITEFLAG_WRITE_THROUGH


def page(fileno, idx):
    return struct.pack("<QQ", fileno, idx) * (PAGE // 16)


def content(fileno, off, length):
    return b"".join(page(fileno, i)
                    for i in range(off // PAGE, (off + length) // PAGE))


def fileno_of(fname):
    return int.from_bytes(hashlib.sha256(fname.encode()).digest()[:8],
                          "little")


class Log:
    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.counts = {"A": 0, "D": 0}

    def add(self, kind, ranges):
        self.counts[kind] += len(ranges)
        if ranges:
            os.write(self.fd, "".join("%s %d %d\n" % (kind, o, n)
                                      for o, n in ranges).encode())
            os.fsync(self.fd)


def write(port, share, user, pw, fname, logpath, mode, seconds):
    rnd = random.Random()
    c = Client(port, share, user, pw)
    r = c.create(fname, access=FULL, disp=OPEN_IF)
    if r.status:
        sys.exit("create %s: %s" % (fname, name(r.status)))
    fid, fno = r.fid, fileno_of(fname)
    log = Log(logpath)
    off = r.eof + (-r.eof % PAGE)
    until = time.time() + seconds if seconds else None
    try:
        loop(c, fid, fno, log, off, mode, until, rnd)
    except Exception as e:  # the server went away: say how far it got
        sys.exit("%s after %d WRITEs acknowledged, %d durable: %s" %
                 (fname, log.counts["A"], log.counts["D"], e))
    c.close(fid)
    print("%s: %d WRITEs acknowledged, %d durable" %
          (fname, log.counts["A"], log.counts["D"]))


def loop(c, fid, fno, log, off, mode, until, rnd):
    pending = []  # acknowledged, not yet durable
    next_flush = rnd.randint(1, 8)
    while until is None or time.time() < until:
        length = rnd.randint(1, 16) * PAGE
        wt = mode == "wt" or (mode == "mixed" and rnd.random() < 0.5)
        st, n = c.write(fid, off, content(fno, off, length),
                        flags=WRITE_THROUGH if wt else 0)
        if st or n != length:
            raise RuntimeError("WRITE at %d: %s, %d of %d bytes" %
                               (off, name(st), n, length))
        log.add("A", [(off, length)])
        if wt:
            log.add("D", [(off, length)])
        else:
            pending.append((off, length))
        off += length
        next_flush -= 1
        if mode in ("flush", "mixed") and next_flush == 0:
            st = c.flush(fid)
            if st:
                raise RuntimeError("FLUSH: %s" % name(st))
            log.add("D", pending)
            pending = []
            next_flush = rnd.randint(1, 8)


def verify(port, share, user, pw, fname, logpath, which, label):
    ranges = []
    with open(logpath) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and (which == "acked" or parts[0] == "D"):
                ranges.append((int(parts[1]), int(parts[2])))
    if which == "acked":
        ranges = sorted(set(ranges))
    total = sum(n for _, n in ranges)
    what = "%s: %d %s WRITEs (%.1f MiB)" % (label or fname, len(ranges),
                                            which, total / 2**20)
    c = Client(port, share, user, pw)
    r = c.create(fname, access=FULL, disp=OPEN)
    if r.status:
        if not ranges:
            print("PASS %s, no file" % what)
            return
        if name(r.status) == "OBJECT_NAME_NOT_FOUND":
            # The kill came before the journal held the file itself.
            print("FAIL %s all there: %d bytes lost: the file is gone"
                  % (what, total))
        else:
            print("FAIL %s all there: open: %s" % (what, name(r.status)))
        return
    fno, lost, bad = fileno_of(fname), 0, []
    for off, length in ranges:
        st, data = c.read(r.fid, off, length)
        if st == 0 and data == content(fno, off, length):
            continue
        want = content(fno, off, length)
        for p in range(0, length, PAGE):
            if data[p:p + PAGE] != want[p:p + PAGE]:
                lost += PAGE
        bad.append("%d+%d" % (off, length))
    c.close(r.fid)
    if lost:
        print("FAIL %s all there: %d bytes lost in %d WRITEs (%s), "
              "file is %d bytes" % (what, lost, len(bad),
                                    " ".join(bad[:8]), r.eof))
    else:
        print("PASS %s all there" % what)


def main():
    a = sys.argv[1:]
    if len(a) >= 8 and a[0] == "write":
        write(int(a[1]), a[2], a[3], a[4], a[5], a[6], a[7],
              float(a[8]) if len(a) > 8 else 0)
    elif len(a) >= 8 and a[0] == "verify":
        verify(int(a[1]), a[2], a[3], a[4], a[5], a[6], a[7],
               a[8] if len(a) > 8 else "")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
