#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Previous versions (vfs objects = shadow_copy2) through impacket and raw
SMB2 PDUs.  Prints "PASS text" or "FAIL text: why" per check (t_checks in
lib.sh turns them into TAP).

    snap.py PORT SHARE USER PASSWORD list TOKEN...
    snap.py PORT SHARE USER PASSWORD versions OLD MID NONE

"list": FSCTL_SRV_ENUMERATE_SNAPSHOTS with its two calls (the counts and
the size first, then the tokens) must name exactly TOKEN..., in that
order.  "versions": the share's snapshot OLD holds file.txt "v1",
sub/inner.txt "inner1" and deleted.txt "gone"; MID holds file.txt "v2"
and no deleted.txt; the live share has file.txt "v3"; NONE is a time
without a snapshot.  Opens through the TWrp context and through @GMT
components anywhere in the path read the old data; nothing in a
snapshot can be written, and no token, "..", or link leads out of it."""

import os
import struct
import sys
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from file3 import ioctl  # noqa: E402
from files import (CREATE_D, DELETE, DELETE_ON_CLOSE, DIRECTORY_FILE,  # noqa
                   OPEN, OPEN_IF, OVERWRITE, OVERWRITE_IF, READ_ATTRIBUTES,
                   READ_DATA, SH_ALL, SUPERSEDE, WRITE_DATA, Client, check,
                   check_st)

ENUMERATE_SNAPSHOTS = 0x00144064
files.ST.update({
    "MEDIA_WRITE_PROTECTED": 0xC00000A2,
    "NOT_SAME_DEVICE": 0xC00000D4,
})
FILE_DISPOSITION_INFO, FILE_EOF_INFO, FILE_LINK_INFO = 13, 20, 11


def filetime(token):
    t = datetime.strptime(token, "@GMT-%Y.%m.%d-%H.%M.%S")
    secs = int(t.replace(tzinfo=timezone.utc).timestamp())
    return (secs + 11644473600) * 10000000


def twrp(token):
    return [(b"TWrp", struct.pack("<Q", filetime(token)))]


def read_name(c, name, ctxs=None):
    """Open @name for reading (with contexts); (status, data)."""
    r = c.create(name, access=READ_DATA | READ_ATTRIBUTES, disp=OPEN,
                 ctxs=ctxs)
    if r.status:
        return r.status, b""
    st, d = c.read(r.fid, 0, 4096)
    c.close(r.fid)
    if st == files.ST["END_OF_FILE"]:
        st = 0
    return st, d


def enumerate(c, max_out):
    r = c.create("", access=READ_DATA | READ_ATTRIBUTES, disp=OPEN,
                 options=DIRECTORY_FILE)
    if r.status:
        return r.status, b""
    st, d = ioctl(c, r.fid, ENUMERATE_SNAPSHOTS, max_out=max_out)
    c.close(r.fid)
    return st, d


def g_list(c, want):
    n = len(want)
    size = 50 * n + 2
    st, d = enumerate(c, 16)
    check_st("ENUMERATE_SNAPSHOTS with room for the counts", st, "SUCCESS")
    if st == 0:
        got = struct.unpack_from("<III", d) if len(d) >= 12 else ()
        check("... NumberOfSnapShots %d, none returned, SnapShotArraySize %d"
              % (n, size), got == (n, 0, size) and len(d) in (14, 16),
              "%r, %d bytes" % (got, len(d)))
    st, d = enumerate(c, 12 + size - 1)
    check("one byte short of the array: the counts alone",
          st == 0 and struct.unpack_from("<III", d) == (n, 0, size),
          "%s %r" % (files.name(st), d[:12]))
    st, d = enumerate(c, 12 + size)
    check_st("ENUMERATE_SNAPSHOTS with room for all", st, "SUCCESS")
    if st == 0 and len(d) >= 12:
        counts = struct.unpack_from("<III", d)
        names = d[12:12 + size].decode("utf-16-le").split("\0")
        check("... NumberOfSnapShots = NumberOfSnapShotsReturned = %d" % n,
              counts == (n, n, size), repr(counts))
        check("... the tokens, in order: " + " ".join(want),
              names[:n] == want and names[n:] == ["", ""] and
              len(d) == 12 + size, repr(names))
    st, d = enumerate(c, 15)
    check_st("MaxOutputResponse under 16 bytes", st, "INVALID_PARAMETER")


def g_versions(c, old, mid, none):
    # Through the TWrp context (what Windows, smbclient and cifs send).
    check("live file.txt is v3", read_name(c, "file.txt") == (0, b"v3\n"),
          repr(read_name(c, "file.txt")))
    for tok, want in ((old, b"v1\n"), (mid, b"v2\n")):
        got = read_name(c, "file.txt", twrp(tok))
        check("TWrp %s: file.txt reads %r" % (tok, want), got == (0, want),
              repr(got))
    got = read_name(c, "deleted.txt", twrp(old))
    check("TWrp %s: the deleted file reads back" % old, got == (0, b"gone\n"),
          repr(got))
    check_st("... and is not in %s" % mid,
             read_name(c, "deleted.txt", twrp(mid))[0],
             "OBJECT_NAME_NOT_FOUND")
    check_st("... nor in the live share", read_name(c, "deleted.txt")[0],
             "OBJECT_NAME_NOT_FOUND")
    got = read_name(c, "sub\\inner.txt", twrp(old))
    check("TWrp: sub\\inner.txt reads inner1", got == (0, b"inner1\n"),
          repr(got))
    r = c.create("", access=READ_DATA, disp=OPEN, options=DIRECTORY_FILE,
                 ctxs=twrp(old))
    check_st("TWrp: the share root of the snapshot opens", r.status,
             "SUCCESS")
    if r.status == 0:
        c.close(r.fid)

    # @GMT components wherever a client puts them.
    for name in (old + "\\file.txt", "sub\\" + old + "\\inner.txt",
                 "sub\\inner.txt\\" + old):
        want = b"inner1\n" if "inner" in name else b"v1\n"
        got = read_name(c, name)
        check("path %s reads %r" % (name, want), got == (0, want), repr(got))
    got = read_name(c, old + "\\deleted.txt")
    check("path token: the deleted file reads back", got == (0, b"gone\n"),
          repr(got))
    # A TWrp context wins over a token in the path (Samba's rule).
    got = read_name(c, old + "\\file.txt", twrp(mid))
    check("TWrp %s with %s in the path reads v2" % (mid, old),
          got == (0, b"v2\n"), repr(got))
    names = [f.get_longname() for f in
             c.conn.listPath(c.share, old + "\\*")]
    check("a listing of %s\\* has deleted.txt and file.txt" % old,
          "deleted.txt" in names and "file.txt" in names, repr(names))

    # A snapshot that is not there; tokens that are none.
    check_st("TWrp %s (no such snapshot): file.txt" % none,
             read_name(c, "file.txt", twrp(none))[0], "OBJECT_NAME_NOT_FOUND")
    check_st("TWrp %s: sub\\inner.txt" % none,
             read_name(c, "sub\\inner.txt", twrp(none))[0],
             "OBJECT_NAME_NOT_FOUND")
    check_st("path %s\\file.txt" % none,
             read_name(c, none + "\\file.txt")[0], "OBJECT_NAME_NOT_FOUND")
    for bad in ("@GMT-2024.13.02-03.04.05", "@GMT-2024.02.30-00.00.00",
                old + "x", old[:-1], "@GMT-" + old[5:].replace(".", "/", 1),
                "@gmt-" + old[5:]):
        check_st("crafted token %s: an ordinary name, not found" % bad,
                 read_name(c, bad + "\\file.txt")[0], "OBJECT_PATH_NOT_FOUND")
    check_st("TWrp of 7 bytes refused",
             read_name(c, "file.txt", [(b"TWrp", b"\1" * 7)])[0],
             "INVALID_PARAMETER")
    # A time no snapshot can have: none of it, as Samba answers (and
    # smbtorture's smb2.create.blob, whose TWrp is 8 bytes of "TWRP").
    for data in (struct.pack("<Q", 1), struct.pack("<Q", 2**64 - 1),
                 b"TWRP\0\0\0\0"):
        check_st("TWrp %s: no such snapshot" % data.hex(),
                 read_name(c, "file.txt", [(b"TWrp", data)])[0],
                 "OBJECT_NAME_NOT_FOUND")

    # Nothing leads out of the snapshot.
    for name in (old + "\\..\\file.txt", old + "\\sub\\..\\..\\secret.txt",
                 "sub\\" + old + "\\..\\..\\secret.txt"):
        check_st("path %s refused" % name, read_name(c, name)[0],
                 "OBJECT_PATH_SYNTAX_BAD")
    check_st("TWrp: ..\\secret.txt refused",
             read_name(c, "..\\secret.txt", twrp(old))[0],
             "OBJECT_PATH_SYNTAX_BAD")
    r = c.create(old + "\\escape", access=READ_DATA, disp=OPEN)
    check("a symlink in the snapshot out of it is not followed",
          r.status in (files.ST["STOPPED_ON_SYMLINK"],
                       files.ST["OBJECT_NAME_NOT_FOUND"]),
          files.name(r.status))

    # Read-only, as Samba's shadow_copy2: granted, never written.
    r = c.create("file.txt", access=READ_DATA | WRITE_DATA | DELETE,
                 disp=OPEN, ctxs=twrp(old))
    check_st("open for writing in a snapshot (Samba grants it)", r.status,
             "SUCCESS")
    if r.status == 0:
        st, _ = c.write(r.fid, 0, b"overwritten")
        check_st("... WRITE", st, "MEDIA_WRITE_PROTECTED")
        check_st("... set end of file", c.setinfo(
            r.fid, FILE_EOF_INFO, struct.pack("<Q", 0)),
            "MEDIA_WRITE_PROTECTED")
        check_st("... delete on close", c.setinfo(
            r.fid, FILE_DISPOSITION_INFO, b"\1"), "MEDIA_WRITE_PROTECTED")
        check_st("... set attributes", c.set_attrs(r.fid, 0x2),
                 "MEDIA_WRITE_PROTECTED")
        check_st("... rename", c.rename(r.fid, "renamed.txt"),
                 "NOT_SAME_DEVICE")
        n = "linked.txt".encode("utf-16-le")
        check_st("... hard link", c.setinfo(
            r.fid, FILE_LINK_INFO, struct.pack("<B7xQI", 0, 0, len(n)) + n),
            "NOT_SAME_DEVICE")
        c.close(r.fid)
    for disp, dname in ((OVERWRITE, "OVERWRITE"),
                        (OVERWRITE_IF, "OVERWRITE_IF"),
                        (SUPERSEDE, "SUPERSEDE")):
        check_st("%s of file.txt in a snapshot" % dname,
                 c.create("file.txt", access=READ_DATA, disp=disp,
                          ctxs=twrp(old)).status, "MEDIA_WRITE_PROTECTED")
    check_st("DELETE_ON_CLOSE of file.txt in a snapshot",
             c.create("file.txt", access=READ_DATA | DELETE, disp=OPEN,
                      options=DELETE_ON_CLOSE, ctxs=twrp(old)).status,
             "MEDIA_WRITE_PROTECTED")
    for disp, dname in ((OPEN_IF, "OPEN_IF"), (CREATE_D, "CREATE")):
        check_st("%s of a new file in a snapshot" % dname,
                 c.create("new.txt", access=READ_DATA, disp=disp,
                          ctxs=twrp(old)).status, "MEDIA_WRITE_PROTECTED")
        check_st("%s of a new file through a path token" % dname,
                 c.create(old + "\\new2.txt", access=READ_DATA,
                          disp=disp).status, "MEDIA_WRITE_PROTECTED")
    check_st("CREATE of a directory in a snapshot",
             c.create("newdir", access=READ_DATA, disp=CREATE_D,
                      options=DIRECTORY_FILE, ctxs=twrp(old)).status,
             "MEDIA_WRITE_PROTECTED")
    got = read_name(c, "file.txt", twrp(old))
    check("file.txt of %s still reads v1" % old, got == (0, b"v1\n"),
          repr(got))
    check("the live file.txt still reads v3",
          read_name(c, "file.txt") == (0, b"v3\n"))


def main():
    port, share, user, pw, group = sys.argv[1:6]
    args = sys.argv[6:]
    c = Client(int(port), share, user, pw)
    c.share = share
    if group == "list":
        g_list(c, args)
    elif group == "versions":
        g_versions(c, *args)
    else:
        print("FAIL unknown group " + group)
        return 1
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
