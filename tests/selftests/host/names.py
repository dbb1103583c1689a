#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Names without case (`case sensitive = no`) through impacket and raw
SMB2 PDUs.  Prints "PASS text" or "FAIL text: why" per check (t_checks in
lib.sh).

    names.py PORT SHARE GROUP USER PASSWORD [ARGS]

GROUP "fold" runs on a share without case: every component of a path is
found in another case, a create or rename never makes a second name
differing only in case, a rename to its own name in another case
respells it, a long name is opened by its 8.3 name (as
FileAlternateNameInformation reports it) in any case, a directory's 8.3
name leads into it.  "exact" runs on a share with `case sensitive = yes`,
where another case is another name (and an 8.3 name is no name).  "confined" checks that names reached
through another case lead nowhere their exact spelling could not (the
share of files.sh's symlinks).  "big N M" looks up N names of a
directory of M entries in another case and creates N more, for the
shell to count the directories read."""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (CREATE_D, DELETE, DELETE_ON_CLOSE,  # noqa: E402
                   DIRECTORY_FILE, GENERIC_ALL, OPEN, OPEN_IF,
                   READ_ATTRIBUTES, SH_ALL, Client, check, check_st)

FILE_ALL_INFO = 18
FILE_ALTERNATE_NAME_INFO = 21


def opens(c, name, want, **kw):
    r = c.create(name, access=READ_ATTRIBUTES, share=SH_ALL, disp=OPEN,
                 **kw)
    check_st("open %s" % name, r.status, want)
    if r.status == 0:
        c.close(r.fid)
    return r


def query(c, name, cls, out_len):
    """Information class @cls of an open of @name, None on failure."""
    r = c.create(name, access=READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
    if r.status:
        return None
    st, d = c.queryinfo(r.fid, cls, out_len)
    c.close(r.fid)
    return None if st else d


def real_name(c, name):
    """The name the server reports for an open of @name (in
    FileAllInformation, after 96 bytes of other classes)."""
    d = query(c, name, FILE_ALL_INFO, 4096)
    if d is None or len(d) < 100:
        return None
    n = struct.unpack_from("<I", d, 96)[0]
    return d[100:100 + n].decode("utf-16-le")


def short_name(c, name):
    """The 8.3 name FileAlternateNameInformation reports for @name."""
    d = query(c, name, FILE_ALTERNATE_NAME_INFO, 512)
    if d is None or len(d) < 4:
        return None
    n = struct.unpack_from("<I", d, 0)[0]
    return d[4:4 + n].decode("utf-16-le")


def mk(c, name, directory=False, want="SUCCESS"):
    r = c.create(name, access=GENERIC_ALL, share=SH_ALL, disp=CREATE_D,
                 options=DIRECTORY_FILE if directory else 0)
    check_st("create %s" % name, r.status, want)
    if r.status == 0:
        c.close(r.fid)
    return r


def g_fold(c):
    mk(c, "Dir", True)
    mk(c, "Dir\\Sub", True)
    mk(c, "Dir\\Sub\\File.TXT")
    for n in ("dir\\sub\\file.txt", "DIR\\SUB\\FILE.TXT",
              "dIr\\sUb\\fIlE.tXt", "Dir\\SUB\\file.TXT"):
        opens(c, n, "SUCCESS")
    got = real_name(c, "dir\\SUB\\file.txt")
    check("the file found in another case reports its own name (%s)" % got,
          got is not None and got.endswith("Dir\\Sub\\File.TXT"), repr(got))
    opens(c, "dir\\nothing.txt", "OBJECT_NAME_NOT_FOUND")
    opens(c, "dir\\nowhere\\x.txt", "OBJECT_PATH_NOT_FOUND")
    # No second name differing only in case.
    mk(c, "DIR\\sub\\FILE.txt", want="OBJECT_NAME_COLLISION")
    mk(c, "dir", True, want="OBJECT_NAME_COLLISION")
    r = c.create("dir\\SUB\\file.TXT", access=GENERIC_ALL, disp=OPEN_IF)
    check("OPEN_IF of another case opens the file, creates nothing",
          r.status == 0 and r.action == 1, "status %#x action %s" %
          (r.status, getattr(r, "action", None)))
    if r.status == 0:
        c.close(r.fid)
    # A new name below directories spelt in another case lands in them.
    mk(c, "DIR\\SUB\\New.txt")
    # Rename: onto another name differing only in case is a collision;
    # to its own name in another case respells it.
    r = c.create("dir\\sub\\new.TXT", access=DELETE | READ_ATTRIBUTES,
                 share=SH_ALL, disp=OPEN)
    check_st("open New.txt as new.TXT for a rename", r.status, "SUCCESS")
    if r.status == 0:
        check_st("rename New.txt to dir\\sub\\FILE.txt (File.TXT is there)",
                 c.rename(r.fid, "dir\\sub\\FILE.txt"),
                 "OBJECT_NAME_COLLISION")
        check_st("rename New.txt to DIR\\SUB\\NEW.TXT",
                 c.rename(r.fid, "DIR\\SUB\\NEW.TXT"), "SUCCESS")
        c.close(r.fid)
    got = real_name(c, "dir\\sub\\new.txt")
    check("... which is its name now (%s)" % got,
          got is not None and got.endswith("Dir\\Sub\\NEW.TXT"), repr(got))
    # Delete through another case.
    r = c.create("dIR\\sUB\\nEW.tXT", access=DELETE, share=SH_ALL, disp=OPEN,
                 options=DELETE_ON_CLOSE)
    check_st("delete on close of NEW.TXT as nEW.tXT", r.status, "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    opens(c, "Dir\\Sub\\NEW.TXT", "OBJECT_NAME_NOT_FOUND")
    # Streams of a file found in another case.
    r = c.create("dir\\sub\\file.txt:strm", access=GENERIC_ALL, disp=OPEN_IF)
    check_st("a stream of file.txt as spelt in another case", r.status,
             "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    # Fullwidth letters fold too (smbtorture's charset wide-a).
    mk(c, "\uff21-wide")
    opens(c, "\uff41-wide", "SUCCESS")
    # 8.3 names: a file and a directory with long names, each opened by
    # the short name the server reports, in its case and in lower case.
    mk(c, "Eight", True)
    mk(c, "Eight\\Long directory name", True)
    mk(c, "Eight\\Long directory name\\Quarterly report.xlsx")
    sd = short_name(c, "Eight\\Long directory name")
    sf = short_name(c, "Eight\\Long directory name\\Quarterly report.xlsx")
    check("8.3 names reported: %s, %s" % (sd, sf),
          sd is not None and sf is not None and "~" in sd and
          sf.endswith(".XLS"), "%r %r" % (sd, sf))
    if sd and sf:
        long_d = "Eight\\Long directory name"
        long_f = long_d + "\\Quarterly report.xlsx"
        for n, want in ((long_d + "\\" + sf, long_f), ("eight\\" + sd, long_d),
                        ("EIGHT\\%s\\%s" % (sd, sf.lower()), long_f)):
            got = real_name(c, n)
            check("%s opens %s (%s)" % (n, want, got),
                  got is not None and got.endswith(want), repr(got))


def g_exact(c):
    mk(c, "Dir", True)
    mk(c, "Dir\\File.TXT")
    # An 8.3 name is reported, but opens nothing here (not yet).
    mk(c, "Dir\\Quarterly report.xlsx")
    sf = short_name(c, "Dir\\Quarterly report.xlsx")
    check("8.3 name reported: %s" % sf, sf is not None and "~" in sf, repr(sf))
    if sf:
        opens(c, "Dir\\" + sf, "OBJECT_NAME_NOT_FOUND")
    opens(c, "Dir\\File.TXT", "SUCCESS")
    opens(c, "dir\\File.TXT", "OBJECT_PATH_NOT_FOUND")
    opens(c, "Dir\\file.txt", "OBJECT_NAME_NOT_FOUND")
    mk(c, "DIR", True)
    mk(c, "Dir\\FILE.txt")


def g_confined(c):
    # files.sh's shares demo and follow (follow symlinks = yes): link-abs
    # -> /etc, link-rel -> ../../etc, link-in -> inner.  Nothing outside
    # is reached in any case, through a stream name or a create either.
    for n in ("LINK-ABS\\passwd", "Link-Rel\\passwd", "link-ABS",
              "LINK-REL", "INNER\\..\\..\\etc\\passwd",
              "Link-Abs\\passwd:strm", "LINK-REL\\PASSWD::$DATA",
              "link-ABS:strm", "LINK-ABS/passwd", "inner/../../etc/passwd",
              "Link-Rel/PASSWD::$DATA"):
        r = c.create(n, access=READ_ATTRIBUTES, share=SH_ALL, disp=OPEN)
        check("%s leads nowhere (%s)" % (n, files.name(r.status)),
              r.status in (files.ST["ACCESS_DENIED"],
                           files.ST["STOPPED_ON_SYMLINK"],
                           files.ST["OBJECT_PATH_SYNTAX_BAD"],
                           files.ST["OBJECT_NAME_INVALID"]),
              files.name(r.status))
    for n in ("LINK-ABS\\New.txt", "link-REL\\new.txt"):
        r = c.create(n, access=GENERIC_ALL, share=SH_ALL, disp=CREATE_D)
        check("create %s leads nowhere (%s)" % (n, files.name(r.status)),
              r.status in (files.ST["ACCESS_DENIED"],
                           files.ST["STOPPED_ON_SYMLINK"]),
              files.name(r.status))
    opens(c, "INNER\\INNER.TXT", "SUCCESS")


def g_big(c, n, m):
    bad = 0
    for i in range(0, m, max(1, m // n)):
        r = c.create("big\\ENTRY-%05d.DAT" % i, access=READ_ATTRIBUTES,
                     share=SH_ALL, disp=OPEN)
        if r.status:
            bad += 1
        else:
            c.close(r.fid)
    check("%d names of a %d-entry directory found in another case" %
          (n, m), bad == 0, "%d not found" % bad)
    bad = 0
    for i in range(n):
        r = c.create("BIG\\new-%05d.dat" % i, access=GENERIC_ALL,
                     share=SH_ALL, disp=CREATE_D)
        if r.status:
            bad += 1
        else:
            c.close(r.fid)
    check("%d new names created in it, each checked for another case" % n,
          bad == 0, "%d failed" % bad)
    r = c.create("big\\entry-00000.dat", access=GENERIC_ALL, share=SH_ALL,
                 disp=CREATE_D)
    check_st("... and one differing only in case is refused", r.status,
             "OBJECT_NAME_COLLISION")


def main():
    port, share, group, user, password = sys.argv[1:6]
    c = Client(int(port), share, user, password)
    if group == "big":
        g_big(c, int(sys.argv[6]), int(sys.argv[7]))
    else:
        globals()["g_" + group](c)
    c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
