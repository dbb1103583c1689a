#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The audit trail through impacket, checked in the guest's syslog.

A scripted session on [aud] (full_audit) must leave exactly the expected
records, in order, with [aud]'s facility and priority (local5.warning)
for its records and [global]'s (user.notice) for logons; the same work
on [quiet] leaves none.  Then audit rate = 5 and a flood of opens: the
records written plus the module's drops are exactly the opens, the drops
are logged by smbsrvd.  Prints "PASS text" or "FAIL text: why" per check;
audit.sh turns them into TAP.

    audit.py PORT VM-NAME
"""

import os
import re
import struct
import sys
import time

from impacket import smb3structs as s3
from impacket.ldap import ldaptypes
from impacket.smbconnection import SMBConnection, SessionError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manage import expect, guest  # noqa: E402

WRITE_DAC = 0x00040000
READ_CONTROL = 0x00020000
DACL = 0x4
FLOOD = 300


class Syslog:
    """The audit lines the guest's syslogd wrote since the last take()."""

    def __init__(self, vm):
        self.vm = vm
        self.seen = 0

    def lines(self):
        rc, out = guest(self.vm, "cat /tmp/messages")
        return [line for line in out.splitlines() if "smbd_audit: " in line]

    def take(self, settle=True):
        # Records go module -> smbsrvd -> syslogd: let them land.
        if settle:
            time.sleep(1.5)
        all_ = self.lines()
        new = all_[self.seen:]
        self.seen = len(all_)
        return new


def body(line):
    return line.split("smbd_audit: ", 1)[1]


def stats(vm):
    rc, out = guest(vm, "smbsrvctl stats")
    rec = int(re.search(r"^audit records: (\d+)$", out, re.M).group(1))
    drop = int(re.search(r"^audit dropped: (\d+)$", out, re.M).group(1))
    return rec, drop


def set_dacl(conn, tid, name):
    """A DACL (alice all, her group read) set on name."""
    smb = conn.getSMBServer()
    fid = conn.openFile(tid, name, desiredAccess=READ_CONTROL | WRITE_DAC,
                        shareMode=7)
    sd = ldaptypes.SR_SECURITY_DESCRIPTOR()
    sd["Revision"] = b"\x01"
    sd["Sbz1"] = b"\x00"
    sd["Control"] = 0x8004
    sd["OwnerSid"] = b""
    sd["GroupSid"] = b""
    sd["Sacl"] = b""
    acl = ldaptypes.ACL()
    acl["AclRevision"] = 2
    acl["Sbz1"] = 0
    acl["Sbz2"] = 0
    acl.aces = []
    for sid, mask in (("S-1-22-1-1001", 0x1f01ff), ("S-1-22-2-1001", 0x120089)):
        ace = ldaptypes.ACE()
        ace["AceType"] = ldaptypes.ACCESS_ALLOWED_ACE.ACE_TYPE
        ace["AceFlags"] = 0
        b = ldaptypes.ACCESS_ALLOWED_ACE()
        b["Mask"] = ldaptypes.ACCESS_MASK()
        b["Mask"]["Mask"] = mask
        b["Sid"] = ldaptypes.LDAP_SID()
        b["Sid"].fromCanonical(sid)
        ace["Ace"] = b
        acl.aces.append(ace)
    sd["Dacl"] = acl
    smb.setInfo(tid, fid, inputBlob=sd.getData(),
                infoType=s3.SMB2_0_INFO_SECURITY, fileInfoClass=0,
                additionalInformation=DACL)
    conn.closeFile(tid, fid)


def rename(conn, tid, old, new):
    """Open with DELETE, SET_INFO FileRenameInformation, close (impacket's
    own rename connects and disconnects the tree around it)."""
    fid = conn.openFile(tid, old, desiredAccess=0x10080, shareMode=7)
    n = new.encode("utf-16-le")
    conn.getSMBServer().setInfo(tid, fid,
                                inputBlob=struct.pack("<B7xQI", 0, 0, len(n)) + n,
                                infoType=s3.SMB2_0_INFO_FILE, fileInfoClass=10)
    conn.closeFile(tid, fid)


def delete(conn, tid, name):
    """Open with DELETE and delete on close, close."""
    conn.closeFile(tid, conn.openFile(tid, name, desiredAccess=0x10000,
                                      shareMode=7,
                                      creationOption=s3.FILE_DELETE_ON_CLOSE |
                                      s3.FILE_NON_DIRECTORY_FILE))


def work(conn, share):
    """The scripted session's file work on one share."""
    tid = conn.connectTree(share)
    fid = conn.createFile(tid, "a.txt", desiredAccess=0x12019f,
                          creationDisposition=s3.FILE_OVERWRITE_IF)
    conn.writeFile(tid, fid, b"first", 0)
    conn.writeFile(tid, fid, b"second", 5)
    conn.closeFile(tid, fid)
    rename(conn, tid, "a.txt", "b.txt")
    for name in ("missing.txt", "secret"):
        try:
            conn.closeFile(tid, conn.openFile(tid, name, desiredAccess=0x120089))
        except SessionError:
            pass
    set_dacl(conn, tid, "b.txt")
    delete(conn, tid, "b.txt")
    conn.disconnectTree(tid)


def main():
    port, vm = int(sys.argv[1]), sys.argv[2]
    log = Syslog(vm)
    log.take(settle=False)
    c = "10.0.2.2"

    bad = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                        preferredDialect=s3.SMB2_DIALECT_21)
    try:
        bad.login("alice", "wrong")
    except SessionError:
        pass
    conn = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                         preferredDialect=s3.SMB2_DIALECT_21)
    conn.login("alice", "alice-pw")
    got = log.take()
    client = body(got[0]).split("|")[1] if got else c
    want = [
        "alice|%s||logon|fail (NT_STATUS_LOGON_FAILURE)|alice" % client,
        "alice|%s||logon|ok|alice" % client,
    ]
    expect("a failed logon and a logon: two records ([global]'s prefix)",
           lambda: ([body(x) for x in got] == want, got))
    expect("logon records go to user.notice ([global]'s default)",
           lambda: (all(" user.notice " in x for x in got), got))

    work(conn, "aud")
    got = log.take()
    p = "alice|%s|%s|aud|" % (client, client)
    acc = re.compile(r"\|0x([0-9a-f]{8})\|")
    masks = [int(m.group(1), 16) for m in (acc.search(body(x)) for x in got)
             if m]
    want = [
        p + "connect|ok|aud",
        p + "create_file|ok|ACCESS|a.txt",
        p + "pwrite|ok|a.txt",
        p + "create_file|ok|ACCESS|a.txt",
        p + "renameat|ok|a.txt|b.txt",
        p + "create_file|fail (NT_STATUS_OBJECT_NAME_NOT_FOUND)|ACCESS|missing.txt",
        p + "create_file|fail (NT_STATUS_ACCESS_DENIED)|ACCESS|secret",
        p + "create_file|ok|ACCESS|b.txt",
        p + "fset_nt_acl|ok|b.txt",
        p + "create_file|ok|ACCESS|b.txt",
        p + "unlinkat|ok|b.txt",
        p + "disconnect|ok|aud",
    ]
    norm = [acc.sub("|ACCESS|", body(x)) for x in got]
    expect("the session on [aud]: exactly the %d expected records, in order"
           % len(want), lambda: (norm == want, "\n".join(norm)))
    expect("the opens' access masks: granted (write data for a.txt, "
           "WRITE_DAC for the DACL, DELETE for rename and delete)",
           lambda: (len(masks) == 6 and masks[0] & 0x2 and
                    masks[1] & 0x10000 and masks[4] & WRITE_DAC and
                    masks[5] & 0x10000, [hex(m) for m in masks]))
    expect("[aud]'s records go to local5.warning (its facility and priority)",
           lambda: (got and all(re.search(r" local5\.warn(ing)? ", x)
                                for x in got), got[:2]))
    expect("the file work is done (a.txt renamed to b.txt, then deleted)",
           lambda: guest(vm, "test ! -e /srv/aud/a.txt && "
                         "test ! -e /srv/aud/b.txt")[0] == 0)

    work(conn, "quiet")
    got = log.take()
    expect("the same work on [quiet] (no full_audit): no record",
           lambda: (got == [], got))

    conn.logoff()
    got = log.take()
    expect("the logoff: one record ([global] audits logoff)",
           lambda: ([body(x) for x in got] ==
                    ["alice|%s||logoff|ok|alice" % client], got))

    # A flood over the rate: every open is a record written or a drop.
    rc, out = guest(vm, "sed -i 's/^\\[global\\]$/&\\n\\taudit rate = 5/' "
                    "/etc/smbsrv/smbsrv.conf && smbsrvctl reload && sleep 1")
    expect("audit rate = 5, smbsrvctl reload", lambda: (rc == 0, out))
    conn = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                         preferredDialect=s3.SMB2_DIALECT_21)
    conn.login("alice", "alice-pw")
    tid = conn.connectTree("aud")
    log.take()
    r0, d0 = stats(vm)
    start = time.monotonic()
    for _ in range(FLOOD):
        conn.closeFile(tid, conn.openFile(tid, "flood.txt",
                                          desiredAccess=0x120089))
    took = time.monotonic() - start
    r1, d1 = stats(vm)
    got = log.take()
    opens = [x for x in got if "|create_file|ok|" in x]
    expect("%d opens in %.1f s: records written + dropped = %d exactly "
           "(written %d, dropped %d)" % (FLOOD, took, FLOOD, len(opens),
                                         d1 - d0),
           lambda: (len(opens) == r1 - r0 and
                    (r1 - r0) + (d1 - d0) == FLOOD, (r1 - r0, d1 - d0,
                                                    len(opens))))
    expect("over the rate: some dropped, at most 5 a second (plus one "
           "second's worth) written",
           lambda: (d1 - d0 > 0 and len(opens) <= 5 * (int(took) + 2),
                    (len(opens), d1 - d0, took)))
    # The next record after the drops tells smbsrvd how many there were.
    time.sleep(1.2)
    conn.closeFile(tid, conn.openFile(tid, "flood.txt", desiredAccess=0x120089))
    time.sleep(1.5)
    rc, out = guest(vm, "grep 'record(s) dropped by smbsrv.ko' /tmp/smbsrvd.log")
    said = sum(int(n) for n in re.findall(r"audit: (\d+) record\(s\) dropped",
                                          out))
    expect("smbsrvd logged the drops: %d, as the module counted" % said,
           lambda: (said == d1 - d0, out))
    rc, out = guest(vm, "dmesg | grep 'smbsrv: audit records dropped'")
    expect("the module logged them too (rate-limited)",
           lambda: (rc == 0, out))
    conn.disconnectTree(tid)
    conn.logoff()


if __name__ == "__main__":
    main()
