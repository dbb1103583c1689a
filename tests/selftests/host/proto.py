#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Protocol-core checks against smbsrv through the forwarded port, with raw
PDUs (smb2raw) and impacket.  Prints one line per check: "PASS text" or
"FAIL text: why"; proto.sh turns them into TAP.

    proto.py PORT SECTION      SECTION: negotiate, framing, bounds,
                               limits-conns, limits-ip, session-nodaemon
"""

import socket
import struct
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from smb2raw import (CANCEL, ECHO, FLAG_RELATED, FLAG_SIGNED, NEGOTIATE,  # noqa: E402
                     SESSION_SETUP, STATUS, TREE_CONNECT, Conn, header,
                     list_ctx, neg_rsp, negotiate_body, preauth_ctx,
                     smb1_negotiate)

ALL = [0x0202, 0x0210, 0x0300, 0x0302, 0x0311]
CTXS = [preauth_ctx(), list_ctx(2, [2, 1, 4, 3]), list_ctx(8, [0, 1, 2])]
ECHO_BODY = struct.pack("<HH", 4, 0)


def check(text, cond, why=""):
    print(("PASS %s" % text) if cond else ("FAIL %s: %s" % (text, why)),
          flush=True)


def expect(text, fn):
    """Run fn() -> (cond, why); an exception is a failure."""
    try:
        cond, why = fn()
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        cond, why = False, "%s: %s" % (type(e).__name__, e)
    check(text, cond, why)


def negotiated(port, dialects=None, contexts=None, credits=1):
    c = Conn(port)
    r = c.negotiate(dialects or ALL, CTXS if contexts is None else contexts,
                    credits=credits)
    if r.status:
        raise RuntimeError("negotiate failed: %#x" % r.status)
    return c, r


def section_negotiate(port):
    for d in ALL:
        def one(d=d):
            c = Conn(port)
            r = c.negotiate([d], CTXS if d == 0x0311 else None)
            n = neg_rsp(r)
            ok = (r.status == 0 and n["dialect"] == d and n["size"] == 65 and
                  n["secmode"] & 1)
            return ok, "%r %r" % (r, n)
        expect("NEGOTIATE offering only %#06x selects it" % d, one)

    def best():
        c, r = negotiated(port, credits=10)
        n = neg_rsp(r)
        return (n["dialect"] == 0x0311 and r.credits == 10 and
                n["caps"] & 4 and n["max_read"] >= 65536), "%r %r" % (r, n)
    expect("NEGOTIATE of all dialects picks 3.1.1, LARGE_MTU, grants the "
           "credits asked", best)

    def contexts():
        c, r = negotiated(port)
        ctx = neg_rsp(r)["contexts"]
        pre = ctx.get(1, b"")
        enc = ctx.get(2, b"")
        sig = ctx.get(8, b"")
        ok = (struct.unpack("<HHH", pre[:6]) == (1, 32, 1) and
              len(pre) == 38 and
              struct.unpack("<HH", enc) == (1, 2) and
              struct.unpack("<HH", sig) == (1, 2))
        return ok, repr(ctx)
    expect("3.1.1 contexts: SHA-512 with a 32-byte salt, AES-128-GCM, "
           "AES-GMAC signing", contexts)

    def cipher_pref():
        c, r = negotiated(port, contexts=[preauth_ctx(),
                                          list_ctx(2, [3, 1])])
        enc = neg_rsp(r)["contexts"].get(2)
        return enc == struct.pack("<HH", 1, 1), repr(enc)
    expect("cipher chosen among the client's: AES-128-CCM over AES-256-CCM",
           cipher_pref)

    def no_overlap_cipher():
        c, r = negotiated(port, contexts=[preauth_ctx(), list_ctx(2, [9])])
        enc = neg_rsp(r)["contexts"].get(2)
        return enc == struct.pack("<HH", 1, 0), repr(enc)
    expect("no common cipher: the ENCRYPTION context answers cipher 0",
           no_overlap_cipher)

    def statuses():
        bad = []
        cases = [
            ("DialectCount 0", [], CTXS, "INVALID_PARAMETER"),
            ("3.1.1 without contexts", [0x0311], [], "INVALID_PARAMETER"),
            ("no SHA-512", [0x0311], [preauth_ctx(algs=(2,))],
             "NO_PREAUTH_OVERLAP"),
            ("two preauth contexts", [0x0311], [preauth_ctx(), preauth_ctx()],
             "INVALID_PARAMETER"),
            ("empty cipher list", [0x0311], [preauth_ctx(), list_ctx(2, [])],
             "INVALID_PARAMETER"),
            ("unknown dialects only", [0x0400, 0x02FF], None,
             "NOT_SUPPORTED"),
        ]
        for name, dialects, ctxs, want in cases:
            c = Conn(port)
            r = c.negotiate(dialects, ctxs)
            if r.status != STATUS[want]:
                bad.append("%s: %#x" % (name, r.status))
            # The connection stays usable for another NEGOTIATE.
            c.close()
        return not bad, "; ".join(bad)
    expect("malformed NEGOTIATEs get Windows' statuses", statuses)

    def smb1_upgrade():
        c = Conn(port)
        c.send_frame(smb1_negotiate(["NT LM 0.12", "SMB 2.002", "SMB 2.???"]))
        r = c.recv()[0]
        if r.status or neg_rsp(r)["dialect"] != 0x02FF or r.mid != 0:
            return False, "wildcard: %r %#x" % (r, neg_rsp(r)["dialect"])
        c.mid = 1
        r = c.negotiate(ALL, CTXS)
        return (r.status == 0 and neg_rsp(r)["dialect"] == 0x0311 and
                c.echo().status == 0), repr(r)
    expect("SMB1 negotiate with \"SMB 2.???\" gets 0x02FF, then SMB2 "
           "NEGOTIATE with MessageId 1 picks 3.1.1", smb1_upgrade)

    def smb1_only():
        c = Conn(port)
        c.send_frame(smb1_negotiate(["PC NETWORK PROGRAM 1.0",
                                     "NT LM 0.12"]))
        return c.closed(10), "still open"
    expect("SMB1-only negotiate: disconnected without a response", smb1_only)

    def second_negotiate():
        c, r = negotiated(port)
        c.send_frame(header(NEGOTIATE, c.mid) + negotiate_body(ALL))
        return c.closed(10), "still open"
    expect("a second NEGOTIATE on a connection disconnects", second_negotiate)

    def before_negotiate():
        c = Conn(port)
        c.send_frame(header(ECHO, 0) + ECHO_BODY)
        return c.closed(10), "still open"
    expect("ECHO before NEGOTIATE disconnects", before_negotiate)

    def signed_negotiate():
        c = Conn(port)
        r = c.request(NEGOTIATE, negotiate_body(ALL, CTXS), flags=FLAG_SIGNED)
        return r.status == STATUS["INVALID_PARAMETER"], repr(r)
    expect("a NEGOTIATE with SMB2_FLAGS_SIGNED is STATUS_INVALID_PARAMETER",
           signed_negotiate)

    def impacket_dialects():
        from impacket.smbconnection import SMBConnection
        from impacket import smb3structs as s3
        got = []
        for d in (s3.SMB2_DIALECT_21, s3.SMB2_DIALECT_30, s3.SMB2_DIALECT_311):
            conn = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                                 preferredDialect=d)
            got.append(conn.getDialect())
            conn.close()
        want = [s3.SMB2_DIALECT_21, s3.SMB2_DIALECT_30, s3.SMB2_DIALECT_311]
        return got == want, "%r" % got
    expect("impacket negotiates 2.1, 3.0 and 3.1.1", impacket_dialects)


def section_framing(port):
    def echo():
        c, r = negotiated(port, credits=8)
        e = c.echo(credits=3)
        return e.status == 0 and e.credits == 3 and e.body[:2] == b"\4\0", \
            repr(e)
    expect("ECHO without a session: STATUS_SUCCESS, credits granted", echo)

    def binding():
        # Binding to a session that does not exist is refused (as Windows
        # does, the lookup before the multichannel check; binding a real
        # session without multichannel is smbtorture's bind_negative_*
        # in host/torture-cache) before the daemon sees the blob; the
        # connection stays.
        c, r = negotiated(port, dialects=[0x0300], contexts=[], credits=4)
        r = c.request(SESSION_SETUP,
                      struct.pack("<HBBIIHHQ", 25, 1, 1, 0, 0, 88, 4, 0) +
                      b"NTLM", session=0x1234)
        e = c.echo()
        return (r.status == STATUS["USER_SESSION_DELETED"] and
                e.status == 0), "%r, then ECHO %r" % (r, e)
    expect("SESSION_SETUP binding to an unknown session (3.0): "
           "STATUS_USER_SESSION_DELETED, connection kept", binding)

    def statuses():
        c, r = negotiated(port, credits=16)
        bad = []
        r = c.request(ECHO, struct.pack("<HH", 5, 0))
        if r.status != STATUS["INVALID_PARAMETER"]:
            bad.append("StructureSize 5: %r" % r)
        r = c.request(0x30, ECHO_BODY)
        if r.status != STATUS["INVALID_PARAMETER"]:
            bad.append("command 0x30: %r" % r)
        r = c.echo(session=0x12345)
        if r.status != STATUS["USER_SESSION_DELETED"]:
            bad.append("unknown session: %r" % r)
        r = c.request(TREE_CONNECT, b"\x09" + b"\0" * 7, session=0x777)
        if r.status != STATUS["USER_SESSION_DELETED"]:
            bad.append("tree connect without session: %r" % r)
        r = c.request(SESSION_SETUP, b"\x19\0")
        if r.status != STATUS["INVALID_PARAMETER"]:
            bad.append("short SESSION_SETUP: %r" % r)
        r = c.request(SESSION_SETUP, struct.pack("<HBBIIHHQ", 25, 0, 1, 0, 0,
                                                 88, 200, 0))
        if r.status != STATUS["INVALID_PARAMETER"]:
            bad.append("blob past the end: %r" % r)
        return not bad, "; ".join(bad)
    expect("malformed requests: StructureSize, command, session, blob",
           statuses)

    def compound():
        c, r = negotiated(port, credits=16)
        m = c.mid
        first = header(ECHO, m, next_cmd=72) + ECHO_BODY + b"\0" * 4
        second = header(ECHO, m + 1, flags=FLAG_RELATED, next_cmd=72) + \
            ECHO_BODY + b"\0" * 4
        third = header(ECHO, m + 2) + ECHO_BODY
        c.send_frame(first + second + third)
        rs = c.recv()
        ok = (len(rs) == 3 and [x.mid for x in rs] == [m, m + 1, m + 2] and
              all(x.status == 0 for x in rs) and
              rs[0].next == 72 and rs[1].next == 72 and rs[2].next == 0 and
              rs[1].flags & FLAG_RELATED and not rs[0].flags & FLAG_RELATED)
        return ok, repr(rs)
    expect("compound of three ECHOs, one related: three responses in one "
           "frame, 8-byte aligned", compound)

    def related_first():
        c, r = negotiated(port, credits=16)
        r = c.request(ECHO, ECHO_BODY, flags=FLAG_RELATED)
        return r.status == STATUS["INVALID_PARAMETER"], repr(r)
    expect("a related request first in a chain: STATUS_INVALID_PARAMETER",
           related_first)

    def bad_next():
        c, r = negotiated(port, credits=16)
        c.send_frame(header(ECHO, c.mid, next_cmd=70) + ECHO_BODY +
                     b"\0" * 70)
        return c.closed(10), "still open"
    expect("a misaligned NextCommand drops the connection", bad_next)

    def credits():
        c, r = negotiated(port, credits=1)
        bad = []
        # Only MessageId 1 is usable: 2 is outside the window.
        c.send_frame(header(ECHO, 2) + ECHO_BODY)
        if not c.closed(10):
            bad.append("MessageId beyond the window accepted")
        c, r = negotiated(port, credits=4)
        e = c.echo(mid=1, credits=1)
        if e.status:
            bad.append("echo: %r" % e)
        c.send_frame(header(ECHO, 1) + ECHO_BODY)
        if not c.closed(10):
            bad.append("reused MessageId accepted")
        c, r = negotiated(port, credits=8)
        e = c.echo(mid=1, charge=4, credits=8)
        if e.status or c.echo(mid=5).status:
            bad.append("multi-credit ECHO: %r" % e)
        c, r = negotiated(port, credits=8)
        e = c.echo(mid=4)
        e2 = c.echo(mid=1)
        if e.status or e2.status:
            bad.append("out-of-order ids: %r %r" % (e, e2))
        return not bad, "; ".join(bad)
    expect("sequence window: ids beyond it or reused drop the connection, "
           "multi-credit and out-of-order ids work", credits)

    def credit_cap():
        c, r = negotiated(port, credits=60000)
        if r.credits != 8192:
            return False, "negotiate granted %d" % r.credits
        # Holding all 8192, asking for more gets one back per one used.
        e = c.echo(credits=100)
        return e.credits == 1, "echo granted %d" % e.credits
    expect("credits granted stop at smb2 max credits (8192)", credit_cap)

    def cancel_nothing():
        c, r = negotiated(port, credits=8)
        c.send_frame(header(CANCEL, 77) + ECHO_BODY)
        e = c.echo()
        return e.status == 0 and e.mid == c.mid - 1, repr(e)
    expect("CANCEL of nothing: no response, no credit used, connection "
           "fine", cancel_nothing)

    def not_direct_tcp():
        c = Conn(port)
        c.send_frame(header(NEGOTIATE, 0) + negotiate_body(ALL), first=b"\x81")
        return c.closed(10), "still open"
    expect("a frame header that is not Direct TCP drops the connection",
           not_direct_tcp)

    def keepalive():
        c = Conn(port)
        c.sock.sendall(b"\x85\0\0\0")
        r = c.negotiate(ALL, CTXS)
        return r.status == 0, repr(r)
    expect("a NetBIOS keep-alive is ignored", keepalive)

    def oversized():
        c = Conn(port)
        c.sock.sendall(b"\0\x03\x00\x00")   # 196608 bytes before a session
        return c.closed(10), "still open"
    expect("a frame over the unauthenticated limit drops the connection",
           oversized)

    def garbage():
        c = Conn(port)
        c.send_frame(b"\xfcSMB" + b"\0" * 60)
        r1 = c.closed(10)
        c = Conn(port)
        c.send_frame(b"GET / HTTP/1.0\r\n\r\n")
        r2 = c.closed(10)
        c = Conn(port)
        c.send_frame(b"\xfdSMB" + b"\0" * 100)
        r3 = c.closed(10)
        return r1 and r2 and r3, "%s %s %s" % (r1, r2, r3)
    expect("compressed, unknown and premature TRANSFORM messages drop the "
           "connection", garbage)

    def stall_body():
        c = Conn(port)
        c.sock.sendall(b"\0\0\x01\x00" + b"\xfeSMB")
        t0 = time.time()
        closed = c.closed(15)
        dt = time.time() - t0
        return closed and 1 <= dt <= 12, "closed=%s after %.1f s" % (closed,
                                                                    dt)
    expect("a peer stalling mid-frame is dropped after frame timeout (2 s)",
           stall_body)

    def stall_header():
        c = Conn(port)
        c.sock.sendall(b"\0\0")
        return c.closed(15), "still open"
    expect("a peer stalling inside the frame header is dropped too",
           stall_header)

    def still_serving():
        c, r = negotiated(port)
        return c.echo().status == 0, ""
    expect("the server still serves after all of the above", still_serving)


def section_bounds(port):
    def bounds():
        bad = []
        c = Conn(port)
        r = c.negotiate([0x0202, 0x0210])
        if r.status != STATUS["NOT_SUPPORTED"]:
            bad.append("2.x only: %r" % r)
        c = Conn(port)
        r = c.negotiate(ALL, CTXS)
        if r.status or neg_rsp(r)["dialect"] != 0x0302:
            bad.append("all: %r" % r)
        return not bad, "; ".join(bad)
    expect("server min/max protocol SMB3_00..SMB3_02: 2.x alone is "
           "STATUS_NOT_SUPPORTED, all dialects pick 3.0.2", bounds)


def hold(port, n):
    conns = []
    for i in range(n):
        c, r = negotiated(port)
        conns.append(c)
    return conns


def section_limits(port, allowed):
    """max ip connections: the connection over the limit is closed."""
    def limit():
        conns = hold(port, allowed)
        extra = Conn(port)
        refused = extra.closed(10)
        for c in conns:
            ok = c.echo().status == 0
            if not ok:
                return False, "held connection broken"
        for c in conns:
            c.close()
        if not refused:
            return False, "connection %d was served" % (allowed + 1)
        # Once they are gone, new connections are served again.
        for i in range(20):
            time.sleep(0.5)
            try:
                c, r = negotiated(port)
                return True, ""
            except (EOFError, ConnectionError):
                continue
        return False, "no connection served after the others closed"
    return limit


def section_evict(port, allowed):
    """max connections full of connections without a session: a new one
    is served and the oldest of them is closed to make room."""
    def evict():
        conns = hold(port, allowed)
        try:
            extra, r = negotiated(port)
        except (EOFError, ConnectionError) as e:
            return False, "connection %d refused: %r" % (allowed + 1, e)
        if not conns[0].closed(10):
            return False, "the oldest connection was not closed"
        for c in conns[1:] + [extra]:
            if c.echo().status != 0:
                return False, "a connection that was not evicted broke"
        for c in conns[1:] + [extra]:
            c.close()
        return True, ""
    return evict


def section_session_nodaemon(port):
    def nodaemon():
        c, r = negotiated(port, credits=4)
        t0 = time.time()
        r = c.request(SESSION_SETUP, struct.pack("<HBBIIHHQ", 25, 0, 1, 0, 0,
                                                 88, 4, 0) + b"NTLM")
        dt = time.time() - t0
        return (r.status == STATUS["NO_LOGON_SERVERS"] and dt < 5,
                "%r after %.1f s" % (r, dt))
    expect("SESSION_SETUP without a daemon: STATUS_NO_LOGON_SERVERS at once",
           nodaemon)


def main():
    port, section = int(sys.argv[1]), sys.argv[2]
    socket.setdefaulttimeout(30)
    if section == "negotiate":
        section_negotiate(port)
    elif section == "framing":
        section_framing(port)
    elif section == "bounds":
        section_bounds(port)
    elif section == "limits-conns":
        expect("max connections 3, all without a session: the 4th is served, "
               "the oldest is closed, the others keep working",
               section_evict(port, 3))
    elif section == "limits-ip":
        expect("max ip connections 2: a 3rd connection from the same "
               "address is closed", section_limits(port, 2))
    elif section == "session-nodaemon":
        section_session_nodaemon(port)
    else:
        sys.exit("unknown section " + section)


if __name__ == "__main__":
    main()
