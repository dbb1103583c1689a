#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""READ path checks through impacket and raw PDUs (the client of files.py):
what a spliced READ answers (DataLength, DataOffset, end of file,
MinimumCount, every length around a page), a READ inside a compound, a
READ of a named stream, a file opened with FILE_NO_INTERMEDIATE_BUFFERING,
and a client that stops reading its socket.  Prints "PASS text" or
"FAIL text: why" per check.

    read.py PORT SHARE GROUP USER PASSWORD

The share holds the files the guest made (read.sh): "pattern" (1 MiB +
3 bytes, byte i = i * 7 % 251), "sparse" (16 MiB, "hole" at 5 MiB),
and the streams_xattr share "streams" a file "s" with a stream "s:data"
of 40000 bytes of the same pattern."""

import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from files import (Client, check, check_st, READ, CREATE,  # noqa: E402
                   CLOSE, WRITE, GENERIC_READ, SH_ALL, OPEN,
                   OVERWRITE_IF)

FLAG_RELATED = 4
NO_INTERMEDIATE_BUFFERING = 0x8
PATTERN_SIZE = (1 << 20) + 3


def pattern(off, n):
    return bytes((i * 7) % 251 for i in range(off, off + n))


def g_splice(c):
    fid = c.open("pattern", access=GENERIC_READ, disp=OPEN)
    want = pattern(0, PATTERN_SIZE)
    # Lengths and offsets around pages, the threshold (4 KiB) and the end.
    for off, n in [(0, 4096), (1, 4096), (4095, 4097), (4096, 65536),
                   (12345, 200000), (0, 1 << 20), (0, PATTERN_SIZE),
                   (PATTERN_SIZE - 5000, 5000), (PATTERN_SIZE - 4096, 8192),
                   (PATTERN_SIZE - 1, 4096)]:
        st, d = c.read(fid, off, n)
        exp = want[off:off + n]
        check("READ %d bytes at %d: %d bytes, the file's" % (n, off,
                                                              len(exp)),
              st == 0 and d == exp,
              "status 0x%x, %d bytes, %s" % (st, len(d),
                                             "equal" if d == exp else
                                             "different"))
    st, d = c.read(fid, PATTERN_SIZE, 8192)
    check_st("READ at the end of the file: END_OF_FILE", st, "END_OF_FILE")
    st, d = c.read(fid, PATTERN_SIZE + 4096, 8192)
    check_st("READ past the end of the file: END_OF_FILE", st, "END_OF_FILE")
    st, d = c.read(fid, PATTERN_SIZE - 100, 8192, minimum=101)
    check_st("fewer bytes than MinimumCount: END_OF_FILE", st, "END_OF_FILE")
    st, d = c.read(fid, PATTERN_SIZE - 100, 8192, minimum=100)
    check("exactly MinimumCount bytes are enough",
          st == 0 and d == want[-100:], "status 0x%x" % st)
    c.close(fid)

    fid = c.open("sparse", access=GENERIC_READ, disp=OPEN)
    st, d = c.read(fid, (5 << 20) - 8192, 1 << 20)
    exp = bytes(8192) + b"hole" + bytes((1 << 20) - 8196)
    check("a READ across holes: zeros and the data between",
          st == 0 and d == exp, "status 0x%x, %d bytes" % (st, len(d)))
    c.close(fid)

    fid = c.open("pattern", access=GENERIC_READ, disp=OPEN,
                 options=NO_INTERMEDIATE_BUFFERING)
    st, d = c.read(fid, 4096, 1 << 20)
    check("FILE_NO_INTERMEDIATE_BUFFERING: the file's bytes",
          st == 0 and d == want[4096:4096 + (1 << 20)],
          "status 0x%x, %d bytes" % (st, len(d)))
    c.close(fid)


def hdr(cmd, mid, sess, tree, flags=0, nxt=0, credits=32, charge=1):
    return struct.pack("<4sHHIHHIIQIIQ16s", b"\xfeSMB", 64, charge, 0, cmd,
                       credits, flags, nxt, mid, 0xFEFF, tree, sess,
                       b"\0" * 16)


def compound(c, pdus):
    """Send [(cmd, body, related)] as one compound frame; return the
    responses [(cmd, status, body)].  A READ is charged by its length."""
    smb = c.smb
    sess = smb._Session["SessionID"]
    mid = smb._Connection["SequenceWindow"]
    msg = b""
    for i, (cmd, body, related) in enumerate(pdus):
        charge = 1
        if cmd == READ:
            charge = max(1, (struct.unpack_from("<I", body, 4)[0] + 65535)
                         // 65536)
        pdu = hdr(cmd, mid, sess, c.tid, FLAG_RELATED if related else 0,
                  charge=charge) + body
        mid += charge
        if i < len(pdus) - 1:
            pdu += b"\0" * (-len(pdu) % 8)
            pdu = pdu[:20] + struct.pack("<I", len(pdu)) + pdu[24:]
        msg += pdu
    smb._Connection["SequenceWindow"] = mid
    smb._NetBIOSSession.send_packet(msg)
    frame = smb._NetBIOSSession.recv_packet(30).get_trailer()
    out, off = [], 0
    while True:
        st, cmd = struct.unpack_from("<IH", frame, off + 8)
        nxt = struct.unpack_from("<I", frame, off + 20)[0]
        end = off + nxt if nxt else len(frame)
        out.append((cmd, st, frame[off:end]))
        if not nxt:
            return out
        off += nxt


def read_body(fid, off, n):
    return struct.pack("<HBBIQ16sIIIHHB", 49, 80, 0, n, off, fid, 0, 0, 0,
                       0, 0, 0)


def g_compound(c):
    name = "pattern".encode("utf-16-le")
    create = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 0, 2, 0, 0, GENERIC_READ,
                         0, SH_ALL, OPEN, 0, 120, len(name), 0, 0) + name
    ff = b"\xff" * 16
    rsp = compound(c, [(CREATE, create, False),
                       (READ, read_body(ff, 8192, 65536), True),
                       (READ, read_body(ff, 100, 5000), True),
                       (CLOSE, struct.pack("<HHI", 24, 0, 0) + ff, True)])
    check("compound CREATE+READ+READ+CLOSE: four responses in one frame",
          [r[0] for r in rsp] == [CREATE, READ, READ, CLOSE],
          repr([(r[0], hex(r[1])) for r in rsp]))
    for i, (off, n) in enumerate([(8192, 65536), (100, 5000)]):
        ok = len(rsp) == 4 and rsp[1 + i][1] == 0
        if ok:
            pdu = rsp[1 + i][2]
            doff, dlen = pdu[64 + 2], struct.unpack_from("<I", pdu, 64 + 4)[0]
            data = pdu[doff:doff + dlen]
            ok = data == pattern(off, n)
        check("compound READ %d of %d bytes at %d: the file's bytes" %
              (i + 1, n, off), ok)
    # Unrelated: two READs of an open handle in one frame.
    fid = c.open("pattern", access=GENERIC_READ, disp=OPEN)
    rsp = compound(c, [(READ, read_body(fid, 0, 1 << 20), False),
                       (READ, read_body(fid, 1 << 20, 65536), False)])
    ok = len(rsp) == 2 and rsp[0][1] == 0 and rsp[1][1] == 0
    if ok:
        got = []
        for r in rsp:
            pdu = r[2]
            doff, dlen = pdu[64 + 2], struct.unpack_from("<I", pdu, 64 + 4)[0]
            got.append(pdu[doff:doff + dlen])
        ok = got[0] == pattern(0, 1 << 20) and got[1] == pattern(1 << 20, 3)
    check("compound of two unrelated READs (1 MiB, then the last 3 bytes)",
          ok)
    c.close(fid)


def g_stream(c):
    fid = c.open("s:data", access=GENERIC_READ, disp=OPEN)
    st, d = c.read(fid, 0, 65536)
    check("a named stream's 40000 bytes read in one READ",
          st == 0 and d == pattern(0, 40000),
          "status 0x%x, %d bytes" % (st, len(d)))
    st, d = c.read(fid, 10000, 8192)
    check("a named stream read at an offset",
          st == 0 and d == pattern(10000, 8192), "status 0x%x" % st)
    c.close(fid)


def unseal(smb, frame):
    """Decrypt and authenticate a TRANSFORM frame (impacket negotiates
    AES-128-CCM on 3.0 and encrypts); b"" when it does not verify."""
    from Cryptodome.Cipher import AES
    tag, nonce = frame[4:20], frame[20:31]
    cipher = AES.new(smb._Session["DecryptionKey"], AES.MODE_CCM, nonce,
                     mac_len=16)
    cipher.update(frame[20:52])
    try:
        return cipher.decrypt_and_verify(frame[52:], tag)
    except ValueError:
        return b"\xfeSMB" + b"\xff" * 60


def g_stall(c):
    """Open "pattern", send READs of 1 MiB as long as the credits last and
    read none of the answers for STALL_SECONDS (the guest checks the
    server meanwhile), then drain the socket: the server must have hung
    up (frame timeout), every whole frame before that must be a READ
    response with the file's bytes, and only the last may be cut short."""
    fid = c.open("pattern", access=GENERIC_READ, disp=OPEN)
    smb = c.smb
    sock = smb._NetBIOSSession.get_socket()
    # A small fixed receive buffer: with autotuning up to the host's
    # tcp_rmem maximum (32 MiB here) all 48 MiB could sit in buffers
    # and the server would never have to wait for this client.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 10)
    sent = 0
    for _ in range(48):
        p = smb.SMB_PACKET()
        p["Command"] = READ
        p["TreeID"] = c.tid
        p["CreditCharge"] = 16
        p["CreditRequestResponse"] = 16
        p["Data"] = read_body(fid, 0, 1 << 20)
        try:
            smb.sendSMB(p)
        except OSError:
            break
        smb._Connection["SequenceWindow"] += 15
        sent += 1
    print("sent %d READs of 1 MiB, reading none" % sent)
    sys.stdout.flush()
    time.sleep(float(os.environ.get("STALL_SECONDS", "30")))

    sock.settimeout(120)
    buf = b""
    eof = False
    try:
        while True:
            b = sock.recv(1 << 20)
            if not b:
                eof = True
                break
            buf += b
    except OSError as e:
        eof = not isinstance(e, socket.timeout)
    want = pattern(0, 1 << 20)
    whole = bad = 0
    off = 0
    while off + 4 <= len(buf):
        n = struct.unpack(">I", buf[off:off + 4])[0] & 0xffffff
        if off + 4 + n > len(buf):
            break               # cut short by the hang-up
        pdu = buf[off + 4:off + 4 + n]
        if pdu[:4] == b"\xfdSMB":
            pdu = unseal(smb, pdu)
        st = struct.unpack_from("<I", pdu, 8)[0]
        doff, dlen = pdu[64 + 2], struct.unpack_from("<I", pdu, 64 + 4)[0]
        if st or pdu[doff:doff + dlen] != want:
            bad += 1
            print("frame %d: status 0x%x, command %d, DataOffset %d, "
                  "DataLength %d" % (whole, st, pdu[12], doff, dlen))
        whole += 1
        off += 4 + n
    print("received %d bytes: %d whole frames, %d bytes of a cut one" %
          (len(buf), whole, len(buf) - off))
    check("the server hung up on the stalled client", eof)
    check("it answered fewer READs than were sent", whole < sent,
          "%d of %d" % (whole, sent))
    check("every whole frame before the hang-up is the file's 1 MiB",
          bad == 0, "%d bad" % bad)


def g_wait_stall(c):
    """A WRITE frame of 1 MiB whose first 192 KiB (the SMB2 header and
    WRITE request of the session's tree, then zeros) arrive and then
    nothing more, after a WRITE of 64 KiB answered with nothing else in
    flight: the receive is then unbound and waits in the socket for the
    rest (smb2_recv_place()).  The frame timeout must still drop the
    connection (its close wakes the waiting receive), and the server must
    serve another client after."""
    # Sent as the stalled frame is, in the clear (impacket encrypts its
    # own requests, and the receive cannot tell an encrypted WRITE: it
    # would stay per-CPU).
    fid = c.open("stall5.bin", disp=OVERWRITE_IF)
    body = struct.pack("<HHIQ16sIIHHI", 49, 112, 65536, 0, fid,
                       0, 0, 0, 0, 0) + pattern(0, 65536)
    rsp = compound(c, [(WRITE, body, False)])
    st = rsp[0][1]
    n = struct.unpack_from("<I", rsp[0][2], 64 + 4)[0] if st == 0 else 0
    check("a 64 KiB WRITE alone in flight before the stall",
          rsp[0][0] == WRITE and st == 0 and n == 65536,
          "status 0x%x, %d bytes" % (st, n))
    smb = c.smb
    sock = smb._NetBIOSSession.get_socket()
    length = (1 << 20) + 112
    # StructureSize 49, DataOffset 112, Length, Offset 0, FileId zeros
    # (never looked at: the frame is never complete).
    body = struct.pack("<HHIQ16sIIHHI", 49, 112, 1 << 20, 0, b"\0" * 16,
                       0, 0, 0, 0, 0)
    start = hdr(WRITE, smb._Connection["SequenceWindow"],
                smb._Session["SessionID"], c.tid, charge=16) + body
    sock.sendall(struct.pack(">I", length) + start +
                 b"\0" * ((192 << 10) - len(start)))
    sock.settimeout(60)
    eof = False
    try:
        eof = sock.recv(4096) == b""
    except OSError as e:
        eof = not isinstance(e, socket.timeout)
    check("a logged-on client stalling mid-frame (192 KiB of a 1 MiB WRITE) "
          "while its receive waits for it is dropped", eof)
    c2 = Client(int(sys.argv[1]), sys.argv[2], sys.argv[4], sys.argv[5])
    fid = c2.open("pattern", access=GENERIC_READ, disp=OPEN)
    st, d = c2.read(fid, 0, 4096)
    check("... and another client reads on",
          st == 0 and d == pattern(0, 4096),
          "status 0x%x, %d bytes" % (st, len(d)))
    c2.conn.logoff()


def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    user, password = sys.argv[4], sys.argv[5]
    c = Client(port, share, user, password)
    globals()["g_" + group](c)
    if group not in ("stall", "wait_stall"):
        c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
