#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Share modes across two cluster nodes: one impacket connection to each
node, both serving the same CephFS directory as the same share.  Prints
"PASS text" or "FAIL text: why" per check (t_checks), and the CREATE +
CLOSE latencies it measured as plain lines.

    sharemode.py PORT_A PORT_B SHARE
    sharemode.py hold PORT SHARE FILE      open FILE to read denying writes,
                                           print HELD, keep it open reading it
                                           every 0.5 s; print DROPPED when
                                           that fails (the node closed it)
    sharemode.py refused PORT SHARE        a new tree connect must fail
                                           with STATUS_BAD_NETWORK_NAME (or
                                           the logon, daemon stopped, with
                                           STATUS_NO_LOGON_SERVERS)
    sharemode.py serves PORT SHARE FILE    a write open of FILE works
    sharemode.py probe PORT SHARE FILE     a write open of FILE must fail
    sharemode.py wait PORT SHARE FILE SECS try a write open of FILE until it
                                           works; PASS with the time it took
    sharemode.py latency PORT SHARE        CREATE + CLOSE latencies through
                                           one node
    sharemode.py put PORT SHARE FILE MIB   write MIB MiB (the same bytes for
                                           the same name) to FILE, close it
    sharemode.py same PORT SHARE FILE MIB  FILE must read back what put wrote

Mirrors smbtorture's smb2.sharemode idea (an open's share access against
another's access) with the two opens on different nodes."""

import random
import statistics
import sys
import time

from impacket import smb3structs as s3
from impacket.smbconnection import SMBConnection, SessionError

import cli

SHARING_VIOLATION = 0xC0000043
BAD_NETWORK_NAME = 0xC00000CC
NO_LOGON_SERVERS = 0xC000005E
R = s3.FILE_READ_DATA
W = s3.FILE_WRITE_DATA
SR = s3.FILE_SHARE_READ
SW = s3.FILE_SHARE_WRITE
SD = s3.FILE_SHARE_DELETE

passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS " + name)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))


class Node:
    def __init__(self, name, port, share):
        self.name = name
        # A CREATE on CephFS waits while the MDS recalls a dead node's
        # capabilities (up to its session timeout): more than impacket's
        # 60 s by default.
        self.conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=port,
                                  timeout=180)
        self.conn.login("", "")
        # impacket 0.10's create() fails (UnboundLocalError) on a name in
        # the share's root when the server offers directory leasing, as
        # it does with smb2 leases = yes (for leases.py); these checks ask
        # for no caching, so impacket has nothing to track.
        self.conn.getSMBServer()._Connection["SupportsDirectoryLeasing"] = False
        self.tid = self.conn.connectTree(share)

    def open(self, path, access, share, disp=s3.FILE_OPEN_IF):
        """The FileId, or the NTSTATUS of the failure."""
        try:
            return self.conn.createFile(self.tid, path, desiredAccess=access,
                                        shareMode=share, creationDisposition=disp)
        except SessionError as e:
            return e.getErrorCode()

    def close(self, fid):
        self.conn.closeFile(self.tid, fid)


def opened(r):
    return not isinstance(r, int)


def expect_violation(name, node, path, access, share):
    r = node.open(path, access, share)
    if opened(r):
        node.close(r)
        check(name, False, "the open succeeded")
    else:
        check(name, r == SHARING_VIOLATION, "status 0x%08x" % r)


def expect_open(name, node, path, access, share):
    r = node.open(path, access, share)
    check(name, opened(r), "" if opened(r) else "status 0x%08x" % r)
    if opened(r):
        node.close(r)


def matrix(first, second, path):
    """first opens @path to read, denying writes; second's opens."""
    f = first.open(path, R, SR)
    check("%s: open %s to read, sharing read only" % (first.name, path), opened(f),
          "" if opened(f) else "status 0x%08x" % f)
    if not opened(f):
        return
    expect_violation("%s: write open of %s while %s denies writing -> SHARING_VIOLATION"
                     % (second.name, path, first.name), second, path, R | W, SR | SW | SD)
    expect_violation("%s: read open of %s denying reading while %s reads -> SHARING_VIOLATION"
                     % (second.name, path, first.name), second, path, R, SW | SD)
    expect_open("%s: read open of %s sharing read and write succeeds"
                % (second.name, path), second, path, R, SR | SW | SD)
    first.close(f)
    expect_open("%s: after %s's last close, a write open of %s succeeds"
                % (second.name, first.name, path), second, path, R | W, SR | SW | SD)


def main():
    pa, pb, share = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    a = Node("A", pa, share)
    b = Node("B", pb, share)
    # A second connection to A: impacket keeps one table entry per file
    # name per connection, so two opens of one name need two.
    a2 = Node("A", pa, share)

    # The file exists for both: created through A.
    for p in ("one.txt", "two.txt", "three.txt", "four.txt", "lat.txt"):
        f = a.open(p, R | W, SR | SW | SD, s3.FILE_OVERWRITE_IF)
        check("A: create " + p, opened(f))
        if opened(f):
            a.close(f)

    matrix(a, b, "one.txt")
    matrix(b, a, "two.txt")

    # A writes (sharing read and write): B's open that denies writing fails.
    f = a.open("three.txt", R | W, SR | SW)
    check("A: open three.txt to write, sharing read and write", opened(f))
    if opened(f):
        expect_violation("B: open of three.txt denying writing while A writes -> "
                         "SHARING_VIOLATION", b, "three.txt", R, SR)
        expect_open("B: read open of three.txt sharing read and write succeeds",
                    b, "three.txt", R, SR | SW)
        a.close(f)
        expect_open("B: after A's close, an open denying writing succeeds",
                    b, "three.txt", R, SR)

    # Two opens on A: the node's aggregate goes with the last one only.
    f1 = a.open("four.txt", R, SR)
    f2 = a2.open("four.txt", R, SR | SW)
    check("A: two read opens of four.txt, one denying writing",
          opened(f1) and opened(f2))
    if opened(f1) and opened(f2):
        a2.close(f2)
        expect_violation("B: write open of four.txt while A's other open denies writing",
                         b, "four.txt", R | W, SR | SW)
        a.close(f1)
        expect_open("B: write open of four.txt after A closed both", b, "four.txt",
                    R | W, SR | SW)

    check("A: 200 CREATE + CLOSE pairs of lat.txt (its latencies)",
          create_close_latency(a, a2, "lat.txt"), "an open failed")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def create_close_latency(a, a2, path, n=100):
    """CREATE + CLOSE through one node: the slow path (the node's first
    open and last close of the file: in cluster mode a read and a guarded
    write in RADOS, then a write), and the fast path (another open of a
    file the node has open with the same access and sharing: no round
    trip).  a and a2: two connections to the node.  True when every
    open succeeded."""
    def run():
        took = []
        for _ in range(n):
            t = time.perf_counter()
            f = a.open(path, R, SR | SW)
            if not opened(f):
                return None
            a.close(f)
            took.append(time.perf_counter() - t)
        return statistics.median(took) * 1000
    slow = run()
    held = a2.open(path, R, SR | SW)
    if slow is None or not opened(held):
        return False
    fast = run()
    a2.close(held)
    if fast is None:
        return False
    print("latency CREATE+CLOSE, node's first open and last close: median %.2f ms"
          % slow)
    print("latency CREATE+CLOSE, node holds an open already: median %.2f ms"
          % fast)
    return True


def latency(port, share):
    """The CREATE + CLOSE latencies through one node alone."""
    check("200 CREATE + CLOSE pairs of lat1.txt through the node (its latencies)",
          create_close_latency(Node("A", port, share), Node("A2", port, share),
                               "lat1.txt"), "an open failed")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def content(path, mib):
    """The bytes put writes to @path: the same for the same name."""
    return random.Random(path).randbytes(mib << 20)


def put(port, share, path, mib):
    """Write @mib MiB to @path through the node (each WRITE answered,
    then closed: acknowledged, nothing flushed)."""
    n = Node("A", port, share)
    f = n.open(path, R | W, SR | SW | SD, s3.FILE_OVERWRITE_IF)
    ok = opened(f)
    if ok:
        data = content(path, mib)
        for off in range(0, len(data), 65536):
            n.conn.writeFile(n.tid, f, data[off:off + 65536], off)
        n.close(f)
    check("A: %d MiB written to %s and closed" % (mib, path), ok,
          "" if ok else "status 0x%08x" % f)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def same(port, share, path, mib):
    """What put wrote to @path reads back the same through this node."""
    n = Node("B", port, share)
    f = n.open(path, R, SR | SW | SD, s3.FILE_OPEN)
    got = b""
    if opened(f):
        while True:
            chunk = n.conn.readFile(n.tid, f, len(got), 65536)
            if not chunk:
                break
            got += chunk
        n.close(f)
    want = content(path, mib)
    check("B: %s reads back the %d MiB node a acknowledged" % (path, mib),
          got == want, "open: status 0x%08x" % f if not opened(f) else
          "%d bytes, %d of them as written" % (len(got), sum(
              1 for a, b in zip(got, want) if a == b)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def hold(port, share, path):
    n = Node("holder", port, share)
    f = n.open(path, R, SR, s3.FILE_OVERWRITE_IF)
    if not opened(f):
        print("cannot open: 0x%08x" % f, flush=True)
        return 1
    print("HELD", flush=True)
    while True:
        time.sleep(0.5)
        try:
            n.conn.readFile(n.tid, f, 0, 1)
        except Exception as e:  # the connection went: any error
            print("DROPPED %s" % str(e).replace("\n", " ")[:80], flush=True)
            return 0


def wait(port, share, path, secs):
    """Node a was killed just now, holding @path open denying writes."""
    n = Node("B", port, share)
    t0 = time.monotonic()
    r = None
    while time.monotonic() - t0 < secs:
        r = n.open(path, R | W, SR | SW | SD)
        if opened(r):
            n.close(r)
            break
        if r != SHARING_VIOLATION:
            break
        time.sleep(1)
    took = time.monotonic() - t0
    why = ""
    if not opened(r):
        why = "no try" if r is None else "status 0x%08x after %.1f s" % (r, took)
    check("B: the dead node's share mode on %s is gone within %d s (took %.1f s)"
          % (path, secs, took), opened(r), why)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if opened(r) else 1


def refused(port, share):
    """A fenced node: its share is refused, at the tree connect, or at the
    logon already when its daemon is stopped (nobody answers logons)."""
    conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=port, timeout=60)
    r = None
    step = "logon"
    try:
        conn.login("", "")
        step = "tree connect"
        conn.connectTree(share)
    except SessionError as e:
        r = e.getErrorCode()
    ok = (step == "tree connect" and r == BAD_NETWORK_NAME) or \
        (step == "logon" and r == NO_LOGON_SERVERS)
    check("a fenced node refuses %s (at the %s: %s)"
          % (share, step, "worked" if r is None else "0x%08x" % r),
          ok, "it worked" if r is None else "status 0x%08x" % r)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def serves(port, share, path):
    n = Node("A", port, share)
    r = n.open(path, R | W, SR | SW | SD)
    if opened(r):
        n.close(r)
    check("the node serves %s again (a write open of %s)" % (share, path),
          opened(r), "" if opened(r) else "status 0x%08x" % r)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def probe(port, share, path):
    """While node a is alive: B's write open must fail."""
    n = Node("B", port, share)
    expect_violation("B: write open of %s while a client of A holds it denying writes"
                     % path, n, path, R | W, SR | SW | SD)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    cli.run({"hold": (hold, int, str, str),
             "refused": (refused, int, str),
             "serves": (serves, int, str, str),
             "probe": (probe, int, str, str),
             "wait": (wait, int, str, str, int),
             "latency": (latency, int, str),
             "put": (put, int, str, str, int),
             "same": (same, int, str, str, int)}, main)
