# SPDX-License-Identifier: GPL-2.0-or-later
"""A raw SMB2 client for selftests: builds PDUs byte by byte so tests can
send what real clients never would (malformed, out of order, oversized)
and check what the server answers, or that it hangs up."""

import socket
import struct

SMB2_MAGIC = b"\xfeSMB"
NEGOTIATE, SESSION_SETUP, LOGOFF, TREE_CONNECT, TREE_DISCONNECT = 0, 1, 2, 3, 4
IOCTL, CANCEL, ECHO = 0x0B, 0x0C, 0x0D
FLAG_RESPONSE, FLAG_ASYNC, FLAG_RELATED, FLAG_SIGNED = 1, 2, 4, 8

STATUS = {
    "SUCCESS": 0,
    "PENDING": 0x103,
    "INVALID_PARAMETER": 0xC000000D,
    "MORE_PROCESSING_REQUIRED": 0xC0000016,
    "ACCESS_DENIED": 0xC0000022,
    "NOT_SUPPORTED": 0xC00000BB,
    "USER_SESSION_DELETED": 0xC0000203,
    "NO_LOGON_SERVERS": 0xC000005E,
    "LOGON_FAILURE": 0xC000006D,
    "REQUEST_NOT_ACCEPTED": 0xC00000D0,
    "NO_PREAUTH_OVERLAP": 0xC05D0000,
}


def header(cmd, mid, credits=1, charge=1, flags=0, next_cmd=0,
           session=0, tree=0):
    return struct.pack("<4sHHIHHIIQIIQ16s", SMB2_MAGIC, 64, charge, 0, cmd,
                       credits, flags, next_cmd, mid, 0xFEFF, tree, session,
                       b"\0" * 16)


def negotiate_body(dialects, contexts=None, secmode=1, caps=0x7F,
                   guid=b"smbsrv-selftest!"):
    """NEGOTIATE request body; contexts: list of (type, data) for 3.1.1."""
    fixed = struct.pack("<HHHHI16sIHH", 36, len(dialects), secmode, 0, caps,
                        guid, 0, 0, 0)
    body = fixed + b"".join(struct.pack("<H", d) for d in dialects)
    if contexts:
        pad = (-(64 + len(body))) % 8
        body += b"\0" * pad
        off = 64 + len(body)
        body = body[:28] + struct.pack("<IH", off, len(contexts)) + body[34:]
        for i, (ctype, data) in enumerate(contexts):
            if i:
                body += b"\0" * ((-(64 + len(body))) % 8)
            body += struct.pack("<HHI", ctype, len(data), 0) + data
    return body


def preauth_ctx(algs=(1,), salt=b"\x11" * 32):
    return (1, struct.pack("<HH", len(algs), len(salt)) +
            b"".join(struct.pack("<H", a) for a in algs) + salt)


def list_ctx(ctype, ids):
    return (ctype, struct.pack("<H", len(ids)) +
            b"".join(struct.pack("<H", i) for i in ids))


def smb1_negotiate(dialects):
    data = b"".join(b"\x02" + d.encode() + b"\0" for d in dialects)
    hdr = b"\xffSMB" + bytes([0x72]) + b"\0" * 4 + bytes([0x18]) + \
        struct.pack("<H", 0xC853) + b"\0" * 12 + struct.pack("<HHHH", 0xFFFF,
                                                             0xFEFF, 0, 0)
    return hdr + b"\0" + struct.pack("<H", len(data)) + data


class Response:
    def __init__(self, pdu):
        (self.magic, self.size, self.charge, self.status, self.command,
         self.credits, self.flags, self.next, self.mid) = struct.unpack(
            "<4sHHIHHIIQ", pdu[:32])
        self.async_id = struct.unpack("<Q", pdu[32:40])[0]
        self.tree_id = struct.unpack("<I", pdu[36:40])[0]
        self.session_id = struct.unpack("<Q", pdu[40:48])[0]
        self.signature = pdu[48:64]
        self.pdu = pdu
        self.body = pdu[64:]

    def __repr__(self):
        return "<cmd %d mid %d status %#x credits %d flags %#x>" % (
            self.command, self.mid, self.status, self.credits, self.flags)


class Conn:
    def __init__(self, port, host="127.0.0.1", timeout=30):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.mid = 0

    def close(self):
        self.sock.close()

    def send_frame(self, msg, first=b"\0"):
        n = len(msg)
        self.sock.sendall(first + bytes([n >> 16 & 0xFF, n >> 8 & 0xFF,
                                         n & 0xFF]) + msg)

    def recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError("connection closed")
            buf += chunk
        return buf

    def recv_frame(self):
        hdr = self.recv_exact(4)
        n = hdr[1] << 16 | hdr[2] << 8 | hdr[3]
        return self.recv_exact(n)

    def recv(self):
        """The PDUs of one response frame."""
        msg = self.recv_frame()
        out = []
        while True:
            r = Response(msg)
            if r.next:
                r.pdu = msg[:r.next]
                r.body = msg[64:r.next]
            out.append(r)
            if not r.next:
                return out
            msg = msg[r.next:]

    def closed(self, wait=10):
        """True when the server hangs up (EOF or reset) within @wait s."""
        self.sock.settimeout(wait)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def request(self, cmd, body, **kw):
        mid = kw.pop("mid", self.mid)
        charge = kw.get("charge", 1)
        self.mid = mid + max(charge, 1)
        self.send_frame(header(cmd, mid, **kw) + body)
        return self.recv()[0]

    def negotiate(self, dialects, contexts=None, **kw):
        return self.request(NEGOTIATE, negotiate_body(dialects, contexts),
                            **kw)

    def echo(self, **kw):
        return self.request(ECHO, struct.pack("<HH", 4, 0), **kw)


def neg_rsp(r):
    """Fields of a NEGOTIATE response body."""
    b = r.body
    (size, secmode, dialect, nctx) = struct.unpack("<HHHH", b[:8])
    caps, max_trans, max_read, max_write = struct.unpack("<IIII", b[24:40])
    secoff, seclen, ctxoff = struct.unpack("<HHI", b[56:64])
    ctxs = {}
    off = ctxoff
    for i in range(nctx if dialect == 0x0311 else 0):
        off = (off + 7) & ~7
        ctype, clen = struct.unpack("<HH", r.pdu[off:off + 4])
        ctxs[ctype] = r.pdu[off + 8:off + 8 + clen]
        off += 8 + clen
    return dict(size=size, secmode=secmode, dialect=dialect, caps=caps,
                max_trans=max_trans, max_read=max_read, max_write=max_write,
                secbuf=r.pdu[secoff:secoff + seclen], contexts=ctxs,
                guid=b[8:24])
