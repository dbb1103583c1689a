#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpora of the fuzz targets (corpus/NAME/*): well-formed
messages of every kind the wire decoders handle, built with the selftests'
raw SMB2 client.  Run it again when a decoder learns a new message."""

import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "../selftests/host"))
from smb2raw import (ECHO, FLAG_RELATED, IOCTL, NEGOTIATE,  # noqa: E402
                     SESSION_SETUP, TREE_CONNECT, header, list_ctx,
                     negotiate_body, preauth_ctx, smb1_negotiate)


def write(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    all_d = [0x0202, 0x0210, 0x0300, 0x0302, 0x0311]
    ctxs = [preauth_ctx(), list_ctx(2, [1, 2, 3, 4]), list_ctx(8, [0, 1, 2]),
            (5, "server".encode("utf-16-le")), (3, struct.pack(
                "<HHIH", 1, 0, 0, 1))]
    write("smb2_msg", "negotiate-311", header(NEGOTIATE, 0) +
          negotiate_body(all_d, ctxs))
    write("smb2_msg", "negotiate-posix", header(NEGOTIATE, 0) +
          negotiate_body([0x0311], [preauth_ctx(), (0x100, b"\1" * 16 +
                                                    POSIX_TAG)]))
    write("smb2_msg", "negotiate-21", header(NEGOTIATE, 0) +
          negotiate_body([0x0202, 0x0210]))
    write("smb2_msg", "smb1-negotiate", smb1_negotiate(
        ["NT LM 0.12", "SMB 2.002", "SMB 2.???"]))
    blob = b"NTLMSSP\0\x01\0\0\0" + b"\x07\x82\x08\xa2" + b"\0" * 16
    write("smb2_msg", "session-setup", header(SESSION_SETUP, 1) +
          struct.pack("<HBBIIHHQ", 25, 0, 1, 0, 0, 88, len(blob), 0) + blob)
    path = "\\\\127.0.0.1\\demo".encode("utf-16-le")
    write("smb2_msg", "tree-connect", header(TREE_CONNECT, 2, session=1) +
          struct.pack("<HHHH", 9, 0, 72, len(path)) + path)
    vneg = struct.pack("<I16sHH", 0x7f, b"g" * 16, 1, 2) + \
        struct.pack("<HH", 0x0300, 0x0302)
    write("smb2_msg", "ioctl-vneg", header(IOCTL, 3, session=1, tree=1) +
          struct.pack("<HHIQQIIIIIIII", 57, 0, 0x00140204, ~0 & (2**64 - 1),
                      ~0 & (2**64 - 1), 120, len(vneg), 0, 0, 0, 24, 1, 0) +
          vneg)
    echo = struct.pack("<HH", 4, 0)
    write("smb2_msg", "compound-echo",
          header(ECHO, 4, next_cmd=72) + echo + b"\0" * 4 +
          header(ECHO, 5, flags=FLAG_RELATED) + echo)
    write("smb2_msg", "transform", b"\xfdSMB" + b"\0" * 32 +
          struct.pack("<IHHQ", 68, 0, 1, 1) + header(ECHO, 6) + echo)
    write("seqwin", "grants-and-ids", bytes([64, 1, 10, 0, 0, 0, 0,
                                             2, 1, 0, 10, 2, 0, 0]))
    write("seqwin", "skipping", bytes([16, 1, 16, 0] + [2, 3, 0] * 20))
    # chseq: the open's sequence, then (op, sequence) steps: op bit 0
    # ends a running request, bit 1 is the replay flag.
    write("chseq", "bump-and-replay", bytes([0, 0, 0, 0, 0, 0, 0, 0,
                                             0, 1, 0, 2, 1, 0, 1, 0, 0,
                                             3, 0, 0, 2, 1, 0]))
    file_seeds()
    info_seeds()
    file3_seeds()
    cache_seeds()
    rpc_seeds()
    config_seeds()
    snap_seeds()
    http_seeds()
    aapl_seeds()


# SMB2_CREATE_TAG_POSIX (kmod/wire/posix.h).
POSIX_TAG = bytes.fromhex("93AD25509CB411E7B42383DE968BCD7C")


def posix_create_ctx(mode):
    """The POSIX create context: a 16-byte name, 4 bytes of mode."""
    return struct.pack("<IHHHHI", 0, 16, 16, 0, 32, 4) + POSIX_TAG + \
        struct.pack("<I", mode)


def http_seeds():
    """Requests to smbsrvd's metrics endpoint, and listen addresses."""
    write("http", "get", b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    write("http", "head-lf", b"HEAD /metrics?a=b HTTP/1.0\n\n")
    write("http", "post", b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
    write("http", "listen6", b"[::1]:9922")


def create_ctx(tag, data, last):
    """One create context (MS-SMB2 2.2.13.2), padded unless it is last."""
    c = struct.pack("<IHHHHI", 0, 16, len(tag), 0, 24 if data else 0,
                    len(data)) + tag + b"\0" * (8 - len(tag) % 8 or 8)
    c = c[:24] + data
    if not last:
        c += b"\0" * (-len(c) % 8)
        c = struct.pack("<I", len(c)) + c[4:]
    return c


def create_body(name, ctxs=b"", disposition=3, options=0x40):
    n = name.encode("utf-16-le")
    body = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 9, 2, 0, 0, 0x12019F, 0x80,
                       7, disposition, options, 120, len(n), 0, 0) + n
    if ctxs:
        body += b"\0" * (-(64 + len(body)) % 8)
        off = 64 + len(body)
        body = body[:48] + struct.pack("<II", off, len(ctxs)) + body[56:]
        body += ctxs
    return body or b"\0"


def file_seeds():
    """CREATE/CLOSE/FLUSH/READ/WRITE PDUs and DOS attribute xattrs."""
    ea = struct.pack("<IBBH", 0, 0, 3, 2) + b"KEY\0v1"
    ctxs = (create_ctx(b"MxAc", b"", False) +
            create_ctx(b"QFid", b"", False) +
            create_ctx(b"ExtA", ea, False) +
            create_ctx(b"AlSi", struct.pack("<Q", 1 << 20), False) +
            create_ctx(b"DH2Q", b"\0" * 32, False) +
            create_ctx(b"RqLs", b"\0" * 32, True))
    write("file", "create-contexts", header(5, 5, session=1, tree=1) +
          create_body("dir\\file.txt", ctxs))
    write("file", "create-posix", header(5, 5, session=1, tree=1) +
          create_body("dir/Name", create_ctx(b"MxAc", b"", False) +
                      posix_create_ctx(0o100644)))
    write("file", "create-stream", header(5, 6, session=1, tree=1) +
          create_body("file:stream:$DATA"))
    write("file", "create-slash", header(5, 7, session=1, tree=1) +
          create_body("dir/sub\\f/x:s:$DATA"))
    write("file", "create-root", header(5, 7, session=1, tree=1) +
          create_body("", disposition=1, options=1))
    fid = struct.pack("<QQ", 1, 1)
    write("file", "close", header(6, 8, session=1, tree=1) +
          struct.pack("<HHI", 24, 1, 0) + fid)
    write("file", "flush", header(7, 9, session=1, tree=1) +
          struct.pack("<HHI", 24, 0, 0) + fid)
    write("file", "read", header(8, 10, session=1, tree=1) +
          struct.pack("<HBBIQ16sIIIHHB", 49, 80, 0, 4096, 0, fid, 1, 0, 0, 0,
                      0, 0))
    write("file", "write", header(9, 11, session=1, tree=1) +
          struct.pack("<HHIQ16sIIHHI", 49, 112, 5, 2**64 - 1, fid, 0, 0, 0,
                      0, 1) + b"hello")
    write("file", "dosattr-v4", b"\0\0" + struct.pack("<HHHIIQQ", 4, 4, 0,
                                                      0x51, 0x20, 1, 1))
    write("file", "dosattr-v5", b"0x20\0\0" + struct.pack(
        "<HHHIIQ", 5, 5, 0, 0x11, 0x20, 1))
    write("file", "xattr-list", b"user.DOSATTRIB\0user.DosStream.s:$DATA\0"
          b"user.DosStream.Zone.Identifier:$data\0security.selinux\0")


def sid(auth, *subs):
    return struct.pack("<BB", 1, len(subs)) + b"\0" * 5 + bytes([auth]) + \
        b"".join(struct.pack("<I", x) for x in subs)


def ace(kind, flags, mask, s):
    return struct.pack("<BBHI", kind, flags, 8 + len(s), mask) + s


def security_descriptor():
    """Owner, group and a DACL with deny and allow ACEs."""
    owner, group = sid(22, 1, 1000), sid(22, 2, 100)
    aces = (ace(1, 0, 0x6, owner) + ace(0, 0, 0x1f01ff, owner) +
            ace(0, 3, 0x1200a9, group) + ace(0, 0, 0x1200a9, sid(1, 0)) +
            ace(0, 0, 0, sid(5, 88, 3, 0o640)))
    dacl = struct.pack("<BBHHH", 2, 0, 8 + len(aces), 5, 0) + aces
    off_owner = 20
    off_group = off_owner + len(owner)
    off_dacl = off_group + len(group)
    return struct.pack("<BBHIIII", 1, 0, 0x8004, off_owner, off_group, 0,
                       off_dacl) + owner + group + dacl


def info_seeds():
    """QUERY_INFO, SET_INFO and QUERY_DIRECTORY PDUs; names; an SD."""
    fid = struct.pack("<QQ", 1, 1)
    hdr = {"session": 1, "tree": 1}
    getea = struct.pack("<IB", 12, 5) + b"EAONE\0\0\0" + \
        struct.pack("<IB", 0, 3) + b"TWO\0"
    write("info", "query-fullea", header(16, 12, **hdr) +
          struct.pack("<HBBIHHIII16s", 41, 1, 15, 4096, 104, 0, len(getea),
                      0, 1, fid) + getea)
    write("info", "query-all", header(16, 13, **hdr) +
          struct.pack("<HBBIHHIII16s", 41, 1, 18, 4096, 0, 0, 0, 0, 0, fid) +
          b"\0")
    write("info", "query-security", header(16, 14, **hdr) +
          struct.pack("<HBBIHHIII16s", 41, 3, 0, 4096, 0, 0, 0, 7, 0, fid) +
          b"\0")

    def set_info(mid, kind, cls, buf, extra=0):
        return header(17, mid, **hdr) + struct.pack(
            "<HBBIHHI16s", 33, kind, cls, len(buf), 96, 0, extra, fid) + buf

    write("info", "set-basic", set_info(15, 1, 4, struct.pack(
        "<QQQQII", 1, 2**64 - 1, 2**64 - 2, 0, 0x22, 0)))
    name = "dir\\new name.txt".encode("utf-16-le")
    write("info", "set-rename", set_info(16, 1, 10, struct.pack(
        "<B7xQI", 1, 0, len(name)) + name))
    write("info", "set-link", set_info(17, 1, 11, struct.pack(
        "<B7xQI", 0, 0, len(name)) + name))
    ea = struct.pack("<IBBH", 0, 0, 3, 2) + b"KEY\0v1"
    write("info", "set-fullea", set_info(18, 1, 15, ea))
    write("info", "set-disposition-ex", set_info(19, 1, 64,
                                                 struct.pack("<I", 3)))
    write("info", "set-security", set_info(20, 3, 0, security_descriptor(),
                                           7))
    write("info", "security-descriptor", security_descriptor())

    def qdir(mid, cls, flags, pattern):
        p = pattern.encode("utf-16-le")
        return header(14, mid, **hdr) + struct.pack(
            "<HBBI16sHHI", 33, cls, flags, 0, fid, 96 if p else 0, len(p),
            65536) + (p or b"\0")

    write("info", "qdir-star", qdir(21, 37, 1, "*"))
    write("info", "qdir-dos", qdir(22, 3, 2, '<.t>t"'))
    write("info", "qdir-names", qdir(23, 12, 0x10, "a?c*"))
    write("info", "name-utf8", "na\u00efve \U0001f600.txt".encode())


def ioctl_body(code, data, fid=b"\1" * 16, max_out=65536):
    """An IOCTL request body (MS-SMB2 2.2.31) carrying @data."""
    return struct.pack("<HHI16sIIIIIIII", 57, 0, code, fid, 120, len(data),
                       0, 0, 0, max_out, 1, 0) + (data or b"\0")


def file3_seeds():
    """LOCK, CHANGE_NOTIFY and file-system IOCTL PDUs."""
    fid = struct.pack("<QQ", 1, 1)
    els = struct.pack("<QQII", 100, 50, 0x12, 0) + \
        struct.pack("<QQII", 0, 0, 0x11, 0) + \
        struct.pack("<QQII", 2**64 - 1, 1, 0x4, 0)
    write("file3", "lock", header(10, 12, session=1, tree=1) +
          struct.pack("<HHI16s", 48, 3, 0, fid) + els)
    write("file3", "notify", header(15, 13, session=1, tree=1) +
          struct.pack("<HHI16sII", 32, 1, 4096, fid, 0xfff, 0))
    chunks = struct.pack("<QQII", 0, 4096, 65536, 0) * 2
    write("file3", "copychunk", header(11, 14, session=1, tree=1) +
          ioctl_body(0x1440f2, b"k" * 24 + struct.pack("<II", 2, 0) +
                     chunks))
    write("file3", "zero-data", header(11, 15, session=1, tree=1) +
          ioctl_body(0x980c8, struct.pack("<QQ", 4096, 8192)))
    target = "..\\dir\\target".encode("utf-16-le")
    sym = struct.pack("<HHHHI", len(target), len(target), 0, len(target),
                      1) + target + target
    write("file3", "set-reparse", header(11, 16, session=1, tree=1) +
          ioctl_body(0x900a4, struct.pack("<IHH", 0xa000000c, len(sym), 0) +
                     sym))
    for name, kind, dev in (("chr", 0x524843, struct.pack("<II", 1, 3)),
                            ("fifo", 0x4F464946, b"")):
        nfs = struct.pack("<Q", kind) + dev
        write("file3", "set-reparse-nfs-" + name,
              header(11, 17, session=1, tree=1) +
              ioctl_body(0x900a4, struct.pack("<IHH", 0x80000014, len(nfs),
                                              0) + nfs))
    write("file3", "utf8-names", "dir/\u00e9t\u00e9/\U0001F600".encode())


def snap_seeds():
    """shadow:format, NUL, then a snapshot name, a path or a TWrp FILETIME."""
    gmt = b"@GMT-%Y.%m.%d-%H.%M.%S"
    write("snap", "gmt-name", gmt + b"\0@GMT-2024.01.02-03.04.05")
    write("snap", "path-token",
          b"snap_%F_%T\0dir/@GMT-2024.01.02-03.04.05/file")
    write("snap", "epoch-twrp", b"%s\0" + struct.pack(
        "<Q", 116444736000000000 + 1704164645 * 10000000))


def cache_seeds():
    """Lease and durable handle CREATEs, OPLOCK_BREAK acknowledgements."""
    key = bytes(range(1, 17))
    lease_v1 = key + struct.pack("<IIQ", 7, 0, 0)
    lease_v2 = lease_v1 + bytes(range(17, 33)) + struct.pack("<HH", 3, 0)
    lease_v2 = lease_v2[:20] + struct.pack("<I", 4) + lease_v2[24:]
    dh2q = struct.pack("<IIQ", 60000, 0, 0) + b"G" * 16
    write("cache", "create-lease-v1-dhnq", header(5, 5, session=1, tree=1) +
          create_body("a.txt", create_ctx(b"DHnQ", b"\0" * 16, False) +
                      create_ctx(b"RqLs", lease_v1, True)))
    write("cache", "create-lease-v2-dh2q", header(5, 6, session=1, tree=1) +
          create_body("a.txt", create_ctx(b"RqLs", lease_v2, False) +
                      create_ctx(b"DH2Q", dh2q, True)))
    fid = struct.pack("<QQ", 7, 9)
    write("cache", "create-dhnc", header(5, 7, session=1, tree=1) +
          create_body("a.txt", create_ctx(b"DHnC", fid, True)))
    write("cache", "create-dh2c", header(5, 8, session=1, tree=1) +
          create_body("a.txt", create_ctx(b"DH2C", fid + b"G" * 16 +
                                          struct.pack("<I", 0), True)))
    write("cache", "oplock-ack", header(0x12, 9, session=1, tree=1) +
          struct.pack("<HBBI", 24, 1, 0, 0) + fid)
    write("cache", "lease-ack", header(0x12, 10, session=1, tree=1) +
          struct.pack("<HHI", 36, 0, 0) + key + struct.pack("<IQ", 3, 0))
    write("cache", "rule-steps", bytes([0, 3, 1, 3, 0, 0, 1, 1, 2, 7, 3, 1,
                                        4, 1, 5, 0xff, 6, 7, 0x2e, 7]))


def rpc_seeds():
    """impacket's recorded pipe exchanges (tests/unit/data/rpc), as what
    the client wrote: flags (1: wkssvc, 2: admin), chunk size, PDUs."""
    d = os.path.join(here, "../unit/data/rpc")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".txt"):
            continue
        with open(os.path.join(d, f)) as rec:
            pdus = b"".join(bytes.fromhex(line[2:].strip()) for line in rec
                            if line.startswith("> "))
        flags = (1 if f.startswith("wksta") else 0) | \
            (2 if "admin" in f else 0)
        name = f[:-4]
        write("rpc", name, bytes([flags, 0]) + pdus)
        write("rpc", name + "-split", bytes([flags, 7]) + pdus)


def config_seeds():
    """The unit tests' configuration files, ksmbd's and Samba's styles."""
    d = os.path.join(here, "../unit/data")
    for sub in ("", "corpus", "rpc"):
        for f in sorted(os.listdir(os.path.join(d, sub))):
            if f.endswith(".conf"):
                with open(os.path.join(d, sub, f), "rb") as conf:
                    write("config", (sub + "-" if sub else "") + f,
                          conf.read())


def aapl_seeds():
    """A selector byte, then an AAPL context, an AfpInfo write, a stored
    AfpInfo, an AppleDouble blob (file size first), an Info.plist or a
    model string."""
    write("aapl", "server-query", b"\0" + struct.pack("<QQQ", 1, 7, 0xd))
    afp = struct.pack(">IIII", 0x41465000, 0x00000100, 0, 0x80000000) + \
        b"SMB,OLE!" + b"\0" * 36
    write("aapl", "afpinfo-write", b"\1" + struct.pack("<Q", 0) + afp)
    write("aapl", "afpinfo-stored-samba", b"\2" + afp + b"\0")
    meta = bytearray(402)
    struct.pack_into(">IIH", meta, 0, 0x00051607, 0x00020000, 0)
    struct.pack_into(">H", meta, 24, 2)
    struct.pack_into(">III", meta, 26, 9, 122, 32)
    struct.pack_into(">III", meta, 38, 8, 354, 16)
    meta[122:130] = b"BARRFOOO"
    write("aapl", "netatalk-meta", b"\3" + struct.pack("<I", 402) + meta)
    name = b"foo:bar\0"
    hoff = 50 + 34
    start = (hoff + 36 + 3 & ~3) + 11 + len(name)
    total = start + 3
    dot = bytearray(total)
    struct.pack_into(">II", dot, 0, 0x00051607, 0x00020000)
    dot[8:24] = b"Mac OS X        "
    struct.pack_into(">H", dot, 24, 2)
    struct.pack_into(">III", dot, 26, 9, 50, total - 50)
    struct.pack_into(">III", dot, 38, 2, total, 5)
    dot[50:58] = b"TESTSLOW"
    struct.pack_into(">IIIII", dot, hoff, 0x41545452, 0, total, start, 3)
    struct.pack_into(">H", dot, hoff + 34, 1)
    e = hoff + 36 + 3 & ~3
    struct.pack_into(">IIHB", dot, e, start, 3, 0, len(name))
    dot[e + 11:e + 11 + len(name)] = name
    dot[start:total] = b"baz"
    write("aapl", "osx-dot-und", b"\4" + struct.pack("<I", total + 5) +
          bytes(dot) + b"rsrc!")
    write("aapl", "info-plist", b"\5<dict>\n\t<key>band-size</key>\n"
          b"\t<integer>8388608</integer>\n</dict>\n")
    write("aapl", "model", b"\6MacSamba")


if __name__ == "__main__":
    main()
