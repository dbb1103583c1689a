#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Access on shares without NT ACLs, through impacket and raw SMB2 PDUs:
what the owner of a new file, directory and stream may do with it, and
what another user may, under the share's create mask, force create mode,
directory mask, force directory mode or inherit permissions.  Prints
"PASS text" or "FAIL text: why" per check (t_checks in lib.sh).

    shares.py PORT SHARE owner USER PASSWORD DIR
    shares.py PORT SHARE other USER PASSWORD DIR R W DIRW

"owner" makes f (with data), f:s and d/ in DIR ("" for the share
root), then reopens them the ways
smbtorture and Windows clients do (SEC_RIGHTS_FILE_ALL, GENERIC_ALL,
GENERIC_EXECUTE, MAXIMUM_ALLOWED): a file's x bit never stands in the
way (design.md, "Access").  "other" is a second user, who may read f and
f:s when R is 1, write them when W is 1, and create in d/ when DIRW is
1, and is never granted WRITE_DAC.  "limit" holds MAX tree connects to
SHARE (a share with `max connections = MAX`) from as many connections
and sessions, checks that one more is refused as Windows refuses a share
past its user limit (STATUS_REQUEST_NOT_ACCEPTED) and that a tree
disconnect makes room again."""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from impacket.smbconnection import SMBConnection, SessionError  # noqa
from files import (CREATE_D, DIRECTORY_FILE, EXECUTE,  # noqa: E402
                   FULL, GENERIC_ALL, GENERIC_READ, MAXIMUM_ALLOWED,
                   NON_DIRECTORY_FILE, OPEN, READ_ATTRIBUTES, READ_DATA,
                   READ_EA, SH_ALL, WRITE_DATA, Client, check, check_st, ctx)

GENERIC_EXECUTE, GENERIC_WRITE = 0x20000000, 0x40000000
WRITE_DAC, WRITE_OWNER = 0x40000, 0x80000
APPEND_DATA, WRITE_EA = 0x4, 0x10
PREFIX = ""  # DIR\\, where the objects are


def mxac(r):
    """The MxAc answer of a CREATE response: (status, mask)."""
    d = r.ctxs.get(b"MxAc", b"")
    if len(d) < 8:
        return None, 0
    return struct.unpack("<II", d[:8])


def opens(c, text, name, access, want, options=0):
    r = c.create(PREFIX + name, access=access, share=SH_ALL, disp=OPEN,
                 options=options)
    check_st(text, r.status, want)
    if r.status == 0:
        c.close(r.fid)
    return r


def g_owner(c):
    r = c.create(PREFIX + "f", access=FULL, disp=CREATE_D,
                 options=NON_DIRECTORY_FILE)
    check_st("owner creates f asking for SEC_RIGHTS_FILE_ALL", r.status,
             "SUCCESS")
    if r.status:
        return
    st, _ = c.write(r.fid, 0, b"data of f")
    check_st("... and writes it", st, "SUCCESS")
    c.close(r.fid)
    r = c.create(PREFIX + "d", access=FULL, disp=CREATE_D,
                 options=DIRECTORY_FILE)
    check_st("owner creates d/ asking for SEC_RIGHTS_FILE_ALL", r.status,
             "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    r = c.create(PREFIX + "f:s", access=FULL, disp=CREATE_D)
    check_st("owner creates the stream f:s", r.status, "SUCCESS")
    if r.status == 0:
        c.write(r.fid, 0, b"data of f:s")
        c.close(r.fid)

    for what, access in (("SEC_RIGHTS_FILE_ALL", FULL),
                         ("GENERIC_ALL", GENERIC_ALL),
                         ("GENERIC_EXECUTE", GENERIC_EXECUTE),
                         ("GENERIC_READ|GENERIC_WRITE",
                          GENERIC_READ | GENERIC_WRITE),
                         ("EXECUTE", EXECUTE),
                         ("WRITE_DAC|WRITE_OWNER", WRITE_DAC | WRITE_OWNER)):
        opens(c, "owner reopens f for %s" % what, "f", access, "SUCCESS")
        opens(c, "owner reopens f:s for %s" % what, "f:s", access,
              "SUCCESS")
    opens(c, "owner reopens d/ for SEC_RIGHTS_FILE_ALL", "d", FULL,
          "SUCCESS", DIRECTORY_FILE)
    opens(c, "owner reopens d/ for GENERIC_ALL", "d", GENERIC_ALL,
          "SUCCESS", DIRECTORY_FILE)

    r = c.create(PREFIX + "f", access=MAXIMUM_ALLOWED, disp=OPEN,
                 ctxs=[ctx(b"MxAc")])
    check_st("owner opens f for MAXIMUM_ALLOWED", r.status, "SUCCESS")
    if r.status == 0:
        st, m = mxac(r)
        check("... its maximal access is everything on a file (%#x)" % m,
              st == 0 and m & FULL == FULL, "MxAc %s %#x" % (st, m))
        got, data = c.read(r.fid, 0, 64)
        check("... and the handle reads (EXECUTE counts as read access)",
              got == 0 and data == b"data of f", "%#x %r" % (got, data))
        c.close(r.fid)

    # A new name asked for MAXIMUM_ALLOWED: everything, as for its creator.
    r = c.create(PREFIX + "g", access=MAXIMUM_ALLOWED, disp=CREATE_D,
                 ctxs=[ctx(b"MxAc")])
    check_st("owner creates g for MAXIMUM_ALLOWED", r.status, "SUCCESS")
    if r.status == 0:
        st, m = mxac(r)
        check("... and is granted all of it (%#x)" % m,
              st == 0 and m & FULL == FULL, "MxAc %s %#x" % (st, m))
        st, _ = c.write(r.fid, 0, b"g")
        check_st("... and writes through that handle", st, "SUCCESS")
        c.close(r.fid)


def g_other(c, may_r, may_w, may_dirw):
    def want(ok):
        return "SUCCESS" if ok else "ACCESS_DENIED"

    for name in ("f", "f:s"):
        opens(c, "other user opens %s for GENERIC_READ" % name, name,
              GENERIC_READ, want(may_r))
        opens(c, "other user opens %s for EXECUTE" % name, name, EXECUTE,
              want(may_r))
        opens(c, "other user opens %s for WRITE_DATA" % name, name,
              WRITE_DATA, want(may_w))
        opens(c, "other user opens %s for READ_ATTRIBUTES" % name, name,
              READ_ATTRIBUTES, "SUCCESS")
        opens(c, "other user may not open %s for SEC_RIGHTS_FILE_ALL" % name,
              name, FULL, "ACCESS_DENIED")
        opens(c, "other user may not open %s for WRITE_DAC" % name, name,
              WRITE_DAC, "ACCESS_DENIED")
    r = c.create(PREFIX + "f", access=MAXIMUM_ALLOWED, disp=OPEN,
                 ctxs=[ctx(b"MxAc")])
    check_st("other user opens f for MAXIMUM_ALLOWED", r.status, "SUCCESS")
    if r.status == 0:
        st, m = mxac(r)
        exp = {READ_DATA: may_r, EXECUTE: may_r, READ_EA: may_r,
               WRITE_DATA: may_w, APPEND_DATA: may_w, WRITE_EA: may_w,
               WRITE_DAC: False, WRITE_OWNER: False, READ_ATTRIBUTES: True}
        bad = [b for b, on in exp.items() if bool(m & b) != on]
        check("... its maximal access follows the mode (%#x)" % m,
              st == 0 and not bad, "bits wrong: %s" %
              ", ".join("%#x" % b for b in bad))
        got, data = c.read(r.fid, 0, 64)
        check("... the handle reads%s" % ("" if may_r else " nothing"),
              (got == 0) == may_r, "%#x" % got)
        c.close(r.fid)
    r = c.create(PREFIX + "d\\other", access=FULL, disp=CREATE_D)
    check_st("other user creates d\\other", r.status, want(may_dirw))
    if r.status == 0:
        c.close(r.fid)
        c.rm(PREFIX + "d\\other")


def g_limit(port, share, user, password, most):
    held = []

    def connect():
        conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=port)
        conn.login(user, password)
        try:
            return conn, conn.connectTree(share), 0
        except SessionError as e:
            return conn, None, e.getErrorCode()

    for i in range(most):
        conn, tid, st = connect()
        check("tree connect %d of %d to %s" % (i + 1, most, share),
              tid is not None, "status %#x" % (st or 0))
        held.append((conn, tid))
    conn, tid, st = connect()
    check("one more is refused with STATUS_REQUEST_NOT_ACCEPTED",
          tid is None and st == 0xC00000D0,
          "tree %s status %#x" % (tid, st or 0))
    # Another share of the same server is not limited by this one's count.
    try:
        conn.connectTree("IPC$")
        check("... while another share still connects", True)
    except SessionError as e:
        check("... while another share still connects", False,
              "status %#x" % e.getErrorCode())
    conn.logoff()
    first, tid0 = held.pop(0)
    first.disconnectTree(tid0)
    conn, tid, st = connect()
    check("after a tree disconnect there is room again", tid is not None,
          "status %#x" % (st or 0))
    held.append((conn, tid))
    # A logoff ends the session's trees: room again.
    second, _ = held.pop(0)
    second.logoff()
    conn, tid, st = connect()
    check("after a logoff there is room again", tid is not None,
          "status %#x" % (st or 0))
    held.append((conn, tid))
    conn, tid, st = connect()
    check("... and then none", tid is None and st == 0xC00000D0,
          "tree %s status %#x" % (tid, st or 0))
    conn.logoff()
    for conn, _ in held:
        conn.logoff()


def main():
    port, share, group, user, password = sys.argv[1:6]
    if group == "limit":
        g_limit(int(port), share, user, password, int(sys.argv[6]))
        return 1 if files.failed else 0
    c = Client(int(port), share, user, password)
    global PREFIX
    PREFIX = sys.argv[6] + "\\" if sys.argv[6] else ""
    if group == "owner":
        g_owner(c)
    else:
        g_other(c, *[a == "1" for a in sys.argv[7:10]])
    c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
