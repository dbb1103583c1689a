#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""File service I checks through impacket and raw SMB2 PDUs: CREATE
(dispositions, options, access, sharing, contexts, names), CLOSE, READ,
WRITE and FLUSH.  Prints "PASS text" or "FAIL text: why" per check
(t_checks in lib.sh turns them into TAP).

    files.py PORT SHARE GROUP [USER PASSWORD]

Raw PDUs go through impacket's session (signing, credits, message ids),
so a check can send what impacket itself would normalise away (names
with "..", absolute names, unpaired surrogates) or refuse to send."""

import hashlib
import os
import struct
import sys

from impacket import smb3structs as s3
from impacket.nt_errors import ERROR_MESSAGES
from impacket.smbconnection import SMBConnection

CREATE, CLOSE, FLUSH, READ, WRITE = 5, 6, 7, 8, 9
QUERY_INFO, SET_INFO = 0x10, 0x11
FILE_FULL_EA_INFO = 15
FILE_BASIC_INFO, FILE_RENAME_INFO = 4, 10

ST = {
    "SUCCESS": 0,
    "END_OF_FILE": 0xC0000011,
    "INVALID_PARAMETER": 0xC000000D,
    "INVALID_DEVICE_REQUEST": 0xC0000010,
    "ACCESS_DENIED": 0xC0000022,
    "OBJECT_NAME_INVALID": 0xC0000033,
    "OBJECT_NAME_NOT_FOUND": 0xC0000034,
    "OBJECT_NAME_COLLISION": 0xC0000035,
    "OBJECT_PATH_NOT_FOUND": 0xC000003A,
    "OBJECT_PATH_SYNTAX_BAD": 0xC000003B,
    "SHARING_VIOLATION": 0xC0000043,
    "DELETE_PENDING": 0xC0000056,
    "PRIVILEGE_NOT_HELD": 0xC0000061,
    "BAD_IMPERSONATION_LEVEL": 0xC00000A5,
    "FILE_IS_A_DIRECTORY": 0xC00000BA,
    "NOT_SUPPORTED": 0xC00000BB,
    "NOT_A_DIRECTORY": 0xC0000103,
    "TOO_MANY_OPENED_FILES": 0xC000011F,
    "CANNOT_DELETE": 0xC0000121,
    "FILE_CLOSED": 0xC0000128,
    "INVALID_EA_NAME": 0x80000013,
    "STOPPED_ON_SYMLINK": 0x8000002D,
    "BUFFER_OVERFLOW": 0x80000005,
    "BUFFER_TOO_SMALL": 0xC0000023,
}

# Access, share, disposition, options, attributes (MS-SMB2 2.2.13).
READ_DATA, WRITE_DATA, APPEND_DATA, READ_EA = 0x1, 0x2, 0x4, 0x8
EXECUTE, READ_ATTRIBUTES, DELETE = 0x20, 0x80, 0x10000
SYNCHRONIZE, MAXIMUM_ALLOWED = 0x100000, 0x02000000
GENERIC_ALL, GENERIC_READ = 0x10000000, 0x80000000
SH_R, SH_W, SH_D = 1, 2, 4
SH_ALL = 7
SUPERSEDE, OPEN, CREATE_D, OPEN_IF, OVERWRITE, OVERWRITE_IF = range(6)
DIRECTORY_FILE, WRITE_THROUGH, NON_DIRECTORY_FILE = 0x1, 0x2, 0x40
DELETE_ON_CLOSE, OPEN_REPARSE_POINT = 0x1000, 0x200000
A_READONLY, A_HIDDEN, A_SYSTEM, A_DIRECTORY = 0x1, 0x2, 0x4, 0x10
A_ARCHIVE, A_NORMAL = 0x20, 0x80
FULL = 0x001F01FF

failed = 0


def name(st):
    for k, v in ST.items():
        if v == st:
            return k
    return ERROR_MESSAGES.get(st, ("0x%08x" % st,))[0]


def check(text, ok, why=""):
    global failed
    if ok:
        print("PASS " + text)
    else:
        failed += 1
        print("FAIL %s: %s" % (text, why))


def check_st(text, got, want):
    check(text, got == ST[want], "got %s, want %s" % (name(got), want))


def ctx(tag, data=b""):
    return (tag, data)


def encode_ctxs(ctxs):
    out = b""
    for i, (tag, data) in enumerate(ctxs):
        c = struct.pack("<IHHHHI", 0, 16, len(tag), 0, 0, len(data)) + tag
        c += b"\0" * (-len(c) % 8)
        if data:
            c = c[:10] + struct.pack("<H", len(c)) + c[12:] + data
        if i < len(ctxs) - 1:
            c += b"\0" * (-len(c) % 8)
            c = struct.pack("<I", len(c)) + c[4:]
        out += c
    return out


def parse_ctxs(buf):
    out = {}
    pos = 0
    while pos + 16 <= len(buf):
        nxt, noff, nlen, _, doff, dlen = struct.unpack_from("<IHHHHI", buf,
                                                            pos)
        tag = buf[pos + noff:pos + noff + nlen]
        out[tag] = buf[pos + doff:pos + doff + dlen] if dlen else b""
        if not nxt:
            break
        pos += nxt
    return out


class Rsp:
    pass


class Client:
    def __init__(self, port, share, user="", password=""):
        self.conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=port)
        self.conn.login(user, password)
        self.tid = self.conn.connectTree(share)
        self.smb = self.conn.getSMBServer()

    def raw(self, cmd, body, charge=1):
        p = self.smb.SMB_PACKET()
        p["Command"] = cmd
        p["TreeID"] = self.tid
        p["Data"] = body
        if charge > 1:
            p["CreditCharge"] = charge
        mid = self.smb.sendSMB(p)
        if charge > 1:
            self.smb._Connection["SequenceWindow"] += charge - 1
        r = self.smb.recvSMB(mid)
        return r["Status"], bytes(r["Data"])

    def create(self, name, access=GENERIC_ALL, share=SH_ALL, disp=OPEN_IF,
               options=0, attrs=0, ctxs=None, imp=2, raw_name=None):
        n = raw_name if raw_name is not None else name.encode("utf-16-le")
        body = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 0, imp, 0, 0, access,
                           attrs, share, disp, options, 120, len(n), 0, 0)
        body += n if n else b"\0"
        if ctxs:
            body += b"\0" * (-(64 + len(body)) % 8)
            c = encode_ctxs(ctxs)
            body = body[:48] + struct.pack("<II", 64 + len(body),
                                           len(c)) + body[56:] + c
        st, d = self.raw(CREATE, body)
        r = Rsp()
        r.status = st
        r.data = d
        if st == 0:
            (_, r.oplock, r.flags, r.action, r.ctime, r.atime, r.mtime,
             r.chtime, r.alloc, r.eof, r.attrs, _) = struct.unpack_from(
                 "<HBBIQQQQQQII", d)
            r.fid = d[64:80]
            off, ln = struct.unpack_from("<II", d, 80)
            r.ctxs = parse_ctxs(d[off - 64:off - 64 + ln]) if ln else {}
        return r

    def open(self, name, **kw):
        r = self.create(name, **kw)
        if r.status:
            raise RuntimeError("create %s: %s" % (name, name_of(r.status)))
        return r.fid

    def close(self, fid, flags=0):
        st, d = self.raw(CLOSE, struct.pack("<HHI", 24, flags, 0) + fid)
        return st, d

    def flush(self, fid):
        return self.raw(FLUSH, struct.pack("<HHI", 24, 0, 0) + fid)[0]

    def read(self, fid, off, length, minimum=0, flags=0, channel=0):
        charge = max(1, (length + 65535) // 65536)
        body = struct.pack("<HBBIQ16sIIIHHB", 49, 80, flags, length, off,
                           fid, minimum, channel, 0, 0, 0, 0)
        st, d = self.raw(READ, body, charge)
        if st:
            return st, b""
        doff, dlen = d[2], struct.unpack_from("<I", d, 4)[0]
        return st, d[doff - 64:doff - 64 + dlen]

    def write(self, fid, off, data, flags=0, length=None, data_off=112):
        charge = max(1, (len(data) + 65535) // 65536)
        body = struct.pack("<HHIQ16sIIHHI", 49, data_off,
                           len(data) if length is None else length, off,
                           fid, 0, 0, 0, 0, flags)
        body += b"\0" * (data_off - 112) + (data or b"\0")
        st, d = self.raw(WRITE, body, charge)
        return st, (struct.unpack_from("<I", d, 4)[0] if st == 0 else 0)

    def write_all(self, fid, data, chunk=1 << 20):
        off = 0
        while off < len(data):
            st, n = self.write(fid, off, data[off:off + chunk])
            if st or n != len(data[off:off + chunk]):
                return st or 1
            off += n
        return 0

    def read_all(self, fid, size, chunk=1 << 20):
        out = b""
        while len(out) < size:
            st, d = self.read(fid, len(out), min(chunk, size - len(out)))
            if st or not d:
                return out
            out += d
        return out

    def queryinfo(self, fid, cls, out_len, inbuf=b"", flags=0,
                  info_type=1):
        """QUERY_INFO of class @cls on @fid; returns (status, output)."""
        body = struct.pack("<HBBIHHIII16s", 41, info_type, cls, out_len,
                           104 if inbuf else 0, 0, len(inbuf), 0, flags,
                           fid) + inbuf
        st, d = self.raw(QUERY_INFO, body)
        if st in (0, ST["BUFFER_OVERFLOW"]) and len(d) >= 8:
            off, ln = struct.unpack_from("<HI", d, 2)
            return st, d[off - 64:off - 64 + ln]
        return st, b""

    def setinfo(self, fid, cls, buf, info_type=1, extra=0):
        """SET_INFO of class @cls on @fid (AdditionalInformation @extra);
        returns the status."""
        body = struct.pack("<HBBIHHI16s", 33, info_type, cls, len(buf),
                           96, 0, extra, fid) + buf
        return self.raw(SET_INFO, body)[0]

    def rename(self, fid, new, replace=False):
        n = new.encode("utf-16-le")
        return self.setinfo(fid, FILE_RENAME_INFO,
                            struct.pack("<B7xQI", replace, 0, len(n)) + n)

    def set_attrs(self, fid, attrs):
        return self.setinfo(fid, FILE_BASIC_INFO,
                            struct.pack("<QQQQII", 0, 0, 0, 0, attrs, 0))

    def rm(self, name, directory=False):
        r = self.create(name, access=DELETE, share=SH_ALL, disp=OPEN,
                        options=DELETE_ON_CLOSE |
                        (DIRECTORY_FILE if directory else 0))
        if r.status == 0:
            self.close(r.fid)


def name_of(st):
    return name(st)


def g_rw(c):
    """Round trips of many sizes with checksums; READ and WRITE rules."""
    for size in (0, 1, 4095, 4096, 65536 + 7, 1 << 20, (8 << 20) + 3):
        data = os.urandom(size)
        f = c.open("rw-%d.bin" % size, disp=OVERWRITE_IF)
        st = c.write_all(f, data)
        c.close(f)
        f = c.open("rw-%d.bin" % size, access=READ_DATA, disp=OPEN)
        back = c.read_all(f, size)
        st2, d = c.close(f, flags=1)
        eof = struct.unpack_from("<Q", d, 48)[0] if st2 == 0 else -1
        check("write and read back %d bytes (md5)" % size,
              st == 0 and hashlib.md5(back).digest() ==
              hashlib.md5(data).digest() and eof == size,
              "write %s, read %d bytes, eof %d" % (name(st), len(back), eof))
        c.rm("rw-%d.bin" % size)

    f = c.open("eof.bin", disp=OVERWRITE_IF)
    c.write_all(f, b"\0" * 70000)
    # smbtorture smb2.read.eof: length, offset, minimum -> status, bytes.
    for ln, off, mn, want, n in (
            (10, 0, 1, "SUCCESS", 10), (10, 70000, 0, "END_OF_FILE", 0),
            (0, 70000, 0, "SUCCESS", 0), (0, 70000, 1, "END_OF_FILE", 0),
            (2, 69999, 0, "SUCCESS", 1), (1, 69999, 2, "END_OF_FILE", 0),
            (1, 0, 0x10000, "END_OF_FILE", 0), (5, 0, 10, "END_OF_FILE", 0),
            (1, (1 << 63) - 2, 0, "END_OF_FILE", 0),
            (0, (1 << 63) - 1, 0, "SUCCESS", 0),
            (1, (1 << 63) - 1, 0, "INVALID_PARAMETER", 0),
            (0, 1 << 63, 0, "INVALID_PARAMETER", 0),
            (0, (1 << 64) - 1, 0, "INVALID_PARAMETER", 0)):
        st, d = c.read(f, off, ln, mn)
        check("READ length %d at %d, minimum %d: %s, %d bytes" %
              (ln, off, mn, want, n), st == ST[want] and len(d) == n,
              "%s, %d bytes" % (name(st), len(d)))
    st, d = c.read(f, 0, 16, flags=1)	# SMB2_READFLAG_READ_UNBUFFERED
    check("READ unbuffered", st == 0 and len(d) == 16, name(st))
    st, d = c.read(f, 0, 16, channel=1)
    check_st("READ over an RDMA channel", st, "INVALID_PARAMETER")
    st, d = c.read(f, 0, (8 << 20) + 1)
    check_st("READ longer than the negotiated maximum", st,
             "INVALID_PARAMETER")
    # smbtorture smb2.rw.invalid: offsets past the largest file offset.
    for off, ln, want in ((1 << 63, 0, "INVALID_PARAMETER"),
                          ((1 << 63) - 1, 0, "SUCCESS"),
                          ((1 << 63) - 1, 1, "INVALID_PARAMETER"),
                          ((1 << 64) - 2, 1, "INVALID_PARAMETER"),
                          ((1 << 64) - 1, 64, "INVALID_PARAMETER")):
        st, n = c.write(f, off, b"x" * ln)
        check("WRITE %d bytes at 0x%x: %s" % (ln, off, want),
              st == ST[want] and n == (ln if st == 0 else 0),
              "%s, count %d" % (name(st), n))
    st, n = c.write(f, 10, b"")
    check("zero-length WRITE: success, count 0", st == 0 and n == 0,
          name(st))
    st, n = c.write(f, 0, b"abc", length=4)
    check_st("WRITE whose data runs past the PDU", st, "INVALID_PARAMETER")
    st, n = c.write(f, 0, b"abc", data_off=100)
    check_st("WRITE whose data starts in the fixed part", st,
             "INVALID_PARAMETER")
    st, n = c.write(f, 0, b"through", flags=1)
    check("WRITE with WRITE_THROUGH", st == 0 and n == 7, name(st))
    check_st("FLUSH", c.flush(f), "SUCCESS")
    c.close(f)

    # Access: READ needs READ_DATA or EXECUTE, WRITE and FLUSH write access.
    for acc, want in ((READ_ATTRIBUTES | READ_DATA, "SUCCESS"),
                      (READ_ATTRIBUTES | EXECUTE, "SUCCESS"),
                      (READ_ATTRIBUTES, "ACCESS_DENIED")):
        f = c.open("eof.bin", access=acc, disp=OPEN)
        st, _ = c.read(f, 0, 5)
        check_st("READ on an open with access 0x%x" % acc, st, want)
        st, _ = c.write(f, 0, b"x")
        check_st("WRITE on an open with access 0x%x" % acc, st,
                 "ACCESS_DENIED")
        check_st("FLUSH on an open with access 0x%x" % acc, c.flush(f),
                 "ACCESS_DENIED")
        c.close(f)

    # Append: offset 0xFF..FF on an append-only open writes at the end;
    # an explicit offset is honoured (smbtorture smb2.rw.append).
    f = c.open("eof.bin", access=APPEND_DATA | SYNCHRONIZE, disp=OPEN)
    st, n = c.write(f, (1 << 64) - 1, b"TAIL")
    check("WRITE to end of file on an append-only open",
          st == 0 and n == 4, name(st))
    st, n = c.write(f, 0, b"H")
    check("WRITE at an offset on an append-only open", st == 0 and n == 1,
          name(st))
    c.close(f)
    f = c.open("eof.bin", access=READ_DATA, disp=OPEN)
    st, d = c.read(f, 0, 100000)
    check("appended data is at the end, offset write in place",
          len(d) == 70004 and d[-4:] == b"TAIL" and d[:1] == b"H",
          "%d bytes" % len(d))
    c.close(f)

    d = c.open("rwdir", disp=OPEN_IF, options=DIRECTORY_FILE,
               access=READ_DATA | WRITE_DATA | READ_ATTRIBUTES)
    st, _ = c.read(d, 0, 10, 1)
    check_st("READ on a directory", st, "INVALID_DEVICE_REQUEST")
    st, _ = c.write(d, 0, b"x")
    check_st("WRITE on a directory", st, "INVALID_DEVICE_REQUEST")
    c.close(d)
    c.rm("rwdir", True)

    # A closed handle is gone for every command.
    f = c.open("eof.bin", disp=OPEN)
    st, d = c.close(f, flags=1)
    check("CLOSE with POSTQUERY_ATTRIB reports the size",
          st == 0 and struct.unpack_from("<H", d, 2)[0] == 1 and
          struct.unpack_from("<Q", d, 48)[0] == 70004,
          name(st))
    check_st("READ after CLOSE", c.read(f, 0, 1)[0], "FILE_CLOSED")
    check_st("WRITE after CLOSE", c.write(f, 0, b"x")[0], "FILE_CLOSED")
    check_st("FLUSH after CLOSE", c.flush(f), "FILE_CLOSED")
    check_st("CLOSE after CLOSE", c.close(f)[0], "FILE_CLOSED")
    c.rm("eof.bin")


def g_create(c):
    """Dispositions, options, parameters, contexts."""
    c.rm("disp.txt")
    # smbtorture smb2.create.open: disposition x existing -> status.
    for disp, exists, want, action in (
            (SUPERSEDE, True, "SUCCESS", 0), (SUPERSEDE, False, "SUCCESS", 2),
            (OPEN, True, "SUCCESS", 1),
            (OPEN, False, "OBJECT_NAME_NOT_FOUND", None),
            (CREATE_D, True, "OBJECT_NAME_COLLISION", None),
            (CREATE_D, False, "SUCCESS", 2), (OPEN_IF, True, "SUCCESS", 1),
            (OPEN_IF, False, "SUCCESS", 2), (OVERWRITE, True, "SUCCESS", 3),
            (OVERWRITE, False, "OBJECT_NAME_NOT_FOUND", None),
            (OVERWRITE_IF, True, "SUCCESS", 3),
            (OVERWRITE_IF, False, "SUCCESS", 2),
            (6, True, "INVALID_PARAMETER", None),
            (6, False, "INVALID_PARAMETER", None)):
        if exists:
            f = c.open("disp.txt", disp=CREATE_D)
            c.write(f, 0, b"0123456789")
            c.close(f)
        r = c.create("disp.txt", disp=disp)
        ok = r.status == ST[want]
        if ok and r.status == 0:
            ok = r.action == action and (
                r.eof == (10 if action == 1 else 0))
        check("disposition %d on %s file: %s%s" %
              (disp, "an existing" if exists else "a missing", want,
               "" if action is None else ", action %d" % action), ok,
              "%s, action %s, eof %s" % (name(r.status),
                                         getattr(r, "action", "-"),
                                         getattr(r, "eof", "-")))
        if r.status == 0:
            c.close(r.fid)
        c.rm("disp.txt")

    r = c.create("adir", disp=CREATE_D, options=DIRECTORY_FILE,
                 attrs=A_NORMAL)
    check("create a directory: action CREATED, attributes DIRECTORY, "
          "sizes 0", r.status == 0 and r.action == 2 and
          r.attrs & ~0x2000 == A_DIRECTORY and r.eof == 0 and r.alloc == 0,
          name(r.status))
    c.close(r.fid)
    f = c.open("adir\\afile", disp=CREATE_D)
    c.close(f)
    for nm, opt, disp, want in (
            ("adir", NON_DIRECTORY_FILE, OPEN, "FILE_IS_A_DIRECTORY"),
            ("adir\\afile", DIRECTORY_FILE, OPEN, "NOT_A_DIRECTORY"),
            ("adir", DIRECTORY_FILE | NON_DIRECTORY_FILE, OPEN,
             "INVALID_PARAMETER"),
            ("adir", DIRECTORY_FILE, OVERWRITE_IF, "INVALID_PARAMETER"),
            ("adir", 0, OVERWRITE_IF, "INVALID_PARAMETER"),
            ("adir", DIRECTORY_FILE, CREATE_D, "OBJECT_NAME_COLLISION"),
            ("adir\\afile\\x", 0, OPEN_IF, "OBJECT_PATH_NOT_FOUND"),
            ("nodir\\x", 0, OPEN_IF, "OBJECT_PATH_NOT_FOUND"),
            ("adir", 0xF0000000, OPEN, "INVALID_PARAMETER"),
            ("adir", 0x00100000, OPEN, "NOT_SUPPORTED"),
            ("adir", 0x00002000, OPEN, "NOT_SUPPORTED"),
            ("adir", 0x00000080, OPEN, "NOT_SUPPORTED")):
        r = c.create(nm, disp=disp, options=opt)
        check_st("%s with options 0x%x, disposition %d" % (nm, opt, disp),
                 r.status, want)
        if r.status == 0:
            c.close(r.fid)
    # Options clients use are accepted.
    for opt in (WRITE_THROUGH, 0x4, 0x8, 0x10, 0x20, 0x100, 0x200, 0x800,
                0x4000, 0x8000, 0x10000, 0x20000, OPEN_REPARSE_POINT,
                0x400000, 0x800000):
        r = c.create("adir\\afile", disp=OPEN, options=opt)
        check_st("option 0x%x accepted" % opt, r.status, "SUCCESS")
        if r.status == 0:
            c.close(r.fid)

    for kw, want, what in (
            (dict(imp=0x12345678), "BAD_IMPERSONATION_LEVEL",
             "impersonation level 0x12345678"),
            (dict(attrs=0x40), "INVALID_PARAMETER", "attribute DEVICE"),
            (dict(attrs=0x8), "INVALID_PARAMETER", "attribute VOLUME"),
            (dict(attrs=0x8040), "INVALID_PARAMETER", "attributes 0x8040"),
            (dict(access=0), "ACCESS_DENIED", "DesiredAccess 0"),
            (dict(access=0x08000000), "ACCESS_DENIED", "access bit 27"),
            (dict(access=0x200), "ACCESS_DENIED", "access bit 9"),
            (dict(access=0x01000000), "PRIVILEGE_NOT_HELD",
             "ACCESS_SYSTEM_SECURITY"),
            (dict(access=READ_DATA, options=DELETE_ON_CLOSE),
             "INVALID_PARAMETER", "DELETE_ON_CLOSE without DELETE")):
        r = c.create("adir\\afile", disp=OPEN, **kw)
        check_st("CREATE with %s" % what, r.status, want)
        if r.status == 0:
            c.close(r.fid)
    r = c.create("adir\\afile", disp=OPEN, access=MAXIMUM_ALLOWED)
    check("MAXIMUM_ALLOWED opens", r.status == 0, name(r.status))
    if r.status == 0:
        c.close(r.fid)

    # Contexts: MxAc and QFid answered, durable/lease ignored while off,
    # reconnects and timewarp find nothing, bad tags refused.
    r = c.create("adir\\afile", disp=OPEN, ctxs=[
        ctx(b"MxAc"), ctx(b"QFid"), ctx(b"DH2Q", b"\0" * 32),
        ctx(b"RqLs", b"\0" * 32), ctx(b"FooO", b"unknown")],
        access=READ_DATA)
    mx = r.ctxs.get(b"MxAc", b"") if r.status == 0 else b""
    check("MxAc: QueryStatus 0 and the owner's full access",
          len(mx) == 8 and struct.unpack("<II", mx) == (0, FULL),
          "%s %s" % (name(r.status), mx.hex()))
    qf = r.ctxs.get(b"QFid", b"") if r.status == 0 else b""
    check("QFid: 32 bytes with an inode number",
          len(qf) == 32 and struct.unpack_from("<Q", qf)[0] != 0, qf.hex())
    check("no durable handle or lease granted while they are off",
          r.status == 0 and b"DH2Q" not in r.ctxs and b"RqLs" not in r.ctxs
          and r.oplock == 0, str(getattr(r, "ctxs", {}).keys()))
    if r.status == 0:
        c.close(r.fid)
    for ctxs, want, what in (
            ([ctx(b"DHnC", b"\0" * 16)], "OBJECT_NAME_NOT_FOUND",
             "a durable reconnect"),
            ([ctx(b"DH2C", b"\0" * 36)], "OBJECT_NAME_NOT_FOUND",
             "a durable v2 reconnect"),
            ([ctx(b"TWrp", struct.pack("<Q", 10000))],
             "OBJECT_NAME_NOT_FOUND", "a timewarp token"),
            ([ctx(b"xxx")], "INVALID_PARAMETER", "a 3-byte tag"),
            ([ctx(b"MxAc"), ctx(b"MxAc")], "INVALID_PARAMETER",
             "MxAc twice"),
            ([ctx(b"AlSi", b"\1\2")], "INVALID_PARAMETER",
             "a short AlSi")):
        r = c.create("adir\\afile", disp=OPEN, ctxs=ctxs)
        check_st("CREATE with %s" % what, r.status, want)
        if r.status == 0:
            c.close(r.fid)
    r = c.create("alloc.bin", disp=OVERWRITE_IF,
                 ctxs=[ctx(b"AlSi", struct.pack("<Q", 1 << 20))])
    check("AlSi: the file gets the allocation asked for",
          r.status == 0 and r.alloc >= 1 << 20 and r.eof == 0,
          "%s alloc %s" % (name(r.status), getattr(r, "alloc", "-")))
    if r.status == 0:
        c.close(r.fid)
    c.rm("alloc.bin")
    ea = (struct.pack("<IBBH", 20, 0, 5, 5) + b"color\0green\0" +
          struct.pack("<IBBH", 0, 0, 5, 5) + b"shape\0round")
    r = c.create("ea.txt", disp=OVERWRITE_IF, ctxs=[ctx(b"ExtA", ea)])
    check_st("CREATE with two EAs", r.status, "SUCCESS")
    if r.status == 0:
        g_ea_query(c, r.fid)
        c.close(r.fid)
    bad = struct.pack("<IBBH", 0, 0, 3, 1) + b"a:b\0x"
    r = c.create("ea2.txt", disp=OVERWRITE_IF, ctxs=[ctx(b"ExtA", bad)])
    check_st("CREATE with an EA name holding ':'", r.status,
             "INVALID_EA_NAME")
    r = c.create("ea2.txt", disp=OPEN)
    check_st("... and nothing was created", r.status,
             "OBJECT_NAME_NOT_FOUND")
    c.rm("adir\\afile")
    c.rm("adir", True)


def full_eas(buf):
    """FILE_FULL_EA_INFORMATION entries as [(name, value, offset)]."""
    out, pos = [], 0
    while pos + 8 <= len(buf):
        nxt, _, nlen, vlen = struct.unpack_from("<IBBH", buf, pos)
        nm = buf[pos + 8:pos + 8 + nlen]
        out.append((nm.decode(), buf[pos + 9 + nlen:pos + 9 + nlen + vlen],
                    pos))
        if not nxt:
            break
        pos += nxt
    return out


def g_ea_query(c, fid):
    """QUERY_INFO FileFullEaInformation: by name list and by scan."""
    st, b = c.queryinfo(fid, FILE_FULL_EA_INFO, 512, flags=1)  # restart
    got = [(n, v) for n, v, _ in full_eas(b)]
    check("EA scan returns both EAs, values intact",
          st == 0 and sorted(got) == [("color", b"green"),
                                      ("shape", b"round")],
          "%s %r" % (name(st), got))
    ents = full_eas(b)
    check("EA scan: the second entry starts 4-byte aligned",
          len(ents) == 2 and ents[1][2] == 20, repr(ents))
    st, b = c.queryinfo(fid, FILE_FULL_EA_INFO, 24, flags=1)
    got = [(n, v) for n, v, _ in full_eas(b)]
    check("EA scan into room for one entry: BUFFER_OVERFLOW with one",
          st == ST["BUFFER_OVERFLOW"] and len(got) == 1, "%s %r" %
          (name(st), got))
    st, b = c.queryinfo(fid, FILE_FULL_EA_INFO, 8, flags=1)
    check_st("EA scan into room for none", st, "BUFFER_TOO_SMALL")
    names = (struct.pack("<IB", 12, 5) + b"shape\0\0" +
             struct.pack("<IB", 0, 7) + b"missing\0")
    st, b = c.queryinfo(fid, FILE_FULL_EA_INFO, 512, inbuf=names)
    got = [(n, v) for n, v, _ in full_eas(b)]
    check("EAs by name: in the asked order, a missing one empty",
          st == 0 and got == [("shape", b"round"), ("missing", b"")],
          "%s %r" % (name(st), got))


def g_share(c):
    """Sharing violations, delete pending, delete on close."""
    f = c.open("sh.txt", disp=OVERWRITE_IF, share=0,
               access=READ_DATA | WRITE_DATA)
    r = c.create("sh.txt", disp=OPEN, access=READ_DATA)
    check_st("open for read of a file opened with no sharing", r.status,
             "SHARING_VIOLATION")
    r = c.create("sh.txt", disp=OPEN, access=READ_ATTRIBUTES)
    check_st("attribute-only open of it", r.status, "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("sh.txt", disp=OVERWRITE, access=WRITE_DATA)
    check_st("overwrite of it", r.status, "SHARING_VIOLATION")
    c.close(f)
    f = c.open("sh.txt", disp=OPEN, share=SH_R, access=READ_DATA)
    r = c.create("sh.txt", disp=OPEN, share=SH_R | SH_W, access=READ_DATA)
    check_st("read/read, both share read", r.status, "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("sh.txt", disp=OPEN, share=SH_ALL, access=WRITE_DATA)
    check_st("write while an open does not share write", r.status,
             "SHARING_VIOLATION")
    r = c.create("sh.txt", disp=OPEN, share=SH_W, access=READ_DATA)
    check_st("read while not sharing read with a reader", r.status,
             "SHARING_VIOLATION")
    r = c.create("sh.txt", disp=OPEN, share=SH_ALL, access=DELETE)
    check_st("delete while an open does not share delete", r.status,
             "SHARING_VIOLATION")
    c.close(f)

    # Delete on close: pending once the handle closes, gone at the last.
    f = c.open("sh.txt", disp=OPEN, share=SH_ALL, access=READ_DATA)
    d = c.open("sh.txt", disp=OPEN, share=SH_ALL,
               access=DELETE | READ_DATA, options=DELETE_ON_CLOSE)
    c.close(d)
    r = c.create("sh.txt", disp=OPEN, share=SH_ALL, access=READ_DATA)
    check_st("a new open of a file pending deletion", r.status,
             "DELETE_PENDING")
    c.close(f)
    r = c.create("sh.txt", disp=OPEN, access=READ_DATA)
    check_st("gone after its last open closed", r.status,
             "OBJECT_NAME_NOT_FOUND")
    r = c.create("doc-dir", disp=CREATE_D, options=DIRECTORY_FILE |
                 DELETE_ON_CLOSE, access=DELETE | READ_DATA)
    check_st("create a directory with DELETE_ON_CLOSE", r.status,
             "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("doc-dir", disp=OPEN, options=DIRECTORY_FILE)
    check_st("... gone after its close", r.status, "OBJECT_NAME_NOT_FOUND")
    f = c.open("ro.txt", disp=OVERWRITE_IF, attrs=A_READONLY)
    c.close(f)
    r = c.create("ro.txt", disp=OPEN, access=DELETE,
                 options=DELETE_ON_CLOSE)
    check_st("DELETE_ON_CLOSE of a read-only file", r.status,
             "CANNOT_DELETE")
    r = c.create("ro.txt", disp=OPEN, access=WRITE_DATA)
    check_st("open for write of a read-only file", r.status,
             "ACCESS_DENIED")
    r = c.create("ro.txt", disp=OPEN, access=DELETE)
    check_st("open for delete of a read-only file", r.status, "SUCCESS")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("ro.txt", disp=OVERWRITE_IF)
    check_st("overwrite of a read-only file", r.status, "ACCESS_DENIED")
    f = c.open("hid.txt", disp=OVERWRITE_IF, attrs=A_HIDDEN | A_SYSTEM)
    c.close(f)
    r = c.create("hid.txt", disp=OVERWRITE_IF, attrs=A_HIDDEN)
    check_st("overwrite of a system file without SYSTEM", r.status,
             "ACCESS_DENIED")
    r = c.create("hid.txt", disp=OVERWRITE_IF, attrs=A_HIDDEN | A_SYSTEM)
    check("overwrite of it keeping HIDDEN and SYSTEM",
          r.status == 0 and r.attrs == A_HIDDEN | A_SYSTEM | A_ARCHIVE,
          "%s 0x%x" % (name(r.status), getattr(r, "attrs", 0)))
    if r.status == 0:
        c.close(r.fid)
    c.rm("hid.txt")

    # A rename adds a name to the new parent as a create there would
    # (MS-FSA): an open of that directory with DELETE access, or one not
    # sharing write, is a sharing violation (smbtorture smb2.rename).
    c.rm("rn-dir\\a.txt")
    c.rm("rn-dir\\b.txt")
    d = c.open("rn-dir", disp=OPEN_IF, options=DIRECTORY_FILE, share=SH_ALL,
               access=READ_DATA | READ_ATTRIBUTES)
    c.close(d)
    for dacc, dsh, want, why in (
            (READ_DATA | DELETE, SH_ALL, "SHARING_VIOLATION",
             "the parent open with DELETE, sharing all"),
            (READ_DATA | DELETE, 0, "SHARING_VIOLATION",
             "the parent open with DELETE, sharing nothing"),
            (READ_DATA | WRITE_DATA, 0, "SHARING_VIOLATION",
             "the parent open without DELETE, sharing nothing"),
            (READ_DATA | WRITE_DATA, SH_ALL, "SUCCESS",
             "the parent open without DELETE, sharing all")):
        d = c.open("rn-dir", disp=OPEN, options=DIRECTORY_FILE, share=dsh,
                   access=dacc)
        f = c.open("rn-dir\\a.txt", disp=OPEN_IF, share=0,
                   access=DELETE | READ_DATA | WRITE_DATA)
        check_st("rename in a directory, " + why,
                 c.rename(f, "rn-dir\\b.txt"), want)
        c.close(f)
        c.close(d)
        c.rm("rn-dir\\a.txt")
        c.rm("rn-dir\\b.txt")
    c.rm("rn-dir", directory=True)


def g_attrs(c):
    """Attributes a CREATE sets are kept (store dos attributes)."""
    for a in (A_READONLY, A_HIDDEN, A_SYSTEM, A_ARCHIVE, 0x100, 0x1000,
              A_NORMAL, A_DIRECTORY):
        nm = "attr-%x.txt" % a
        r = c.create(nm, disp=CREATE_D, attrs=a, access=READ_DATA)
        want = (a | A_ARCHIVE) & 0x5127
        check("CREATE with attribute 0x%x reports 0x%x" % (a, want),
              r.status == 0 and r.attrs & ~0x2000 == want,
              "%s 0x%x" % (name(r.status), getattr(r, "attrs", 0)))
        if r.status == 0:
            c.close(r.fid)
        r = c.create(nm, disp=OPEN, access=READ_ATTRIBUTES)
        check("... and again at the next open", r.status == 0 and
              r.attrs & ~0x2000 == want, "0x%x" % getattr(r, "attrs", 0))
        if r.status == 0:
            c.close(r.fid)


def g_hidden(c):
    """hide dot files: dot files are HIDDEN."""
    r = c.create(".dot", disp=OVERWRITE_IF, access=READ_DATA | DELETE,
                 options=DELETE_ON_CLOSE)
    check("a dot file is HIDDEN", r.status == 0 and r.attrs & A_HIDDEN,
          "%s 0x%x" % (name(r.status), getattr(r, "attrs", 0)))
    if r.status == 0:
        c.close(r.fid)


def g_names(c):
    """Names that are not plain names below the root are refused."""
    bad = (
        ("\\leading", "INVALID_PARAMETER"),
        ("\\..\\etc\\passwd", "INVALID_PARAMETER"),
        ("..", "OBJECT_PATH_SYNTAX_BAD"),
        ("..\\outside.txt", "OBJECT_PATH_SYNTAX_BAD"),
        ("sub\\..\\..\\outside.txt", "OBJECT_PATH_SYNTAX_BAD"),
        ("..\\..\\etc\\passwd", "OBJECT_PATH_SYNTAX_BAD"),
        # '/' separates as '\\' does (Samba, ksmbd): refused alike.
        ("/etc/passwd", "INVALID_PARAMETER"),
        ("../outside.txt", "OBJECT_PATH_SYNTAX_BAD"),
        ("a/../../outside.txt", "OBJECT_PATH_SYNTAX_BAD"),
        ("sub/./x", "OBJECT_NAME_INVALID"),
        ("x//y", "OBJECT_NAME_INVALID"),
        ("file:a/b", "OBJECT_NAME_INVALID"),
        ("sub\\.\\x", "OBJECT_NAME_INVALID"),
        ("x\\\\y", "OBJECT_NAME_INVALID"),
        ("wild*", "OBJECT_NAME_INVALID"),
        ("q?", "OBJECT_NAME_INVALID"),
        ("<gt>", "OBJECT_NAME_INVALID"),
        ("pi|pe", "OBJECT_NAME_INVALID"),
        ("quo\"te", "OBJECT_NAME_INVALID"),
        ("ctl\x01", "OBJECT_NAME_INVALID"),
        ("file:stream", "OBJECT_NAME_INVALID"),
        ("n" * 256, "OBJECT_NAME_INVALID"),
    )
    for nm, want in bad:
        r = c.create(None, raw_name=nm.encode("utf-16-le"), disp=OPEN_IF)
        check_st("name %r" % nm[:40], r.status, want)
        if r.status == 0:
            c.close(r.fid)
    for raw, what in ((b"\x00\xd8", "an unpaired high surrogate"),
                      (b"a\x00\x00\xdc", "an unpaired low surrogate"),
                      (b"a\x00\x00\x00b\x00", "an embedded NUL")):
        r = c.create(None, raw_name=raw, disp=OPEN_IF)
        check_st("name with %s" % what, r.status, "OBJECT_NAME_INVALID")
    r = c.create(None, raw_name=b"abc", disp=OPEN_IF)
    check_st("a name of an odd number of bytes", r.status,
             "INVALID_PARAMETER")
    r = c.create("", disp=OPEN, options=DIRECTORY_FILE, access=READ_DATA)
    check("the empty name is the share root, a directory",
          r.status == 0 and r.attrs & A_DIRECTORY, name(r.status))
    if r.status == 0:
        c.close(r.fid)
    r = c.create("", disp=OPEN, access=DELETE, options=DIRECTORY_FILE)
    check_st("DELETE access to the share root", r.status, "ACCESS_DENIED")
    r = c.create("slash", disp=OPEN_IF, options=DIRECTORY_FILE)
    if r.status == 0:
        c.close(r.fid)
    r = c.create("slash/f.txt", disp=CREATE_D, access=READ_DATA | DELETE)
    check_st("slash/f.txt creates f.txt in directory slash", r.status,
             "SUCCESS")
    r2 = c.create("slash\\f.txt", disp=OPEN, access=READ_ATTRIBUTES)
    check_st("... which opens as slash\\f.txt", r2.status, "SUCCESS")
    for x in (r2, r):
        if x.status == 0:
            c.close(x.fid)
    c.rm("slash/f.txt")
    c.rm("slash", directory=True)
    r = c.create("file::$DATA", disp=OVERWRITE_IF,
                 access=READ_DATA | DELETE, options=DELETE_ON_CLOSE)
    check_st("name::$DATA is the file itself", r.status, "SUCCESS")
    if r.status == 0:
        c.close(r.fid)


def symlink_error(d):
    """The target, flags and unparsed length of a Symbolic Link Error
    Response (MS-SMB2 2.2.2.2.1) in an ERROR body, or None."""
    if len(d) < 8:
        return None
    nctx, count = d[2], struct.unpack_from("<I", d, 4)[0]
    e = d[8:8 + count]
    if nctx:
        e = e[8:]		# one ERROR Context: ErrorDataLength, ErrorId
    if len(e) < 28:
        return None
    (_, tag, rtag, _, unparsed, so, sl, _, _, flags) = struct.unpack_from(
        "<IIIHHHHHHI", e)
    if tag != 0x4C4D5953 or rtag != 0xA000000C or 28 + so + sl > len(e):
        return None
    return e[28 + so:28 + so + sl].decode("utf-16-le"), flags, unparsed


def g_escape(c):
    """Symlinks in the share (made by the guest) never lead out.  A share
    that follows symlinks refuses those leading out; one that does not
    answers a symlink met last with STATUS_STOPPED_ON_SYMLINK and its
    target, for the client to resolve, as Windows does."""
    follow = os.environ.get("FOLLOW") == "1"
    last = "ACCESS_DENIED" if follow else "STOPPED_ON_SYMLINK"
    cases = (
        ("link-abs", last, "\\etc", 0),		# -> /etc
        ("link-rel", last, "..\\..\\etc", 1),	# -> ../../etc
        ("link-abs\\passwd", "ACCESS_DENIED", None, 0),
        ("link-rel\\passwd", "ACCESS_DENIED", None, 0),
        ("link-rel\\new.txt", "ACCESS_DENIED", None, 0),
        ("link-dangling", last, "\\nonexistent", 0),	# -> /nonexistent
        ("mnt\\x", "ACCESS_DENIED", None, 0),		# another filesystem
    )
    for nm, want, target, flags in cases:
        r = c.create(nm, disp=OPEN_IF, access=READ_DATA)
        check_st("%s%s" % (nm, " (following symlinks)" if follow else ""),
                 r.status, want)
        if r.status == 0:
            c.close(r.fid)
        if r.status == ST["STOPPED_ON_SYMLINK"] and target:
            check("%s: the error names the target %s" % (nm, target),
                  symlink_error(r.data) == (target, flags, 0),
                  "got %r" % (symlink_error(r.data),))
    r = c.create("link-in\\inner.txt", disp=OPEN, access=READ_DATA)
    check_st("a symlink inside the share, %s" %
             ("followed" if follow else "not followed"), r.status,
             "SUCCESS" if follow else "ACCESS_DENIED")
    if r.status == 0:
        c.close(r.fid)
    r = c.create("link-file", disp=OPEN, access=READ_DATA)
    check_st("a symlink to a file inside, %s" %
             ("followed" if follow else "left to the client"), r.status,
             "SUCCESS" if follow else "STOPPED_ON_SYMLINK")
    if r.status == 0:
        c.close(r.fid)


def g_readonly(c):
    """A read-only share: reading works, nothing changes."""
    r = c.create("README.txt", disp=OPEN, access=READ_DATA,
                 ctxs=[ctx(b"MxAc")])
    mx = struct.unpack("<II", r.ctxs[b"MxAc"])[1] if r.status == 0 else 0
    check("open for read on a read-only share; MxAc has no write rights",
          r.status == 0 and not mx & 0x000d0156, "%s 0x%x" %
          (name(r.status), mx))
    if r.status == 0:
        st, d = c.read(r.fid, 0, 100)
        check("... and reads", st == 0 and d.startswith(b"Hello"),
              name(st))
        c.close(r.fid)
    for nm, kw, what in (
            ("README.txt", dict(disp=OPEN, access=WRITE_DATA),
             "open for write"),
            ("README.txt", dict(disp=OPEN, access=DELETE), "open for delete"),
            ("README.txt", dict(disp=OVERWRITE_IF), "overwrite"),
            ("new.txt", dict(disp=CREATE_D), "create a file"),
            ("newdir", dict(disp=CREATE_D, options=DIRECTORY_FILE),
             "create a directory")):
        r = c.create(nm, **kw)
        check_st("%s on a read-only share" % what, r.status, "ACCESS_DENIED")
    r = c.create("README.txt", disp=OPEN, access=MAXIMUM_ALLOWED)
    check("MAXIMUM_ALLOWED on a read-only share opens", r.status == 0,
          name(r.status))
    if r.status == 0:
        st, _ = c.write(r.fid, 0, b"x")
        check_st("... and cannot write", st, "ACCESS_DENIED")
        c.close(r.fid)


def g_masks(c):
    """Creates for the masks check done from the guest."""
    for nm, opt in (("masked.txt", 0), ("masked.dir", DIRECTORY_FILE)):
        r = c.create(nm, disp=OVERWRITE_IF if not opt else OPEN_IF,
                     options=opt)
        check_st("create %s" % nm, r.status, "SUCCESS")
        if r.status == 0:
            c.close(r.fid)
    r = c.create("vetoed.tmp", disp=OPEN_IF)
    check_st("create a vetoed name", r.status, "OBJECT_NAME_NOT_FOUND")
    r = c.create("secret.d\\x", disp=OPEN, access=READ_DATA)
    check_st("open below a vetoed directory", r.status,
             "OBJECT_NAME_NOT_FOUND")


def g_maxopen(c):
    """max open files (10 in the test configuration)."""
    fids = []
    st = 0
    for i in range(12):
        r = c.create("many-%d" % i, disp=OPEN_IF)
        if r.status:
            st = r.status
            break
        fids.append(r.fid)
    check("the 11th open fails with TOO_MANY_OPENED_FILES",
          len(fids) == 10 and st == ST["TOO_MANY_OPENED_FILES"],
          "%d opens, then %s" % (len(fids), name(st)))
    c.close(fids.pop())
    r = c.create("many-x", disp=OPEN_IF)
    check_st("after a close there is room again", r.status, "SUCCESS")
    for f in fids:
        c.close(f)
    if r.status == 0:
        c.close(r.fid)


def dacl_sd(sid, mask):
    """A self-relative security descriptor: only a DACL, one ACE
    allowing @mask to @sid (a well-known SID S-1-5-@sid)."""
    sid_b = bytes([1, 1, 0, 0, 0, 0, 0, 5]) + struct.pack("<I", sid)
    ace = struct.pack("<BBHI", 0, 0, 8 + len(sid_b), mask) + sid_b
    acl = struct.pack("<BBHHH", 2, 0, 8 + len(ace), 1, 0) + ace
    return struct.pack("<BBHIIII", 1, 0, 0x8004, 0, 0, 0, 20) + acl


def g_maxbits(c):
    """MAXIMUM_ALLOWED with each other access bit, as smbtorture's
    maximum_allowed asks, on a file the user owns whose DACL grants
    Authenticated Users SEC_RIGHTS_FILE_READ, in a directory that lets
    the user delete.  With acl_xattr (ACL=1) the DACL is the descriptor
    and a bit is granted as MS-DTYP 2.5.3.2 and MS-FSA 2.1.5.1.2.1 say:
    the DACL's bits, READ_CONTROL and WRITE_DAC to the owner, DELETE
    through the parent's DELETE_CHILD; GENERIC_EXECUTE maps to
    FILE_EXECUTE, which the DACL does not grant (the test expects it
    granted).  Without acl_xattr the DACL becomes mode 0444, and access
    comes from the mode (design.md, "Access"): EXECUTE goes with read,
    the owner may change the mode, owner and times."""
    acl = os.environ.get("ACL") == "1"
    ok = {0, 3, 7, 16, 17, 18, 20, 31}
    if not acl:
        ok |= {5, 8, 19, 29}
    maximal = 0x170089 if acl else 0x1F01A9
    c.rm("maxbits")
    r = c.create("maxbits", access=FULL, disp=CREATE_D, attrs=A_NORMAL)
    check_st("create maxbits", r.status, "SUCCESS")
    if r.status:
        return
    st = c.setinfo(r.fid, 0, dacl_sd(11, 0x120089), info_type=3, extra=4)
    check_st("its DACL: Authenticated Users SEC_RIGHTS_FILE_READ", st,
             "SUCCESS")
    c.close(r.fid)
    r = c.create("maxbits", access=MAXIMUM_ALLOWED, disp=OPEN,
                 ctxs=[ctx(b"MxAc")])
    mx = struct.unpack("<II", r.ctxs[b"MxAc"])[1] if r.status == 0 else 0
    check("MAXIMUM_ALLOWED opens; maximal access 0x%x" % maximal,
          r.status == 0 and mx == maximal, "%s 0x%x" % (name(r.status), mx))
    if r.status == 0:
        c.close(r.fid)
    bad = []
    for i in range(32):
        mask = MAXIMUM_ALLOWED | (1 << i)
        want = ("SUCCESS" if i in ok or i == 25 else
                "PRIVILEGE_NOT_HELD" if i == 24 else "ACCESS_DENIED")
        r = c.create("maxbits", access=mask, disp=OPEN)
        if r.status == 0:
            c.close(r.fid)
        if r.status != ST[want]:
            bad.append("0x%08x: %s, want %s" % (mask, name(r.status), want))
    check("MAXIMUM_ALLOWED | each bit: %s" %
          ("as the DACL grants" if acl else "as the mode grants"),
          not bad, "; ".join(bad))
    c.rm("maxbits")
    r = c.create("maxbits", access=READ_ATTRIBUTES, disp=OPEN)
    check_st("... and DELETE removes it", r.status, "OBJECT_NAME_NOT_FOUND")



def owner_dacl_sd(c, fid, mask):
    """A DACL-only descriptor allowing @mask to the owner of @fid."""
    # QUERY_INFO of the security information OWNER_SECURITY_INFORMATION.
    st, d = c.raw(QUERY_INFO, struct.pack("<HBBIHHIII16s", 41, 3, 0, 4096,
                                          0, 0, 0, 1, 0, fid))
    if st:
        return None
    off, ln = struct.unpack_from("<HI", d, 2)
    sd = d[off - 64:off - 64 + ln]
    off = struct.unpack_from("<I", sd, 4)[0]
    sid = sd[off:off + 8 + 4 * sd[off + 1]]
    ace = struct.pack("<BBHI", 0, 0, 8 + len(sid), mask) + sid
    acl = struct.pack("<BBHHH", 2, 0, 8 + len(ace), 1, 0) + ace
    return struct.pack("<BBHIIII", 1, 0, 0x8004, 0, 0, 0, 20) + acl


def mxac_open(c, nm, access, **kw):
    """(status, MxAc mask, granted access) of an open with MxAc."""
    r = c.create(nm, access=access, ctxs=[ctx(b"MxAc")], **kw)
    if r.status:
        return r.status, None, None
    mx = struct.unpack("<II", r.ctxs[b"MxAc"]) if b"MxAc" in r.ctxs \
        else (None, None)
    st, d = c.queryinfo(r.fid, 8, 4)	# FileAccessInformation
    granted = struct.unpack("<I", d)[0] if st == 0 else None
    c.close(r.fid)
    return 0, mx[1] if mx[0] == 0 else None, granted


def g_mxac(c):
    """The maximal-access answer and read-only files as Samba 4.17 and
    MS-SMB2 3.3.5.9.5 give them (measured in one boot beside Samba and
    ksmbd, testing.md "NT ACLs"): MxAc is what the object's descriptor
    (ACL=1) or mode grants the user, whatever the open asked for and
    whether or not it was granted; FILE_ATTRIBUTE_READONLY keeps the data
    from opens (WRITE_DATA and APPEND_DATA refused, MAXIMUM_ALLOWED
    without them, no overwrite, no delete on close) but not from MxAc.
    With ACL=1 a DACL granting the owner only READ_DATA also grants no
    SYNCHRONIZE."""
    acl = os.environ.get("ACL") == "1"
    c.rm("mxac.txt")
    r = c.create("mxac.txt", access=0x000E0000, disp=CREATE_D,
                 attrs=A_NORMAL)
    check_st("create mxac.txt", r.status, "SUCCESS")
    if r.status:
        return
    sd = owner_dacl_sd(c, r.fid, READ_DATA)
    st = c.setinfo(r.fid, 0, sd or b"", info_type=3, extra=4)
    check_st("its DACL: the owner READ_DATA", st, "SUCCESS")
    c.close(r.fid)
    # The descriptor's answer: READ_DATA, READ_ATTRIBUTES, READ_CONTROL
    # and WRITE_DAC (the owner's), DELETE (the parent's DELETE_CHILD);
    # without acl_xattr the DACL became mode 0400 and the mode answers.
    want = 0x00070081 if acl else None
    st, base, _ = mxac_open(c, "mxac.txt", READ_ATTRIBUTES, disp=OPEN)
    check("MxAc of an open for READ_ATTRIBUTES%s" %
          (": 0x%08x" % want if want else ""),
          st == 0 and base is not None and (want is None or base == want),
          "%s 0x%x" % (name(st), base or 0))
    for acc, what in ((READ_DATA, "READ_DATA"), (0x20000, "READ_CONTROL"),
                      (MAXIMUM_ALLOWED, "MAXIMUM_ALLOWED"),
                      (DELETE, "DELETE"), (SYNCHRONIZE, "SYNCHRONIZE")):
        st, mx, granted = mxac_open(c, "mxac.txt", acc, disp=OPEN)
        if acl and acc == SYNCHRONIZE:
            check_st("open for SYNCHRONIZE, which the DACL does not grant",
                     st, "ACCESS_DENIED")
            continue
        check("open for %s: MxAc 0x%08x, whatever was asked" %
              (what, base or 0), st == 0 and mx == base,
              "%s, MxAc 0x%x" % (name(st), mx or 0))
    for acc, what in ((WRITE_DATA, "WRITE_DATA"),
                      (MAXIMUM_ALLOWED | WRITE_DATA,
                       "MAXIMUM_ALLOWED | WRITE_DATA")):
        st, _, _ = mxac_open(c, "mxac.txt", acc, disp=OPEN)
        check_st("open for %s with MxAc, not granted" % what, st,
                 "ACCESS_DENIED")
    st, _, _ = mxac_open(c, "mxac.txt", READ_DATA, disp=OVERWRITE_IF)
    check_st("OVERWRITE_IF where the DACL grants no WRITE_DATA", st,
             "ACCESS_DENIED")
    c.rm("mxac.txt")

    # FILE_ATTRIBUTE_READONLY.
    c.rm("mxro.txt")
    r = c.create("mxro.txt", access=FULL, disp=CREATE_D, attrs=A_READONLY)
    check_st("create mxro.txt read-only", r.status, "SUCCESS")
    if r.status:
        return
    c.write(r.fid, 0, b"kept")
    c.close(r.fid)
    st, base, _ = mxac_open(c, "mxro.txt", READ_ATTRIBUTES, disp=OPEN)
    check("a read-only file's MxAc keeps WRITE_DATA and APPEND_DATA "
          "(the descriptor grants them)", st == 0 and base is not None and
          base & (WRITE_DATA | APPEND_DATA) == WRITE_DATA | APPEND_DATA,
          "%s 0x%x" % (name(st), base or 0))
    st, mx, granted = mxac_open(c, "mxro.txt", MAXIMUM_ALLOWED, disp=OPEN)
    check("MAXIMUM_ALLOWED opens it without WRITE_DATA and APPEND_DATA; "
          "MxAc as before", st == 0 and mx == base and granted is not None
          and granted == base & ~(WRITE_DATA | APPEND_DATA),
          "%s, MxAc 0x%x, granted 0x%x" % (name(st), mx or 0, granted or 0))
    for acc, what in ((WRITE_DATA, "WRITE_DATA"), (APPEND_DATA, "APPEND_DATA"),
                      (GENERIC_ALL, "GENERIC_ALL")):
        st, _, _ = mxac_open(c, "mxro.txt", acc, disp=OPEN)
        check_st("open a read-only file for %s" % what, st, "ACCESS_DENIED")
    for acc, what in ((0x100, "WRITE_ATTRIBUTES"), (0x10, "WRITE_EA"),
                      (DELETE, "DELETE")):
        st, _, granted = mxac_open(c, "mxro.txt", acc, disp=OPEN)
        check("open a read-only file for %s" % what,
              st == 0 and granted == acc, "%s" % name(st))
    for disp, what in ((SUPERSEDE, "SUPERSEDE"), (OVERWRITE, "OVERWRITE"),
                       (OVERWRITE_IF, "OVERWRITE_IF")):
        for acc in (READ_DATA, GENERIC_ALL):
            r = c.create("mxro.txt", access=acc, disp=disp,
                         attrs=A_READONLY)
            if r.status == 0:
                c.close(r.fid)
            check_st("%s of a read-only file (access 0x%x) refused, as on "
                     "Windows" % (what, acc), r.status, "ACCESS_DENIED")
    r = c.create("mxro.txt", access=DELETE, disp=OPEN,
                 options=DELETE_ON_CLOSE)
    check_st("delete on close of a read-only file", r.status,
             "CANNOT_DELETE")
    r = c.create("mxro.txt", access=READ_DATA, disp=OPEN)
    st, d = c.read(r.fid, 0, 4) if r.status == 0 else (r.status, b"")
    check("its data is still there", st == 0 and d == b"kept", name(st))
    if r.status == 0:
        c.close(r.fid)
    r = c.create("mxro.txt", access=0x100, disp=OPEN)
    if r.status == 0:
        c.set_attrs(r.fid, A_NORMAL)
        c.close(r.fid)
    c.rm("mxro.txt")

def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    user, password = (sys.argv[4], sys.argv[5]) if len(sys.argv) > 5 \
        else ("", "")
    c = Client(port, share, user, password)
    globals()["g_" + group.replace("-", "_")](c)
    c.conn.logoff()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
