#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Replays over a second channel, with raw signed SMB 3.0 PDUs (NTLMSSP
from impacket, the rest in channels.py): the ChannelSequence of WRITE,
SET_INFO, IOCTL and LOCK (MS-SMB2 3.3.5.2.10), a durable v2 CREATE
replayed on another channel while the first one is blocked with it
waiting for an oplock break, and while its connection is gone, and the
replays that do not match their original.  Prints PASS/FAIL lines.

    replay.py PORT"""

import struct
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from channels import Chan, sign  # noqa: E402
from files import encode_ctxs, parse_ctxs  # noqa: E402
from logon import check  # noqa: E402

CREATE, CLOSE, READ, WRITE, LOCK, IOCTL = 5, 6, 8, 9, 10, 11
SET_INFO, OPLOCK_BREAK = 0x11, 0x12
FLAG_RESPONSE, FLAG_ASYNC, FLAG_REPLAY = 0x1, 0x2, 0x20000000
ST = {
    "SUCCESS": 0, "PENDING": 0x103, "ACCESS_DENIED": 0xC0000022,
    "SHARING_VIOLATION": 0xC0000043, "FILE_NOT_AVAILABLE": 0xC0000467,
    "DUPLICATE_OBJECTID": 0xC000022A,
}
BATCH, LEASE = 9, 0xFF
SH_ALL, FILE_OPENED, FILE_CREATED = 7, 1, 2
OPEN_IF = 3
FSCTL_CREATE_OR_GET_OBJECT_ID = 0x000900C0


def st_name(st):
    for k, v in ST.items():
        if v == st:
            return k
    return "%#x" % st


class Sess:
    """One channel of a session: a Chan with its signing key, whose
    requests carry a ChannelSequence and maybe the replay flag."""

    def __init__(self, chan, sid, key, tree):
        self.ch, self.sid, self.key, self.tree = chan, sid, key, tree

    def send(self, cmd, body, csn=0, flags=0):
        c = self.ch.c
        mid = c.mid
        c.mid += 1
        hdr = struct.pack("<4sHHHHHHIIQIIQ16s", b"\xfeSMB", 64, 1, csn, 0,
                          cmd, 8, flags, 0, mid, 0xFEFF, self.tree,
                          self.sid, b"\0" * 16)
        c.send_frame(sign(hdr + body, self.key))
        return mid

    def recv(self, mid, timeout=20):
        """The final response to @mid (interim ones and break
        notifications skipped); None when none comes within @timeout."""
        c = self.ch.c
        c.sock.settimeout(timeout)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                rs = c.recv()
            except OSError:
                return None
            for r in rs:
                if r.mid == mid and r.status != ST["PENDING"]:
                    return r
        return None

    def interim(self, mid, timeout=20):
        """Whether an interim (STATUS_PENDING) response to @mid came."""
        c = self.ch.c
        c.sock.settimeout(timeout)
        try:
            for r in c.recv():
                if r.mid == mid and r.status == ST["PENDING"]:
                    return True
        except OSError:
            pass
        return False

    def call(self, cmd, body, timeout=20, **kw):
        return self.recv(self.send(cmd, body, **kw), timeout)


def create_body(name, guid=None, oplock=0, share=SH_ALL, disp=OPEN_IF,
                access=0x0012019F):
    n = name.encode("utf-16-le")
    body = struct.pack("<HBBIQQIIIIIHHII", 57, 0, oplock, 2, 0, 0, access,
                       0, share, disp, 0, 120, len(n), 0, 0) + n
    if guid is not None:
        body += b"\0" * (-(64 + len(body)) % 8)
        c = encode_ctxs([(b"DH2Q", struct.pack("<IIQ16s", 0, 0, 0,
                                                 guid))])
        body = body[:48] + struct.pack("<II", 64 + len(body),
                                       len(c)) + body[56:] + c
    return body


def created(r):
    """(oplock, action, FileId, contexts) of a CREATE response."""
    b = r.body
    if r.status or len(b) < 88:
        return (None, None, None, {})
    off, ln = struct.unpack_from("<II", b, 80)
    return (b[2], struct.unpack_from("<I", b, 4)[0], b[64:80],
            parse_ctxs(r.pdu[off:off + ln]) if ln else {})


def close_body(fid):
    return struct.pack("<HHI", 24, 0, 0) + fid


def write_body(fid, data, off=0):
    return struct.pack("<HHIQ16sIIHHI", 49, 112, len(data), off, fid, 0, 0,
                       0, 0, 0) + data


def read_body(fid, n, off=0):
    return struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, n, off, fid, 0, 0, 0,
                       0, 0) + b"\0"


def setinfo_pos_body(fid, pos):
    # SET_INFO FileInfo, FilePositionInformation (14).
    return struct.pack("<HBBIHHI16s", 33, 1, 14, 8, 96, 0, 0, fid) + \
        struct.pack("<Q", pos)


def lock_body(fid, off=0, ln=16):
    # One exclusive lock, fail immediately.
    return struct.pack("<HHI16s", 48, 1, 0, fid) + \
        struct.pack("<QQII", off, ln, 0x12, 0)


def ioctl_body(fid, code):
    return struct.pack("<HHI16sIIIIIIII", 57, 0, code, fid, 0, 0, 0, 120,
                       0, 64, 1, 0)


def session(port, guid, user="demo", bind_to=None):
    """A session (or a channel bound to @bind_to, a Sess) over a new
    connection with ClientGuid @guid, tree demo connected."""
    ch = Chan(port, 0x0300, guid=guid)
    if bind_to is None:
        _, r, sid, key = ch.setup(user)
        t = ch.tree_connect(sid, key)
        if r.status or t.status:
            raise RuntimeError("logon %#x, tree %#x" % (r.status, t.status))
        return Sess(ch, sid, key, t.tree_id)
    _, r, sid, key = ch.setup(user, session=bind_to.sid, bind=True,
                              key=bind_to.key)
    if r.status:
        raise RuntimeError("bind %#x" % r.status)
    return Sess(ch, bind_to.sid, key, bind_to.tree)


def holder_takes(h, name):
    """@h opens @name with a batch oplock (sharing all): its FileId."""
    r = h.call(CREATE, create_body(name, oplock=BATCH))
    ok = r is not None and r.status == 0 and created(r)[0] == BATCH
    check("the holder takes %s with a batch oplock" % name, ok,
          "got %s" % repr(r and (st_name(r.status), created(r)[0])))
    return created(r)[2] if ok else None


def section_chseq(a, b):
    """ChannelSequence: a stale sequence refused on WRITE, SET_INFO,
    IOCTL and LOCK; READ goes; the replay on another channel with the
    current sequence goes and its data lands."""
    r = a.call(CREATE, create_body("csn.dat", guid=b"csn-guid-0000001",
                                   oplock=BATCH), csn=0)
    if not (r and r.status == 0):
        check("csn: CREATE", False, "got %s" % (r and st_name(r.status)))
        return
    fid = created(r)[2]
    r = a.call(WRITE, write_body(fid, b"aaaa"), csn=0)
    check("csn: WRITE with the open's sequence", r and r.status == 0,
          "got %s" % (r and st_name(r.status)))
    r = a.call(READ, read_body(fid, 4), csn=1)
    check("csn: READ with a newer sequence", r and r.status == 0,
          "got %s" % (r and st_name(r.status)))
    for what, cmd, body in (
            ("WRITE", WRITE, write_body(fid, b"zzzz")),
            ("SET_INFO", SET_INFO, setinfo_pos_body(fid, 0x1000)),
            ("IOCTL", IOCTL, ioctl_body(fid, FSCTL_CREATE_OR_GET_OBJECT_ID)),
            ("LOCK", LOCK, lock_body(fid))):
        for flags in (0, FLAG_REPLAY):
            r = a.call(cmd, body, csn=0, flags=flags)
            check("csn: %s%s with a stale sequence: FILE_NOT_AVAILABLE" %
                  (what, " replay" if flags else ""),
                  r and r.status == ST["FILE_NOT_AVAILABLE"],
                  "got %s" % (r and st_name(r.status)))
    r = a.call(READ, read_body(fid, 4), csn=0)
    check("csn: READ with a stale sequence goes",
          r and r.status == 0 and r.pdu[80:84] == b"aaaa",
          "got %s" % (r and st_name(r.status)))
    r = b.call(WRITE, write_body(fid, b"bbbb"), csn=1, flags=FLAG_REPLAY)
    check("csn: WRITE replayed on the second channel with the current "
          "sequence", r and r.status == 0,
          "got %s" % (r and st_name(r.status)))
    r = b.call(READ, read_body(fid, 4), csn=1)
    check("csn: the replayed WRITE's data is there",
          r and r.status == 0 and r.pdu[80:84] == b"bbbb",
          "got %s" % repr(r and (st_name(r.status), r.pdu[80:84])))
    r = b.call(LOCK, lock_body(fid), csn=1)
    check("csn: LOCK with the current sequence goes",
          r and r.status == 0, "got %s" % (r and st_name(r.status)))
    b.call(CLOSE, close_body(fid), csn=1)


def only_one_open(h, name):
    """Nothing else holds @name open: an open sharing nothing succeeds."""
    r = h.call(CREATE, create_body(name, share=0))
    if r and r.status == 0:
        h.call(CLOSE, close_body(created(r)[2]))
    return r and r.status == 0, "got %s" % (r and st_name(r.status))


def section_pending(port, h, a, b):
    """A durable v2 CREATE waits for a break on channel A, whose client
    stops reading it (blocked); the replay on channel B is told to retry
    (FILE_NOT_AVAILABLE) until the original is done, then gets the
    original's open: one open, never two."""
    name = "pend.dat"
    hfid = holder_takes(h, name)
    if not hfid:
        return
    guid = b"pending-guid-001"
    body = create_body(name, guid=guid)
    mid = a.send(CREATE, body, csn=0)
    check("pending: the CREATE on channel A waits for the break "
          "(interim response)", a.interim(mid), "no STATUS_PENDING")
    t = time.monotonic()
    r = b.call(CREATE, body, csn=1, flags=FLAG_REPLAY, timeout=5)
    check("pending: its replay on channel B is told to retry at once",
          r and r.status == ST["FILE_NOT_AVAILABLE"] and
          time.monotonic() - t < 5,
          "got %s after %.1f s" % (r and st_name(r.status),
                                   time.monotonic() - t))
    r = b.call(CREATE, body, csn=1)
    check("pending: the same CreateGuid without the replay flag: "
          "DUPLICATE_OBJECTID", r and r.status == ST["DUPLICATE_OBJECTID"],
          "got %s" % (r and st_name(r.status)))
    h.call(CLOSE, close_body(hfid))
    r = a.recv(mid)
    ok = r is not None and r.status == 0
    check("pending: the original is answered once the holder closed",
          ok, "got %s" % (r and st_name(r.status)))
    if not ok:
        return
    fid = created(r)[2]
    r = b.call(CREATE, body, csn=1, flags=FLAG_REPLAY)
    check("pending: the replay now gets the original's open",
          r and r.status == 0 and created(r)[2] == fid and
          created(r)[1] == FILE_OPENED,
          "got %s" % repr(r and (st_name(r.status), created(r)[1:3], fid)))
    b.call(CLOSE, close_body(fid), csn=1)
    ok, why = only_one_open(h, name)
    check("pending: after one CLOSE no open of it is left", ok, why)


def section_orphan(port, h, a, b, guid):
    """The channel with the waiting CREATE goes away: the CREATE goes
    on for the session; the replay on the other channel is told to retry
    until it is done, then gets its open."""
    name = "orphan.dat"
    hfid = holder_takes(h, name)
    if not hfid:
        return
    # A bind is signed with the session's key: the first channel's.
    c = session(port, guid, bind_to=a)
    body = create_body(name, guid=b"orphan-guid-0001")
    mid = c.send(CREATE, body, csn=0)
    check("orphan: the CREATE on channel C waits (interim response)",
          c.interim(mid), "no STATUS_PENDING")
    c.ch.close()
    time.sleep(1)
    r = b.call(CREATE, body, csn=1, flags=FLAG_REPLAY)
    check("orphan: channel C gone, the replay on B is told to retry",
          r and r.status == ST["FILE_NOT_AVAILABLE"],
          "got %s" % (r and st_name(r.status)))
    h.call(CLOSE, close_body(hfid))
    r = None
    for _ in range(20):
        time.sleep(0.5)
        r = b.call(CREATE, body, csn=1, flags=FLAG_REPLAY)
        if not (r and r.status == ST["FILE_NOT_AVAILABLE"]):
            break
    ok = r is not None and r.status == 0
    check("orphan: once the holder closed, the replay gets the open the "
          "CREATE made", ok and created(r)[1] == FILE_OPENED,
          "got %s" % repr(r and (st_name(r.status), created(r)[1])))
    if ok:
        b.call(CLOSE, close_body(created(r)[2]), csn=1)
    ok, why = only_one_open(h, name)
    check("orphan: after one CLOSE no open of it is left", ok, why)


def section_mismatch(port, b, guid):
    """Replays that do not repeat their original's CREATE."""
    g = b"mismatch-guid-01"
    r = b.call(CREATE, create_body("mm.dat", guid=g, oplock=BATCH), csn=1)
    if not (r and r.status == 0):
        check("mismatch: CREATE", False, "got %s" % (r and st_name(r.status)))
        return
    fid = created(r)[2]
    r = b.call(CREATE, create_body("other.dat", guid=g, oplock=BATCH),
               csn=1, flags=FLAG_REPLAY)
    check("mismatch: a replay naming another file: ACCESS_DENIED",
          r and r.status == ST["ACCESS_DENIED"],
          "got %s" % (r and st_name(r.status)))
    r = b.call(CREATE, create_body("mm.dat", guid=g, oplock=0), csn=1,
               flags=FLAG_REPLAY)
    check("mismatch: a replay asking for no oplock gets the open with "
          "none and no durable handle",
          r and r.status == 0 and created(r)[2] == fid and
          created(r)[0] == 0 and b"DH2Q" not in created(r)[3],
          "got %s" % repr(r and (st_name(r.status), created(r)[0],
                             list(created(r)[3]))))
    alice = session(port, guid, user="alice")
    r = alice.call(CREATE, create_body("mm.dat", guid=g, oplock=BATCH),
                   flags=FLAG_REPLAY)
    check("mismatch: another user's replay of it: ACCESS_DENIED",
          r and r.status == ST["ACCESS_DENIED"],
          "got %s" % (r and st_name(r.status)))
    alice.ch.close()
    b.call(CLOSE, close_body(fid), csn=1)
    # A request naming the open ends its replays: a new open comes.
    g = b"mismatch-guid-02"
    r = b.call(CREATE, create_body("mm2.dat", guid=g), csn=1)
    fid = created(r)[2] if r and r.status == 0 else None
    b.call(READ, read_body(fid or bytes(16), 1), csn=1)
    r = b.call(CREATE, create_body("mm2.dat", guid=g), csn=1,
               flags=FLAG_REPLAY)
    check("mismatch: once a request named the open, a replay opens anew",
          fid and r and r.status == 0 and created(r)[2] != fid,
          "got %s" % repr(r and (st_name(r.status), created(r)[2], fid)))
    if r and r.status == 0:
        b.call(CLOSE, close_body(created(r)[2]), csn=1)
    r = b.call(CREATE, create_body("mm2.dat", guid=g), csn=1)
    check("mismatch: its GUID in use, a CREATE without the replay flag: "
          "DUPLICATE_OBJECTID", r and r.status == ST["DUPLICATE_OBJECTID"],
          "got %s" % (r and st_name(r.status)))
    if fid:
        b.call(CLOSE, close_body(fid), csn=1)


def main():
    port = int(sys.argv[1])
    guid = b"replay-client-01"
    h = session(port, b"replay-holder-01")
    a = session(port, guid)
    b = session(port, guid, bind_to=a)
    section_chseq(a, b)
    section_pending(port, h, a, b)
    section_orphan(port, h, a, b, guid)
    section_mismatch(port, b, guid)


if __name__ == "__main__":
    main()
