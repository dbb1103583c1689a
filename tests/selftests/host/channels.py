#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Multichannel (session binding) checks against smbsrv through the
forwarded port, with a raw client: NTLMSSP from impacket, everything else
(preauth hash, key derivation, signing) computed here, so that binds can
be sent wrong on purpose.  Prints "PASS text" or "FAIL text: why" per
check; logon.sh turns them into TAP.

    channels.py PORT on|off    on: server multi channel support = yes
"""

import hashlib
import os
import struct
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from logon import check, expect  # noqa: E402
from smb2raw import (ECHO, FLAG_SIGNED, IOCTL, LOGOFF,  # noqa: E402
                     NEGOTIATE, SESSION_SETUP, STATUS, TREE_CONNECT, Conn,
                     header, neg_rsp, negotiate_body, preauth_ctx)

USERS = {"demo": "demopass", "alice": "alicepass"}
CAP_MULTI_CHANNEL = 0x08
FSCTL_QUERY_NETWORK_INTERFACE_INFO = 0x001401FC
GUID = b"channels-guid-01"
OTHER_GUID = b"channels-guid-02"


def sha512(*parts):
    h = hashlib.sha512()
    for p in parts:
        h.update(p)
    return h.digest()


def cmac(key, data):
    from impacket import crypto
    return crypto.AES_CMAC(key, data, len(data))


def sign(pdu, key):
    pdu = bytearray(pdu)
    flags = struct.unpack_from("<I", pdu, 16)[0] | FLAG_SIGNED
    struct.pack_into("<I", pdu, 16, flags)
    pdu[48:64] = bytes(16)
    pdu[48:64] = cmac(key, bytes(pdu))
    return bytes(pdu)


def signed_with(r, key):
    """Whether response @r carries a valid AES-CMAC signature by @key."""
    pdu = bytearray(r.pdu)
    sig = bytes(pdu[48:64])
    pdu[48:64] = bytes(16)
    return bool(r.flags & FLAG_SIGNED) and cmac(key, bytes(pdu)) == sig


class Chan:
    """One connection, negotiated; setup() logs on or binds over it."""

    def __init__(self, port, dialect=0x0311, guid=GUID):
        from impacket import ntlm
        self.ntlm = ntlm
        self.dialect = dialect
        self.c = Conn(port)
        ctx = [preauth_ctx()] if dialect == 0x0311 else None
        req = header(NEGOTIATE, 0, credits=64) + \
            negotiate_body([dialect], ctx, guid=guid)
        self.c.send_frame(req)
        r = self.c.recv()[0]
        self.c.mid = 1
        self.neg = neg_rsp(r)
        self.preauth = sha512(sha512(bytes(64), req), r.pdu)

    def close(self):
        self.c.close()

    def send(self, cmd, body, session=0, key=None, tree=0):
        pdu = header(cmd, self.c.mid, credits=8, session=session, tree=tree)
        pdu += body
        self.c.mid += 1
        if key is not None:
            pdu = sign(pdu, key)
        self.c.send_frame(pdu)
        return pdu, self.c.recv()[0]

    def setup(self, user, session=0, bind=False, key=None):
        """NTLMSSP logon (or bind, signed with @key) in two legs.
        Returns (first response, last response, session id, the signing
        key this logon gives: the session's, or the new channel's)."""
        ntlm = self.ntlm
        t1 = ntlm.getNTLMSSPType1("", "", True)
        blob = t1.getData()

        def body(blob):
            return struct.pack("<HBBIIHHQ", 25, 1 if bind else 0, 1, 0, 0,
                               88, len(blob), 0) + blob
        pdu, r1 = self.send(SESSION_SETUP, body(blob), session=session,
                            key=key)
        if r1.status != STATUS["MORE_PROCESSING_REQUIRED"]:
            return r1, r1, r1.session_id, None
        pre = sha512(sha512(self.preauth, pdu), r1.pdu)
        sid = r1.session_id
        off, n = struct.unpack("<HH", r1.body[4:8])
        t3, skey = ntlm.getNTLMSSPType3(t1, r1.pdu[off:off + n], user,
                                        USERS.get(user, "wrong"), "")
        pdu, r2 = self.send(SESSION_SETUP, body(t3.getData()), session=sid,
                            key=key)
        pre = sha512(pre, pdu)
        from impacket import crypto
        if self.dialect == 0x0311:
            k = crypto.KDF_CounterMode(skey, b"SMBSigningKey\0", pre, 128)
        else:
            k = crypto.KDF_CounterMode(skey, b"SMB2AESCMAC\0", b"SmbSign\0",
                                       128)
        return r1, r2, sid, k

    def tree_connect(self, sid, key, share="demo"):
        path = ("\\\\127.0.0.1\\%s" % share).encode("utf-16-le")
        body = struct.pack("<HHHH", 9, 0, 72, len(path)) + path
        return self.send(TREE_CONNECT, body, session=sid, key=key)[1]

    def netif(self, sid, key, tree):
        body = struct.pack("<HHI16sIIIIIIII", 57, 0,
                           FSCTL_QUERY_NETWORK_INTERFACE_INFO, b"\xff" * 16,
                           120, 0, 0, 120, 0, 65536, 1, 0) + bytes(8)
        return self.send(IOCTL, body, session=sid, key=key, tree=tree)[1]


def netif_entries(r):
    """(ifindex, caps, address) of each entry of an interface list."""
    off, n = struct.unpack("<II", r.body[32:40])
    data = r.pdu[off:off + n]
    out, at = [], 0
    while at + 152 <= len(data):
        nxt, idx, caps = struct.unpack("<III", data[at:at + 12])
        fam = struct.unpack("<H", data[at + 24:at + 26])[0]
        if fam == 2:
            addr = ".".join(str(b) for b in data[at + 28:at + 32])
        else:
            addr = data[at + 32:at + 48].hex()
        out.append((idx, caps, addr))
        if not nxt:
            break
        at += nxt
    return out


def section_off(port):
    def no_cap():
        c = Chan(port)
        caps = c.neg["caps"]
        c.close()
        return not caps & CAP_MULTI_CHANNEL, "caps %#x" % caps
    expect("multichannel off: NEGOTIATE does not offer "
           "SMB2_GLOBAL_CAP_MULTI_CHANNEL", no_cap)

    def refused():
        a = Chan(port)
        _, r, sid, k = a.setup("demo")
        b = Chan(port)
        r1, _, _, _ = b.setup("demo", session=sid, bind=True, key=k)
        a.close()
        b.close()
        return (r.status == 0 and
                r1.status == STATUS["REQUEST_NOT_ACCEPTED"]), \
            "logon %#x, bind %#x" % (r.status, r1.status)
    expect("multichannel off: a valid bind is STATUS_REQUEST_NOT_ACCEPTED",
           refused)


def section_on(port):
    for dialect in (0x0311, 0x0300):
        section_dialect(port, dialect)


def section_dialect(port, dialect):
    d = "%x.%x" % (dialect >> 8, dialect & 0xff)
    a = Chan(port, dialect)
    check("%s: NEGOTIATE offers SMB2_GLOBAL_CAP_MULTI_CHANNEL" % d,
          a.neg["caps"] & CAP_MULTI_CHANNEL, "caps %#x" % a.neg["caps"])
    _, r, sid, k = a.setup("demo")
    t = a.tree_connect(sid, k)
    tid = t.tree_id
    check("%s: the first channel logs on and connects a tree" % d,
          r.status == 0 and t.status == 0,
          "logon %#x, tree connect %#x" % (r.status, t.status))

    def not_channel(c, key):
        t = c.tree_connect(sid, key)
        return t.status == STATUS["USER_SESSION_DELETED"], \
            "then TREE_CONNECT %#x" % t.status

    def session_alive():
        return a.send(ECHO, struct.pack("<HH", 4, 0), session=sid,
                      key=k)[1].status == 0

    def refused(user, key, guid, first, last):
        """A bind as @user signed with @key from @guid: its first and last
        legs answer @first and @last (None: not checked), the connection
        is no channel after it, and the session works on."""
        def fn():
            b = Chan(port, dialect, guid=guid)
            r1, r2, _, _ = b.setup(user, session=sid, bind=True, key=key)
            ok, why = not_channel(b, k)
            b.close()
            return (r1.status == STATUS[first] and
                    (last is None or r2.status == STATUS[last]) and ok and
                    session_alive()), \
                "legs %#x %#x, %s" % (r1.status, r2.status, why)
        return fn
    for text, user, key, guid, first, last in (
            ("a bind signed with a wrong key: STATUS_INVALID_PARAMETER",
             "demo", os.urandom(16), GUID, "INVALID_PARAMETER", None),
            ("a bind from another ClientGuid: STATUS_USER_SESSION_DELETED",
             "demo", k, OTHER_GUID, "USER_SESSION_DELETED", None),
            ("a bind logging on as another user: STATUS_ACCESS_DENIED",
             "alice", k, GUID, "MORE_PROCESSING_REQUIRED", "ACCESS_DENIED"),
            ("a bind with an unknown user: STATUS_LOGON_FAILURE",
             "nobody", k, GUID, "MORE_PROCESSING_REQUIRED", "LOGON_FAILURE")):
        expect("%s: %s; not a channel, the session unharmed" % (d, text),
               refused(user, key, guid, first, last))

    e = Chan(port, dialect)
    r1, r2, _, kc = e.setup("demo", session=sid, bind=True, key=k)
    check("%s: a valid bind succeeds, its final response signed with the "
          "channel's own key" % d,
          r1.status == STATUS["MORE_PROCESSING_REQUIRED"] and
          r2.status == 0 and signed_with(r2, kc) and kc != k,
          "legs %#x %#x, signed with the channel key %s, keys differ %s" %
          (r1.status, r2.status, signed_with(r2, kc), kc != k))
    t = e.tree_connect(sid, kc)
    t2 = e.tree_connect(sid, k)
    check("%s: the channel's requests are verified with its key (the "
          "session's is refused: STATUS_ACCESS_DENIED)" % d,
          t.status == 0 and signed_with(t, kc) and
          t2.status == STATUS["ACCESS_DENIED"],
          "with its key %#x, with the session's %#x" % (t.status, t2.status))
    again, _, _, _ = e.setup("demo", session=sid, bind=True, key=kc)
    check("%s: binding a channel again: STATUS_REQUEST_NOT_ACCEPTED" % d,
          again.status == STATUS["REQUEST_NOT_ACCEPTED"],
          "%#x" % again.status)

    n = e.netif(sid, kc, tid)
    if dialect == 0x0311:
        ents = netif_entries(n) if n.status == 0 else []
        addrs = [x[2] for x in ents]
        check("FSCTL_QUERY_NETWORK_INTERFACE_INFO on the bound channel, on "
              "a tree of the first: the guest's interfaces, no loopback",
              n.status == 0 and "10.0.2.15" in addrs and
              "127.0.0.1" not in addrs, "%#x %r" % (n.status, ents))

    # The first channel's connection goes: the session, its tree and
    # the open it holds carry on over the bound one.
    a.close()
    time.sleep(1)
    n = e.netif(sid, kc, tid)
    t = e.tree_connect(sid, kc)
    check("%s: the first channel's connection dropped: the session and "
          "its tree work on over the other" % d,
          n.status == 0 and t.status == 0,
          "IOCTL on the old tree %#x, TREE_CONNECT %#x" % (n.status, t.status))

    f = Chan(port, dialect)
    _, rf, _, kf = f.setup("demo", session=sid, bind=True, key=k)
    lo = e.send(LOGOFF, struct.pack("<HH", 4, 0), session=sid, key=kc)[1]
    t = f.tree_connect(sid, kf)
    check("%s: LOGOFF on one channel ends the session on all" % d,
          rf.status == 0 and lo.status == 0 and
          t.status == STATUS["USER_SESSION_DELETED"],
          "bind %#x, LOGOFF %#x, then TREE_CONNECT %#x" %
          (rf.status, lo.status, t.status))
    e.close()
    f.close()


def main():
    port, section = int(sys.argv[1]), sys.argv[2]
    {"on": section_on, "off": section_off}[section](port)


if __name__ == "__main__":
    main()
