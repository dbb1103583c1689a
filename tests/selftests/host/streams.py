#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Named streams (vfs objects = streams_xattr) through impacket and raw
SMB2 PDUs.  Prints "PASS text" or "FAIL text: why" per check (t_checks in
lib.sh turns them into TAP).

    streams.py PORT SHARE GROUP USER PASSWORD

GROUP "streams" runs on a share that keeps streams, "plain" on one that
does not (stream names refused as by a file system without them), and
"after-guest" checks what the guest wrote as xattrs, seen as streams.
The expectations are MS-FSA's and what smbtorture's smb2.streams shows
Windows doing."""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (CREATE_D, DELETE, DELETE_ON_CLOSE, DIRECTORY_FILE,  # noqa
                   OPEN, OPEN_IF, OVERWRITE, OVERWRITE_IF, READ_ATTRIBUTES,
                   READ_DATA, SH_ALL, SH_R, SUPERSEDE, WRITE_DATA, Client,
                   check, check_st)

QUERY_INFO, SET_INFO = 0x10, 0x11
INFO_FILE = 1
STANDARD, STREAM, ALL = 5, 22, 18
RENAME, DISPOSITION, EOF = 10, 13, 20
files.ST.update({
    "DISK_FULL": 0xC000007F,
    "BUFFER_OVERFLOW": 0x80000005,
})
CREATED, OPENED, OVERWRITTEN, SUPERSEDED = 2, 1, 3, 0
RW = READ_DATA | WRITE_DATA | READ_ATTRIBUTES


def query(c, fid, cls, out_len=65536):
    body = struct.pack("<HBBIHHIII16s", 41, INFO_FILE, cls, out_len, 0, 0,
                       0, 0, 0, fid) + b"\0"
    st, d = c.raw(QUERY_INFO, body)
    if st not in (0, files.ST["BUFFER_OVERFLOW"]):
        return st, b""
    off, ln = struct.unpack_from("<HI", d, 2)
    return st, d[off - 64:off - 64 + ln]


def set_info(c, fid, cls, buf):
    body = struct.pack("<HBBIHHI16s", 33, INFO_FILE, cls, len(buf), 96, 0, 0,
                       fid) + buf
    return c.raw(SET_INFO, body)[0]


def streams(c, fid):
    """FileStreamInformation as {name: (size, allocation)}."""
    st, d = query(c, fid, STREAM)
    out = {}
    pos = 0
    while st == 0 and pos + 24 <= len(d):
        nxt, nlen, size, alloc = struct.unpack_from("<IIQQ", d, pos)
        out[d[pos + 24:pos + 24 + nlen].decode("utf-16-le")] = (size, alloc)
        if not nxt:
            break
        pos += nxt
    return st, out


def std_info(c, fid):
    st, d = query(c, fid, STANDARD)
    if st:
        return st, None
    alloc, eof, links, pending, directory = struct.unpack_from("<QQIBB", d)
    return st, (alloc, eof, links, pending, directory)


def rename_buf(new, replace=False):
    n = new.encode("utf-16-le")
    return struct.pack("<B7sQI", 1 if replace else 0, b"", 0, len(n)) + n


def g_streams(c):
    # A stream of a file that does not exist creates the file.
    r = c.create("s.txt:one", access=RW, disp=OPEN_IF)
    check_st("create s.txt:one on a missing base", r.status, "SUCCESS")
    if r.status:
        return
    check("... reports FILE_CREATED, size 0", r.action == CREATED and
          r.eof == 0, "action %d eof %d" % (r.action, r.eof))
    base = c.create("s.txt", access=RW, disp=OPEN)
    check_st("the base file exists now", base.status, "SUCCESS")
    fid = r.fid
    data = b"stream data, not file data"
    st, n = c.write(fid, 0, data)
    check("write to the stream", st == 0 and n == len(data),
          "%s %d" % (files.name(st), n))
    st, d = c.read(fid, 0, 4096)
    check("read it back", st == 0 and d == data, "%s %r" % (files.name(st), d))
    st, d = c.read(fid, 7, 4)
    check("read at an offset", d == b"data", repr(d))
    st, d = c.read(fid, len(data), 10)
    check_st("read at the stream's end", st, "END_OF_FILE")
    st, n = c.write(fid, 100, b"tail")
    st, d = c.read(fid, 0, 4096)
    check("a write past the end fills with zeros",
          d == data + b"\0" * (100 - len(data)) + b"tail",
          "%d bytes" % len(d))
    st, d = c.read(base.fid, 0, 100)
    check_st("the file's own data is untouched (empty)", st, "END_OF_FILE")
    c.write(base.fid, 0, b"file data")

    st, info = std_info(c, fid)
    check("standard info on the stream: its size, not a directory",
          st == 0 and info[1] == 104 and info[0] >= 104 and info[4] == 0,
          repr(info))
    st, info = std_info(c, base.fid)
    check("standard info on the file: the file's size", st == 0 and
          info[1] == 9, repr(info))
    st, d = query(c, fid, ALL)
    check("all info on the stream: EndOfFile is the stream's",
          st == 0 and struct.unpack_from("<Q", d, 48)[0] == 104,
          files.name(st))

    for f, what in ((base.fid, "file"), (fid, "stream")):
        st, s = streams(c, f)
        check("stream info through the %s lists ::$DATA and :one:$DATA" %
              what, st == 0 and s.get("::$DATA", (0,))[0] == 9 and
              s.get(":one:$DATA", (0,))[0] == 104 and len(s) == 2, repr(s))

    # Names are case-insensitive, the type too.
    r2 = c.create("s.txt:ONE:$data", access=READ_DATA, disp=OPEN)
    check_st("open s.txt:ONE:$data (case differs)", r2.status, "SUCCESS")
    if r2.status == 0:
        st, d = c.read(r2.fid, 0, 26)
        check("... is the same stream", d == data, repr(d))
        c.close(r2.fid)
    r2 = c.create("s.txt::$DATA", access=READ_DATA, disp=OPEN)
    st, d = c.read(r2.fid, 0, 100) if r2.status == 0 else (r2.status, b"")
    check("s.txt::$DATA is the file's data", d == b"file data", repr(d))
    if r2.status == 0:
        c.close(r2.fid)

    # Dispositions.
    check_st("CREATE of an existing stream",
             c.create("s.txt:one", disp=CREATE_D).status,
             "OBJECT_NAME_COLLISION")
    check_st("OPEN of a missing stream",
             c.create("s.txt:nope", disp=OPEN).status,
             "OBJECT_NAME_NOT_FOUND")
    check_st("OVERWRITE of a missing stream",
             c.create("s.txt:nope", disp=OVERWRITE).status,
             "OBJECT_NAME_NOT_FOUND")
    check_st("OPEN of a stream of a missing file",
             c.create("nofile:s", disp=OPEN).status, "OBJECT_NAME_NOT_FOUND")
    r2 = c.create("s.txt:two", access=RW, disp=CREATE_D)
    check("CREATE of a new stream", r2.status == 0 and r2.action == CREATED,
          files.name(r2.status))
    if r2.status == 0:
        c.write(r2.fid, 0, b"two")
        c.close(r2.fid)
    for disp, act, what in ((OVERWRITE_IF, OVERWRITTEN, "OVERWRITE_IF"),
                            (SUPERSEDE, SUPERSEDED, "SUPERSEDE")):
        r2 = c.create("s.txt:two", access=RW, disp=disp)
        check("%s of a stream empties it" % what, r2.status == 0 and
              r2.action == act and r2.eof == 0,
              "%s action %s eof %s" % (files.name(r2.status),
                                       getattr(r2, "action", "-"),
                                       getattr(r2, "eof", "-")))
        if r2.status == 0:
            c.write(r2.fid, 0, b"two again")
            c.close(r2.fid)
    st, d = c.read(base.fid, 0, 100)
    check("overwriting streams leaves the file's data", d == b"file data",
          repr(d))
    check_st("a stream opened as a directory",
             c.create("s.txt:one", disp=OPEN, options=DIRECTORY_FILE).status,
             "NOT_A_DIRECTORY")

    # Invalid stream names.
    for n in ("s.txt:a:b", "s.txt:one:$INDEX_ALLOCATION", "s.txt:",
              "s.txt:one:", "s.txt:one:$FOO", "s.txt:a/b",
              "s.txt:" + "x" * 235):
        check_st("stream name %r" % n[:20], c.create(n).status,
                 "OBJECT_NAME_INVALID")
    check_st("a stream in the middle of a path",
             c.create("s.txt:one\\x").status, "OBJECT_NAME_INVALID")
    for n, what in (("s.txt:..", "'..'"), ("s.txt:?Str\n*", "'?Str\\n*'")):
        r2 = c.create(n, access=RW, disp=OPEN_IF)
        check_st("a stream named %s is just a name" % what, r2.status,
                 "SUCCESS")
        if r2.status == 0:
            c.close(r2.fid, 0)

    # End of file.
    check_st("SET_INFO end of file 5 on the stream",
             set_info(c, fid, EOF, struct.pack("<Q", 5)), "SUCCESS")
    st, d = c.read(fid, 0, 4096)
    check("... cuts it to 5 bytes", d == data[:5], repr(d))
    check_st("SET_INFO end of file 8", set_info(c, fid, EOF,
                                                 struct.pack("<Q", 8)),
             "SUCCESS")
    st, d = c.read(fid, 0, 4096)
    check("... grows it with zeros", d == data[:5] + b"\0\0\0", repr(d))
    st, info = std_info(c, base.fid)
    check("the file's size did not change", info and info[1] == 9,
          repr(info))

    # The largest value the file system keeps, and beyond.
    st, n = c.write(fid, 0, b"x" * 16384)
    check_st("a 16 KiB stream", st, "SUCCESS")
    st, n = c.write(fid, 65536 - 2, b"abcd")
    check_st("a write beyond 64 KiB", st, "DISK_FULL")
    st, d = c.read(fid, 0, 65536)
    check("... left the stream as it was", d == b"x" * 16384,
          "%d bytes" % len(d))

    # Sharing is per stream.
    ex = c.create("s.txt:excl", access=RW, share=0, disp=OPEN_IF)
    check_st("open s.txt:excl without sharing", ex.status, "SUCCESS")
    check_st("a second open of that stream",
             c.create("s.txt:excl", access=READ_DATA, share=SH_ALL,
                      disp=OPEN).status, "SHARING_VIOLATION")
    r2 = c.create("s.txt:one", access=READ_DATA, share=SH_ALL, disp=OPEN)
    check_st("another stream of the file opens", r2.status, "SUCCESS")
    if r2.status == 0:
        c.close(r2.fid)
    r2 = c.create("s.txt", access=READ_DATA, share=SH_ALL, disp=OPEN)
    check_st("the file itself opens", r2.status, "SUCCESS")
    if r2.status == 0:
        c.close(r2.fid)
    if ex.status == 0:
        c.close(ex.fid)

    # Deleting a stream: delete on close, and the disposition.
    r2 = c.create("s.txt:gone", access=RW | DELETE, disp=OPEN_IF,
                  options=DELETE_ON_CLOSE)
    check_st("create s.txt:gone with delete on close", r2.status, "SUCCESS")
    if r2.status == 0:
        st, s = streams(c, base.fid)
        check("... is listed while open", ":gone:$DATA" in s, repr(s))
        c.close(r2.fid)
    r2 = c.create("s.txt:excl", access=DELETE, disp=OPEN)
    if r2.status == 0:
        check_st("disposition on s.txt:excl",
                 set_info(c, r2.fid, DISPOSITION, b"\1"), "SUCCESS")
        check_st("... a new open is refused",
                 c.create("s.txt:excl", access=READ_DATA, disp=OPEN).status,
                 "DELETE_PENDING")
        c.close(r2.fid)
    st, s = streams(c, base.fid)
    check("deleted streams are gone, the others stay",
          ":gone:$DATA" not in s and ":excl:$DATA" not in s and
          ":one:$DATA" in s and ":two:$DATA" in s, repr(s))
    r2 = c.create("s.txt", access=READ_DATA, disp=OPEN)
    check_st("... and so does the file", r2.status, "SUCCESS")
    if r2.status == 0:
        c.close(r2.fid)

    # Renaming a stream.
    r2 = c.create("s.txt:two", access=RW | DELETE, disp=OPEN)
    if r2.status == 0:
        check_st("rename s.txt:two to :deux:$DATA",
                 set_info(c, r2.fid, RENAME, rename_buf(":deux:$DATA")),
                 "SUCCESS")
        st, d = c.read(r2.fid, 0, 100)
        check("... the open still reads its data", d == b"two again",
              repr(d))
        check_st("rename onto an existing stream without replace",
                 set_info(c, r2.fid, RENAME, rename_buf(":one")),
                 "OBJECT_NAME_COLLISION")
        check_st("rename to a file name",
                 set_info(c, r2.fid, RENAME, rename_buf("other.txt")),
                 "INVALID_PARAMETER")
        c.close(r2.fid)
    st, s = streams(c, base.fid)
    check("the stream has its new name", ":deux:$DATA" in s and
          ":two:$DATA" not in s and s[":deux:$DATA"][0] == 9, repr(s))

    # Streams of a directory, and of the share root.
    d = c.create("sdir", access=READ_DATA, disp=OPEN_IF,
                 options=DIRECTORY_FILE)
    r2 = c.create("sdir:ds", access=RW, disp=OPEN_IF)
    check_st("a stream of a directory", r2.status, "SUCCESS")
    if r2.status == 0:
        c.write(r2.fid, 0, b"dir stream")
        c.close(r2.fid)
    if d.status == 0:
        st, s = streams(c, d.fid)
        check("a directory lists its streams, no ::$DATA",
              st == 0 and s == {":ds:$DATA": (10, 4096)}, repr(s))
        c.close(d.fid)
    check_st("sdir::$DATA opened as a directory",
             c.create("sdir::$DATA", access=READ_DATA, disp=OPEN,
                      options=DIRECTORY_FILE).status, "NOT_A_DIRECTORY")
    check_st("sdir::$DATA opened as a file",
             c.create("sdir::$DATA", access=READ_DATA, disp=OPEN).status,
             "FILE_IS_A_DIRECTORY")
    r2 = c.create(":rootstream", access=RW, disp=OPEN_IF)
    check_st("a stream of the share root", r2.status, "SUCCESS")
    if r2.status == 0:
        c.write(r2.fid, 0, b"root")
        c.close(r2.fid)

    c.close(fid)
    c.close(base.fid)
    # Overwriting the file's data takes its streams along.
    for disp, what in ((OVERWRITE_IF, "OVERWRITE_IF"),
                       (SUPERSEDE, "SUPERSEDE")):
        r2 = c.create("ow.txt:s", access=RW, disp=OPEN_IF)
        if r2.status == 0:
            c.write(r2.fid, 0, b"s")
            c.close(r2.fid)
        r2 = c.create("ow.txt", access=RW, disp=disp)
        st, s = streams(c, r2.fid) if r2.status == 0 else (r2.status, {})
        check("%s of the file removes its streams" % what,
              st == 0 and list(s) == ["::$DATA"], repr(s))
        if r2.status == 0:
            c.close(r2.fid)
    # A stream open without FILE_SHARE_DELETE keeps its file from
    # deletion; one that shares it lets the file go, after its close.
    r = c.create("gone.txt:s", access=RW, share=SH_R, disp=OPEN_IF)
    check_st("open gone.txt:s, not sharing delete", r.status, "SUCCESS")
    check_st("... opening gone.txt for delete",
             c.create("gone.txt", access=DELETE, disp=OPEN).status,
             "SHARING_VIOLATION")
    c.close(r.fid)
    r = c.create("gone.txt:s", access=RW, share=SH_ALL, disp=OPEN)
    c.write(r.fid, 0, b"still here")
    d = c.create("gone.txt", access=DELETE, disp=OPEN,
                 options=DELETE_ON_CLOSE)
    check_st("with it sharing delete, gone.txt opens for delete", d.status,
             "SUCCESS")
    if d.status == 0:
        c.close(d.fid)
    st, data = c.read(r.fid, 0, 100)
    check("the open stream still reads after its file's delete",
          data == b"still here", repr(data))
    for n in ("gone.txt", "gone.txt:s"):
        check_st("... while %s is delete pending" % n,
                 c.create(n, access=READ_DATA, disp=OPEN_IF).status,
                 "DELETE_PENDING")
    c.close(r.fid)
    check_st("after the stream's close the file is gone",
             c.create("gone.txt", disp=OPEN).status, "OBJECT_NAME_NOT_FOUND")


def g_after_guest(c):
    """The guest set user.DosStream.fromguest:$DATA on g.txt itself."""
    base = c.create("g.txt", access=READ_DATA, disp=OPEN)
    check_st("open g.txt", base.status, "SUCCESS")
    if base.status:
        return
    st, s = streams(c, base.fid)
    check("a stream the guest set as an xattr is listed",
          s.get(":fromguest:$DATA", (0,))[0] == 11, repr(s))
    r = c.create("g.txt:FromGuest", access=READ_DATA, disp=OPEN)
    st, d = c.read(r.fid, 0, 100) if r.status == 0 else (r.status, b"")
    check("... and reads as the xattr's bytes", d == b"hello guest", repr(d))
    c.close(base.fid)


def g_plain(c):
    """A share without streams_xattr: stream names as without streams."""
    for n in ("p.txt:s", "p.txt:s:$DATA", ":s"):
        check_st("%s on a share without streams" % n,
                 c.create(n, disp=OPEN_IF).status, "OBJECT_NAME_INVALID")
    r = c.create("p.txt::$DATA", access=RW, disp=OPEN_IF)
    check_st("p.txt::$DATA is still the file", r.status, "SUCCESS")
    if r.status == 0:
        st, s = streams(c, r.fid)
        check("stream info lists ::$DATA only", s == {"::$DATA": (0, 0)},
              repr(s))
        c.close(r.fid)


def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    c = Client(port, share, sys.argv[4], sys.argv[5])
    globals()["g_" + group.replace("-", "_")](c)
    c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
