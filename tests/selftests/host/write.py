#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""WRITE path checks through impacket and raw PDUs (the client of
files.py): plain WRITEs of 0 B to 8 MiB at unaligned offsets and across
a sparse gap, read back byte for byte; WRITEs that must still be answered
right when their data came in pages (a closed FileId, a read-only open),
with the connection in step after them; signed WRITEs, and signed ones
with a byte changed after signing (refused, nothing written); WRITEs laid out so that the
receiver must take them whole (padding after the data, a gap before it,
a compound); a client that stops mid-WRITE.  Prints "PASS text" or
"FAIL text: why" per check; write.sh reads the counters around each
group.

    write.py PORT SHARE GROUP USER PASSWORD"""

import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import files  # noqa: E402
from Cryptodome.Cipher import AES  # noqa: E402
from impacket import smb3structs as s3  # noqa: E402
from impacket.smbconnection import SMBConnection  # noqa: E402
from files import (Client, check, check_st, CREATE, CLOSE,  # noqa: E402
                   READ, WRITE, GENERIC_READ, SH_ALL, OPEN, OVERWRITE_IF, OPEN_IF)
from read import hdr, FLAG_RELATED  # noqa: E402

GENERIC_WRITE = 0x40000000


def charge_of(cmd, body):
    """Credits a READ or WRITE of its Length needs (MS-SMB2 3.1.5.2)."""
    if cmd in (READ, WRITE):
        return max(1, (struct.unpack_from("<I", body, 4)[0] + 65535) // 65536)
    return 1


def seal(c, msg):
    """@msg in a TRANSFORM header, sealed as impacket seals (AES-128-CCM,
    the session's keys)."""
    sess = c.smb._Session
    nonce = os.urandom(11)
    th = s3.SMB2_TRANSFORM_HEADER()
    th["Nonce"] = nonce
    th["OriginalMessageSize"] = len(msg)
    th["EncryptionAlgorithm"] = s3.SMB2_ENCRYPTION_AES128_CCM
    th["SessionID"] = sess["SessionID"]
    cipher = AES.new(sess["EncryptionKey"], AES.MODE_CCM, nonce)
    cipher.update(th.getData()[20:])
    ct = cipher.encrypt(msg)
    th["Signature"] = cipher.digest()
    return th.getData() + ct


def unseal(c, frame):
    """A sealed response's plaintext, its signature checked."""
    th = s3.SMB2_TRANSFORM_HEADER(frame)
    cipher = AES.new(c.smb._Session["DecryptionKey"], AES.MODE_CCM,
                     th["Nonce"][:11])
    cipher.update(th.getData()[20:])
    plain = cipher.decrypt(frame[52:])
    cipher.verify(th["Signature"])
    return plain


def compound(c, pdus, sealed=False):
    """Send [(cmd, body, related)] as one frame, unsigned (impacket signs
    what it sends itself: a signed WRITE is taken whole), or sealed;
    return the responses [(cmd, status, body)]."""
    smb = c.smb
    sess = smb._Session["SessionID"]
    mid = smb._Connection["SequenceWindow"]
    msg = b""
    for i, (cmd, body, related) in enumerate(pdus):
        charge = charge_of(cmd, body)
        pdu = hdr(cmd, mid, sess, c.tid, FLAG_RELATED if related else 0,
                  charge=charge, credits=64) + body
        mid += charge
        if i < len(pdus) - 1:
            pdu += b"\0" * (-len(pdu) % 8)
            pdu = pdu[:20] + struct.pack("<I", len(pdu)) + pdu[24:]
        msg += pdu
    smb._Connection["SequenceWindow"] = mid
    smb._NetBIOSSession.send_packet(seal(c, msg) if sealed else msg)
    frame = smb._NetBIOSSession.recv_packet(60).get_trailer()
    if frame.startswith(b"\xfdSMB"):
        frame = unseal(c, frame)
    out, off = [], 0
    while True:
        st, cmd = struct.unpack_from("<IH", frame, off + 8)
        nxt = struct.unpack_from("<I", frame, off + 20)[0]
        end = off + nxt if nxt else len(frame)
        out.append((cmd, st, frame[off:end]))
        if not nxt:
            return out
        off += nxt


def write(c, fid, off, data, length=None, data_off=112):
    """One unsigned WRITE alone in its frame: (status, Count)."""
    body = struct.pack("<HHIQ16sIIHHI", 49, data_off,
                       len(data) if length is None else length, off,
                       fid, 0, 0, 0, 0, 0)
    body += b"\0" * (data_off - 112) + (data or b"\0")
    rsp = compound(c, [(WRITE, body, False)])
    st = rsp[0][1]
    return st, (struct.unpack_from("<I", rsp[0][2], 64 + 4)[0]
                if st == 0 else 0)


def wr(c, fid, off, data, want_n=None):
    st, n = write(c, fid, off, data)
    want_n = len(data) if want_n is None else want_n
    return st == 0 and n == want_n, "status 0x%x, %d bytes" % (st, n)


def readback(c, name, size):
    fid = c.open(name, access=GENERIC_READ, disp=OPEN)
    back = c.read_all(fid, size + 1)
    c.close(fid)
    return back


def g_plain(c):
    """Unsigned single WRITEs of many sizes and offsets into one file,
    with a model of what the file must hold."""
    fid = c.open("plain.bin", disp=OVERWRITE_IF)
    model = bytearray()
    ok_all = True
    for off, n in [(0, 0), (0, 1), (1, 4095), (0, 65536), (4095, 65537),
                   (12345, 100003), (7, (1 << 20) + 3),
                   ((1 << 20) + 1, 2 << 20), (300009, 65536 * 3 + 1),
                   # past the end: a sparse gap of about 11 MiB
                   (16 << 20, 65537), ((16 << 20) - 3, 70000)]:
        data = os.urandom(n)
        ok, why = wr(c, fid, off, data)
        check("WRITE of %d bytes at %d: all written" % (n, off), ok, why)
        ok_all = ok_all and ok
        if n:
            if len(model) < off + n:
                model.extend(bytes(off + n - len(model)))
            model[off:off + n] = data
    c.close(fid)
    back = readback(c, "plain.bin", len(model))
    check("the file holds exactly what was written (%d bytes, gap zeros)" %
          len(model), ok_all and back == bytes(model),
          "%d bytes back, %s" % (len(back), "equal" if back == bytes(model)
                                 else "different"))


def g_refused(c):
    """WRITEs refused after their data came in pages: the status is the
    handler's and the connection stays in step (the next WRITE lands)."""
    fid = c.open("refused.bin", disp=OVERWRITE_IF)
    closed = c.open("refused2.bin", disp=OVERWRITE_IF)
    c.close(closed)
    st, _ = write(c, closed, 0, os.urandom(1 << 20))
    check_st("a 1 MiB WRITE on a closed FileId", st, "FILE_CLOSED")
    data = os.urandom(65536 * 2)
    ok, why = wr(c, fid, 0, data)
    check("... and the next WRITE lands", ok, why)
    ro = c.open("refused.bin", access=GENERIC_READ, disp=OPEN)
    st, _ = write(c, ro, 0, os.urandom(300000))
    check_st("a 300000-byte WRITE on a read-only open", st, "ACCESS_DENIED")
    c.close(ro)
    ok, why = wr(c, fid, 65536 * 2, b"x" * 65536)
    check("... and the next WRITE lands", ok, why)
    c.close(fid)
    back = readback(c, "refused.bin", 65536 * 3)
    check("the file holds the two WRITEs that landed, nothing else",
          back == data + b"x" * 65536, "%d bytes" % len(back))


def tampered(c, fid, off, data, at):
    """A WRITE impacket signs, with the byte at @at of the PDU (0 is the
    start of its SMB2 header) changed after signing: (status, Count)."""
    ns = c.smb._NetBIOSSession
    send = ns.send_packet

    def flip(pkt):
        pkt = bytearray(pkt)
        pkt[at] ^= 0x20
        send(bytes(pkt))
    ns.send_packet = flip
    try:
        return c.write(fid, off, data)
    finally:
        ns.send_packet = send


def signed_client(dialect):
    """A client that requires signing, at @dialect, not encrypting (impacket
    would seal everything over 3.0 when the server can)."""
    c = Client.__new__(Client)
    c.conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=int(sys.argv[1]),
                           manualNegotiate=True)
    c.conn.negotiateSession(preferredDialect=dialect)
    c.smb = c.conn.getSMBServer()
    c.smb._Connection["RequireSigning"] = True
    c.smb._Connection["SupportsEncryption"] = False
    c.conn.login(sys.argv[4], sys.argv[5])
    c.tid = c.conn.connectTree(sys.argv[2])
    return c


def signed_writes(c, label):
    """WRITEs impacket signs: they land; the same with one byte changed
    after signing, in the data (early, last) or in the header's Offset,
    are refused with ACCESS_DENIED and write nothing, and the connection
    stays in step.  5 WRITEs land."""
    check("%s: impacket signs every request, nothing sealed" % label,
          c.smb._Session["SigningActivated"] and
          not c.smb._Session["SessionFlags"] & s3.SMB2_SESSION_FLAG_ENCRYPT_DATA,
          "dialect 0x%x" % c.smb._Connection["Dialect"])
    fid = c.open("signed.bin", disp=OVERWRITE_IF)
    model = bytearray()
    for off, n in [(0, 65536), (4095, 65537), (12345, (1 << 20) + 3),
                   (7, 100003)]:
        data = os.urandom(n)
        st, got = c.write(fid, off, data)
        check("%s: signed WRITE of %d bytes at %d: all written" %
              (label, n, off), st == 0 and got == n,
              "status 0x%x, %d bytes" % (st, got))
        if len(model) < off + n:
            model.extend(bytes(off + n - len(model)))
        model[off:off + n] = data
    n = 300001
    for what, at in [("a data byte (the 1000th)", 64 + 48 + 999),
                     ("the last data byte", 64 + 48 + n - 1),
                     ("the Offset in the header", 64 + 8)]:
        st, got = tampered(c, fid, 65536, os.urandom(n), at)
        check_st("%s: a signed %d-byte WRITE with %s changed after signing"
                 % (label, n, what), st, "ACCESS_DENIED")
    data = os.urandom(65536)
    st, got = c.write(fid, 0, data)
    check("%s: ... and the next signed WRITE lands" % label,
          st == 0 and got == 65536, "status 0x%x, %d bytes" % (st, got))
    model[0:65536] = data
    c.close(fid)
    back = readback(c, "signed.bin", len(model))
    check("%s: the file holds the signed WRITEs that landed, nothing of the "
          "changed ones (%d bytes)" % (label, len(model)),
          back == bytes(model),
          "%d bytes back, %s" % (len(back), "equal" if back == bytes(model)
                                 else "different"))
    c.conn.logoff()


def g_signed(c):
    """signed_writes() at 3.0 (AES-CMAC) and 2.1 (HMAC-SHA256)."""
    signed_writes(signed_client(s3.SMB2_DIALECT_30), "3.0")
    signed_writes(signed_client(s3.SMB2_DIALECT_21), "2.1")


def g_whole(c):
    """WRITEs the receiver must take whole: data shorter than the rest of
    the frame (padding after it), data not right after the fixed part
    (a gap of 8 bytes); both are plain WRITEs and must land."""
    fid = c.open("whole.bin", disp=OVERWRITE_IF)
    data = os.urandom(65536 + 5)
    # Length 65536 of a buffer that has 5 more bytes after it.
    st, n = write(c, fid, 0, data, length=65536)
    check("a WRITE with 5 bytes after its data: 65536 written",
          st == 0 and n == 65536, "status 0x%x, %d" % (st, n))
    st, n = write(c, fid, 65536, data, data_off=120)
    check("a WRITE whose data starts 8 bytes after the fixed part",
          st == 0 and n == len(data), "status 0x%x, %d" % (st, n))
    c.close(fid)
    back = readback(c, "whole.bin", 65536 + len(data))
    check("... both landed as sent",
          back == data[:65536] + data, "%d bytes" % len(back))


def g_compound(c, sealed=False):
    """CREATE + WRITE (100000 bytes) + CLOSE in one frame (@sealed: in a
    TRANSFORM header)."""
    name = "comp.bin".encode("utf-16-le")
    create = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 0, 2, 0, 0,
                         GENERIC_READ | GENERIC_WRITE, 0, SH_ALL, OPEN_IF, 0,
                         120, len(name), 0, 0) + name
    ff = b"\xff" * 16
    data = os.urandom(100000)
    write = struct.pack("<HHIQ16sIIHHI", 49, 112, len(data), 0, ff, 0, 0, 0,
                        0, 0) + data
    rsp = compound(c, [(CREATE, create, False), (WRITE, write, True),
                       (CLOSE, struct.pack("<HHI", 24, 0, 0) + ff, True)],
                   sealed)
    check("compound CREATE+WRITE+CLOSE: three successes",
          [(r[0], r[1]) for r in rsp] == [(CREATE, 0), (WRITE, 0),
                                          (CLOSE, 0)],
          str([(r[0], hex(r[1])) for r in rsp]))
    back = readback(c, "comp.bin", len(data))
    check("... the compound's WRITE landed", back == data,
          "%d bytes" % len(back))


def g_stream(c):
    """A 5000-byte WRITE to a named stream (min receivefile size is 4096
    then: its data comes in pages and is copied for the xattr)."""
    st, _ = c.close(c.open("sw", disp=OVERWRITE_IF))
    check_st("the base file of the stream", st, "SUCCESS")
    fid = c.open("sw:data", disp=OVERWRITE_IF)
    data = os.urandom(5000)
    ok, why = wr(c, fid, 0, data)
    check("a 5000-byte WRITE to a named stream", ok, why)
    c.close(fid)
    back = readback(c, "sw:data", len(data))
    check("... the stream holds it", back == data, "%d bytes" % len(back))


def sealed_tampered(c, fid, off, data, at):
    """A WRITE impacket seals (AES-128-CCM), with the byte at @at of the
    frame (0 is the start of its TRANSFORM header; 52 the first byte of
    ciphertext) changed after sealing.  The server must drop the
    connection, having written nothing: True when it did."""
    ns = c.smb._NetBIOSSession
    send = ns.send_packet

    def flip(pkt):
        pkt = bytearray(pkt)
        pkt[at] ^= 0x01
        send(bytes(pkt))
    ns.send_packet = flip
    try:
        c.write(fid, off, data)
    except Exception:  # noqa: BLE001 - the connection going is the answer
        return True
    finally:
        ns.send_packet = send
    return False


def g_sealed(c):
    """Sealed WRITEs (impacket encrypts every request with AES-128-CCM
    once the server offers encryption) of 0 B to 8 MiB at unaligned
    offsets and across a sparse gap, read back byte for byte; then sealed
    WRITEs with one byte of their ciphertext (in the data, at its end, in
    the WRITE's own header) or of the TRANSFORM header changed: each
    drops the connection and leaves the file as it was.  6 WRITEs of
    64 KiB or more land alone, 1 in a sealed compound."""
    check("impacket seals every request (AES-128-CCM)",
          bool(c.smb._Session["SessionFlags"] &
               s3.SMB2_SESSION_FLAG_ENCRYPT_DATA),
          "session flags 0x%x" % c.smb._Session["SessionFlags"])
    fid = c.open("sealed.bin", disp=OVERWRITE_IF)
    model = bytearray()
    for off, n in [(0, 0), (1, 4095), (0, 65536), (4095, 65537),
                   (12345, (1 << 20) + 3), (300009, 65536 * 3 + 1),
                   ((1 << 20) + 1, 2 << 20),
                   # past the end: a sparse gap of about 13 MiB
                   (16 << 20, 65537), (7, 100)]:
        data = os.urandom(n)
        st, got = c.write(fid, off, data)
        check("sealed WRITE of %d bytes at %d: all written" % (n, off),
              st == 0 and got == n, "status 0x%x, %d bytes" % (st, got))
        if n:
            if len(model) < off + n:
                model.extend(bytes(off + n - len(model)))
            model[off:off + n] = data
    c.close(fid)
    back = readback(c, "sealed.bin", len(model))
    check("the file holds exactly what was sealed and written (%d bytes)" %
          len(model), back == bytes(model),
          "%d bytes back, %s" % (len(back), "equal" if back == bytes(model)
                                 else "different"))
    # Decrypted out of pages, but not a lone WRITE: put together whole.
    g_compound(c, sealed=True)
    n = 300001
    for what, at in [("a data byte (the 1000th)", 52 + 112 + 999),
                     ("the last data byte", 52 + 112 + n - 1),
                     ("the WRITE's Offset", 52 + 64 + 8),
                     ("the TRANSFORM header's Nonce", 20)]:
        c2 = Client(int(sys.argv[1]), sys.argv[2], sys.argv[4], sys.argv[5])
        fid = c2.open("sealed.bin", disp=OPEN)
        dropped = sealed_tampered(c2, fid, 65536, os.urandom(n), at)
        check("a sealed %d-byte WRITE with %s changed: the connection "
              "dropped" % (n, what), dropped)
    back = readback(c, "sealed.bin", len(model))
    check("... the file is as it was (%d bytes)" % len(model),
          back == bytes(model),
          "%d bytes back, %s" % (len(back), "equal" if back == bytes(model)
                                 else "different"))


def g_cut(c):
    """A client sends the head and half the data of a 1 MiB WRITE over a
    file, then closes its socket: nothing of it may land, and the server
    serves the next client."""
    fid = c.open("cut.bin", disp=OVERWRITE_IF)
    old = os.urandom(1 << 20)
    c.write_all(fid, old)
    smb = c.smb
    sock = smb._NetBIOSSession.get_socket()
    length = (1 << 20) + 112
    body = struct.pack("<HHIQ16sIIHHI", 49, 112, 1 << 20, 0, fid,
                       0, 0, 0, 0, 0)
    start = hdr(WRITE, smb._Connection["SequenceWindow"],
                smb._Session["SessionID"], c.tid, charge=16) + body
    sock.sendall(struct.pack(">I", length) + start + b"\0" * (512 << 10))
    sock.shutdown(socket.SHUT_RDWR)
    sock.close()
    c2 = Client(int(sys.argv[1]), sys.argv[2], sys.argv[4], sys.argv[5])
    back = readback(c2, "cut.bin", len(old))
    check("a WRITE cut off mid-data by the client left the file as it was",
          back == old, "%d bytes, %s" % (len(back), "equal" if back == old
                                         else "changed"))
    c2.conn.logoff()


def main():
    port, share, group = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    user, password = sys.argv[4], sys.argv[5]
    c = Client(port, share, user, password)
    globals()["g_" + group](c)
    if group != "cut":
        c.conn.logoff()
    return 1 if files.failed else 0


if __name__ == "__main__":
    sys.exit(main())
