#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Delete on close and rename across two cluster nodes: raw SMB2 CREATE,
SET_INFO and CLOSE through one connection to each node, both serving the
same CephFS directory as the same share.  Prints "PASS text" or "FAIL
text: why" per check (t_checks).

    delete.py PORT_A PORT_B SHARE LEASE_SHARE
    delete.py hold PORT SHARE FILE        open FILE for delete sharing all,
                                          set its disposition, print HELD,
                                          keep it open
    delete.py pending PORT SHARE FILE     an open of FILE must fail with
                                          DELETE_PENDING
    delete.py wait PORT SHARE FILE SECS   open FILE until it works (the node
                                          holding its deletion was reaped:
                                          the name stays); PASS with the time

Each case asserts the exact NTSTATUS and whether the name exists after,
with the two opens on different nodes, in both directions where the
roles differ: what one node does (host/files.py's g_share and the
smbtorture smb2.delete-on-close-perms, smb2.rename cases it mirrors).
LEASE_SHARE (the same directory with leases) is for the handle-caching
breaks a delete and a rename send to the other node's holders."""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "host"))
import cli  # noqa: E402
import files  # noqa: E402
from files import (DELETE, DELETE_ON_CLOSE, DIRECTORY_FILE,  # noqa: E402
                   OPEN, OPEN_IF, OVERWRITE_IF, READ_ATTRIBUTES, READ_DATA,
                   SH_ALL, SH_R, SH_W, ST, WRITE_DATA, Client, check,
                   check_st)
from leases import LH, LR, ack_lease, break_note, open_cached  # noqa: E402

FILE_DISPOSITION_INFO, FILE_STANDARD_INFO = 13, 5
R = READ_DATA | READ_ATTRIBUTES
RW = R | WRITE_DATA


def make(c, fname):
    r = c.create(fname, access=RW, share=SH_ALL, disp=OVERWRITE_IF)
    if r.status == 0:
        c.close(r.fid)
    return r.status


def status_of_open(c, fname, access=R, share=SH_ALL):
    """A data open of @fname (closed again): its status."""
    r = c.create(fname, access=access, share=share, disp=OPEN)
    if r.status == 0:
        c.close(r.fid)
    return r.status


def exists(c, fname):
    return status_of_open(c, fname) == 0


def dispose(c, fid, on):
    return c.setinfo(fid, FILE_DISPOSITION_INFO, bytes([1 if on else 0]))


def delete_pending_flag(c, fid):
    st, d = c.queryinfo(fid, FILE_STANDARD_INFO, 24)
    return d[20] if st == 0 and len(d) >= 22 else None


def doc_close_first(x, y, X, Y):
    """@x's delete-on-close handle closes first while @y holds the file."""
    f = "doc-%s.txt" % X
    check_st("%s: create %s" % (X, f), make(x, f), "SUCCESS")
    h = y.create(f, access=R, share=SH_ALL, disp=OPEN)
    check_st("%s: open %s sharing delete" % (Y, f), h.status, "SUCCESS")
    d = x.create(f, access=DELETE | READ_ATTRIBUTES, share=SH_ALL, disp=OPEN,
                 options=DELETE_ON_CLOSE)
    check_st("%s: open %s with FILE_DELETE_ON_CLOSE while %s has it open "
             "sharing delete" % (X, f, Y), d.status, "SUCCESS")
    if h.status or d.status:
        return
    check_st("%s: its delete-on-close handle closes" % X, x.close(d.fid)[0],
             "SUCCESS")
    check("%s: %s still exists while %s has it open" % (Y, f, X), True)
    check_st("%s: a new open of %s -> DELETE_PENDING" % (X, f),
             status_of_open(x, f), "DELETE_PENDING")
    check_st("%s: a new open of %s -> DELETE_PENDING (told by %s)" % (Y, f, X),
             status_of_open(y, f), "DELETE_PENDING")
    flag = delete_pending_flag(y, h.fid)
    check("%s: its handle's FileStandardInformation says DeletePending"
          % Y, flag == 1, "got %r" % flag)
    check_st("%s: the last open closes" % Y, y.close(h.fid)[0], "SUCCESS")
    check_st("%s: %s is gone after %s's last close" % (X, f, Y),
             status_of_open(x, f), "OBJECT_NAME_NOT_FOUND")
    check_st("%s: %s is gone" % (Y, f), status_of_open(y, f),
             "OBJECT_NAME_NOT_FOUND")


def disposition_set_last(x, y, X, Y):
    """@x sets the disposition while @y has the file open; @y closes
    first, @x's close (the last) removes it."""
    f = "disp-%s.txt" % X
    check_st("%s: create %s" % (X, f), make(x, f), "SUCCESS")
    h = y.create(f, access=R, share=SH_ALL, disp=OPEN)
    d = x.create(f, access=DELETE | R, share=SH_ALL, disp=OPEN)
    check_st("%s: open %s for delete while %s has it open" % (X, f, Y),
             d.status, "SUCCESS")
    if h.status or d.status:
        return
    check_st("%s: FileDispositionInformation DeletePending=1" % X,
             dispose(x, d.fid, True), "SUCCESS")
    check_st("%s: a new open of %s -> DELETE_PENDING" % (Y, f),
             status_of_open(y, f), "DELETE_PENDING")
    check_st("%s: a new open of %s -> DELETE_PENDING" % (X, f),
             status_of_open(x, f), "DELETE_PENDING")
    check_st("%s: closes its open" % Y, y.close(h.fid)[0], "SUCCESS")
    check_st("%s: %s still pending deletion while %s has it open" % (Y, f, X),
             status_of_open(y, f), "DELETE_PENDING")
    check_st("%s: closes the last open" % X, x.close(d.fid)[0], "SUCCESS")
    check_st("%s: %s is gone" % (Y, f), status_of_open(y, f),
             "OBJECT_NAME_NOT_FOUND")
    check_st("%s: %s is gone" % (X, f), status_of_open(x, f),
             "OBJECT_NAME_NOT_FOUND")


def disposition_cleared(x, y, X, Y):
    """@x sets the disposition, @y clears it through its own handle: the
    file stays and opens work again on both nodes."""
    f = "undo-%s.txt" % X
    check_st("%s: create %s" % (X, f), make(x, f), "SUCCESS")
    h = y.create(f, access=DELETE | R, share=SH_ALL, disp=OPEN)
    d = x.create(f, access=DELETE | R, share=SH_ALL, disp=OPEN)
    if h.status or d.status:
        check("%s, %s: open %s for delete" % (X, Y, f), False,
              "%s, %s" % (files.name(h.status), files.name(d.status)))
        return
    check_st("%s: DeletePending=1" % X, dispose(x, d.fid, True), "SUCCESS")
    check_st("%s: a new open of %s -> DELETE_PENDING" % (Y, f),
             status_of_open(y, f), "DELETE_PENDING")
    check_st("%s: DeletePending=0 through its own handle" % Y,
             dispose(y, h.fid, False), "SUCCESS")
    check_st("%s: a new open of %s succeeds again" % (X, f),
             status_of_open(x, f), "SUCCESS")
    check_st("%s: a new open of %s succeeds again" % (Y, f),
             status_of_open(y, f), "SUCCESS")
    x.close(d.fid)
    y.close(h.fid)
    check("%s: %s exists after both closed" % (X, f), exists(x, f),
          "status %s" % files.name(status_of_open(x, f)))
    check("%s: %s exists after both closed" % (Y, f), exists(y, f))
    # Cleared on the setter's node, closed in the other order.
    h = y.create(f, access=R, share=SH_ALL, disp=OPEN)
    d = x.create(f, access=DELETE | R, share=SH_ALL, disp=OPEN)
    if h.status or d.status:
        return
    dispose(x, d.fid, True)
    check_st("%s: DeletePending=0 on the node that set it" % X,
             dispose(x, d.fid, False), "SUCCESS")
    check_st("%s: a new open of %s succeeds" % (Y, f),
             status_of_open(y, f), "SUCCESS")
    y.close(h.fid)
    x.close(d.fid)
    check("%s: %s exists after both closed" % (Y, f), exists(y, f))


def delete_needs_share_delete(x, y, X, Y):
    f = "nosd-%s.txt" % X
    make(x, f)
    h = y.create(f, access=R, share=SH_R | SH_W, disp=OPEN)
    check_st("%s: open %s not sharing delete" % (Y, f), h.status, "SUCCESS")
    d = x.create(f, access=DELETE, share=SH_ALL, disp=OPEN,
                 options=DELETE_ON_CLOSE)
    check_st("%s: a delete-on-close open of %s -> SHARING_VIOLATION" % (X, f),
             d.status, "SHARING_VIOLATION")
    if d.status == 0:
        x.close(d.fid)
    if h.status == 0:
        y.close(h.fid)
    check("%s: %s still exists" % (Y, f), exists(y, f))


def rename_source(x, y, X, Y):
    f, g = "src-%s.txt" % X, "moved-%s.txt" % X
    make(x, f)
    h = y.create(f, access=R, share=SH_R | SH_W, disp=OPEN)
    d = x.create(f, access=DELETE | READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
    check_st("%s: an open of %s for delete (to rename it) while %s has it "
             "open not sharing delete -> SHARING_VIOLATION" % (X, f, Y),
             d.status, "SHARING_VIOLATION")
    if d.status == 0:
        x.close(d.fid)
    if h.status == 0:
        y.close(h.fid)
    h = y.create(f, access=R, share=SH_ALL, disp=OPEN)
    d = x.create(f, access=DELETE | READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
    if h.status or d.status:
        check("%s: open %s sharing delete" % (X, f), False)
        return
    check_st("%s: renames %s while %s has it open sharing delete" % (X, f, Y),
             x.rename(d.fid, g), "SUCCESS")
    x.close(d.fid)
    st, _ = y.read(h.fid, 0, 1)
    check_st("%s: its handle still reads the renamed file" % Y, st,
             "END_OF_FILE")
    y.close(h.fid)
    check_st("%s: %s is gone" % (Y, f), status_of_open(y, f),
             "OBJECT_NAME_NOT_FOUND")
    check("%s: %s exists" % (Y, g), exists(y, g))


def rename_replace(x, y, X, Y):
    f, t = "rsrc-%s.txt" % X, "rdst-%s.txt" % X
    make(x, f)
    make(x, t)
    h = y.create(t, access=R, share=SH_ALL, disp=OPEN)
    d = x.create(f, access=DELETE | READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
    if h.status or d.status:
        check("%s: open %s, %s: open %s" % (Y, t, X, f), False)
        return
    check_st("%s: renaming %s over %s, open on %s -> ACCESS_DENIED"
             % (X, f, t, Y), x.rename(d.fid, t, replace=True),
             "ACCESS_DENIED")
    check("%s: %s and %s both still exist" % (Y, f, t),
          exists(y, f) and exists(y, t))
    y.close(h.fid)
    check_st("%s: once %s closed it, the rename replaces %s" % (X, Y, t),
             x.rename(d.fid, t, replace=True), "SUCCESS")
    x.close(d.fid)
    check_st("%s: %s is gone" % (Y, f), status_of_open(y, f),
             "OBJECT_NAME_NOT_FOUND")
    check("%s: %s exists" % (Y, t), exists(y, t))


def rename_dir(x, y, X, Y):
    """@x renames a directory while @y has a file below it open: refused
    as on one node, then done once @y closed it."""
    dn, moved = "dir-%s" % X, "dir-%s-moved" % X
    d = x.create(dn, access=READ_ATTRIBUTES, share=SH_ALL, disp=OPEN_IF,
                 options=DIRECTORY_FILE)
    check_st("%s: create directory %s" % (X, dn), d.status, "SUCCESS")
    if d.status:
        return
    x.close(d.fid)
    h = y.create(dn + "\\in.txt", access=RW, share=SH_ALL, disp=OVERWRITE_IF)
    check_st("%s: create %s\\in.txt and keep it open" % (Y, dn), h.status,
             "SUCCESS")
    d = x.create(dn, access=DELETE | READ_ATTRIBUTES, share=SH_ALL,
                 disp=OPEN, options=DIRECTORY_FILE)
    check_st("%s: open directory %s for delete" % (X, dn), d.status,
             "SUCCESS")
    if d.status:
        if h.status == 0:
            y.close(h.fid)
        return
    if h.status == 0:
        check_st("%s: renaming %s with a file below it open on %s -> "
                 "ACCESS_DENIED" % (X, dn, Y), x.rename(d.fid, moved),
                 "ACCESS_DENIED")
        check("%s: %s\\in.txt still there" % (X, dn),
              exists(x, dn + "\\in.txt"))
        y.close(h.fid)
    check_st("%s: once %s closed it, the rename succeeds" % (X, Y),
             x.rename(d.fid, moved), "SUCCESS")
    x.close(d.fid)
    check("%s: %s\\in.txt is there" % (Y, moved), exists(y, moved + "\\in.txt"))
    x.rm(moved + "\\in.txt")
    x.rm(moved, directory=True)


def doc_alone(x, X):
    f = "alone-%s.txt" % X
    d = x.create(f, access=DELETE | RW, share=SH_ALL, disp=OVERWRITE_IF,
                 options=DELETE_ON_CLOSE)
    check_st("%s: create %s with FILE_DELETE_ON_CLOSE" % (X, f), d.status,
             "SUCCESS")
    if d.status == 0:
        x.close(d.fid)
    check_st("%s: %s is gone after its only close" % (X, f),
             status_of_open(x, f), "OBJECT_NAME_NOT_FOUND")


def handle_break(x, y, X, Y, what, key):
    """@y holds an RH lease; @x deletes (disposition) or renames the file:
    @y's holder is told to give up handle caching (RH -> R)."""
    f = "hb-%s-%s.txt" % (what, X)
    make(x, f)
    h = open_cached(y, f, access=R, lease=LR | LH, key=key)
    check("%s: RH lease on %s" % (Y, f), h.status == 0 and h.lease == LR | LH,
          "status %s, lease %r" % (files.name(h.status), h.lease))
    if h.status:
        return
    d = x.create(f, access=DELETE | READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
    check_st("%s: open %s for delete" % (X, f), d.status, "SUCCESS")
    if d.status == 0:
        st = (dispose(x, d.fid, True) if what == "delete" else
              x.rename(d.fid, "hb-moved-%s.txt" % X))
        check_st("%s: %s %s" % (X, what, f), st, "SUCCESS")
        note = break_note(y, 15)
        check("%s: %s's %s breaks its lease RH -> R" % (Y, X, what),
              note is not None and note[0] == "lease" and note[2] == LR,
              "got %r" % (note,))
        if note:
            ack_lease(y, key, LR)
        x.close(d.fid)
    y.close(h.fid)
    if what == "rename":
        x.rm("hb-moved-%s.txt" % X)
    check_st("%s: %s is gone" % (X, f), status_of_open(x, f),
             "OBJECT_NAME_NOT_FOUND")


def main():
    port_a, port_b, share, lshare = (int(sys.argv[1]), int(sys.argv[2]),
                                     sys.argv[3], sys.argv[4])
    a, b = Client(port_a, share), Client(port_b, share)
    for x, y, X, Y in ((a, b, "A", "B"), (b, a, "B", "A")):
        doc_close_first(x, y, X, Y)
        disposition_set_last(x, y, X, Y)
        disposition_cleared(x, y, X, Y)
        delete_needs_share_delete(x, y, X, Y)
        rename_source(x, y, X, Y)
        rename_replace(x, y, X, Y)
        rename_dir(x, y, X, Y)
        doc_alone(x, X)
    la, lb = Client(port_a, lshare), Client(port_b, lshare)
    for i, what in enumerate(("delete", "rename")):
        handle_break(la, lb, "A", "B", what, 40 + i)
        handle_break(lb, la, "B", "A", what, 42 + i)
    return 1 if files.failed else 0


def hold(port, share, fname):
    c = Client(port, share)
    d = c.create(fname, access=DELETE | RW, share=SH_ALL, disp=OVERWRITE_IF)
    if d.status or dispose(c, d.fid, True):
        print("cannot open %s and set its disposition" % fname, flush=True)
        return 1
    print("HELD", flush=True)
    while True:
        time.sleep(60)


def pending(port, share, fname):
    check_st("B: an open of %s while A's client holds its deletion -> "
             "DELETE_PENDING" % fname, status_of_open(Client(port, share),
                                                      fname),
             "DELETE_PENDING")
    return 1 if files.failed else 0


def wait(port, share, fname, secs):
    """The node holding @fname's deletion (its only open) was killed just
    now: once reaped, the deletion goes with its open and the name stays."""
    c = Client(port, share)
    t0 = time.monotonic()
    st = None
    while time.monotonic() - t0 < secs:
        st = status_of_open(c, fname)
        if st != ST["DELETE_PENDING"]:
            break
        time.sleep(1)
    check_st("B: %s opens again once the node holding its deletion was "
             "reaped (%.1f s), the name kept" % (fname, time.monotonic() - t0),
             st, "SUCCESS")
    return 1 if files.failed else 0


if __name__ == "__main__":
    cli.run({"hold": (hold, int, str, str),
             "pending": (pending, int, str, str),
             "wait": (wait, int, str, str, int)}, main)
