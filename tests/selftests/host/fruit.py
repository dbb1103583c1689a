#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What smbtorture's vfs.fruit suites leave out, on a fruit share
(vfs objects = fruit streams_xattr).  Prints "PASS text" or "FAIL text:
why" per check (t_checks in lib.sh turns them into TAP).

    fruit.py PORT SHARE USER PASSWORD

A client that did not negotiate AAPL sees real file IDs (the inode
number, fruit:zero_file_id only zeroes them for Macs): the same after a
rename in the directory and into another one, different for another
file."""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (DIRECTORY_FILE, GENERIC_ALL, OPEN, Client,  # noqa: E402
                   check, check_st)

FILE_INTERNAL_INFO = 6


def file_id(c, fid):
    st, d = c.queryinfo(fid, FILE_INTERNAL_INFO, 8)
    return struct.unpack_from("<Q", d)[0] if st == 0 and len(d) == 8 \
        else None


def g_ids(c):
    for n in ("fid-b.txt", "fid-dir\\fid-c.txt", "fid-a.txt", "fid-o.txt"):
        c.rm(n)
    c.rm("fid-dir", directory=True)
    c.close(c.open("fid-dir", options=DIRECTORY_FILE))
    f = c.open("fid-a.txt")
    first = file_id(c, f)
    check("a file has a file ID without AAPL", bool(first),
          "got %r" % first)
    check_st("rename in its directory", c.rename(f, "fid-b.txt"), "SUCCESS")
    check("its file ID stays over a rename", file_id(c, f) == first,
          "%r, then %r" % (first, file_id(c, f)))
    c.close(f)
    f = c.open("fid-b.txt", access=GENERIC_ALL, disp=OPEN)
    check("a new open of the new name has the same file ID",
          file_id(c, f) == first, "%r, then %r" % (first, file_id(c, f)))
    check_st("rename into another directory",
             c.rename(f, "fid-dir\\fid-c.txt"), "SUCCESS")
    c.close(f)
    f = c.open("fid-dir\\fid-c.txt", access=GENERIC_ALL, disp=OPEN)
    check("the same file ID in the other directory", file_id(c, f) == first,
          "%r, then %r" % (first, file_id(c, f)))
    c.close(f)
    o = c.open("fid-o.txt")
    other = file_id(c, o)
    c.close(o)
    check("another file has another file ID", other and other != first,
          "%r and %r" % (first, other))
    for n in ("fid-dir\\fid-c.txt", "fid-o.txt"):
        c.rm(n)
    c.rm("fid-dir", directory=True)


def main():
    port, share, user, password = (int(sys.argv[1]), sys.argv[2],
                                   sys.argv[3], sys.argv[4])
    c = Client(port, share, user, password)
    g_ids(c)
    c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
