#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""File service II checks through impacket: security descriptors read and
set (QUERY_INFO and SET_INFO with SMB2_0_INFO_SECURITY).  Prints "PASS
text" or "FAIL text: why" per check (t_checks in lib.sh turns them into
TAP).

    file2.py PORT SHARE USER PASSWORD GROUP

GROUP sd: the file "x" (chown 1000:1100, chmod 640 in the guest first)
shows owner S-1-22-1-1000, group S-1-22-2-1100 and a DACL granting the
owner read and write, the group read and Everyone nothing; then a DACL
(owner all, group read) is set, which the guest sees as mode 0740."""

import sys

from impacket import smb3, smb3structs as s3
from impacket.ldap import ldaptypes
from impacket.smbconnection import SMBConnection

OWNER, GROUP, DACL = 1, 2, 4
READ_CONTROL, WRITE_DAC = 0x00020000, 0x00040000
FILE_ALL, FILE_READ = 0x001F01FF, 0x00120089
FILE_READ_DATA, FILE_WRITE_DATA, FILE_EXECUTE = 0x1, 0x2, 0x20


def report(ok, text, why=""):
    print(("PASS " if ok else "FAIL ") + text + ("" if ok else ": " + why))
    sys.stdout.flush()


def aces(sd):
    """{sid: (allowed mask, denied mask)} of the DACL."""
    out = {}
    for ace in sd["Dacl"].aces:
        sid = ace["Ace"]["Sid"].formatCanonical()
        mask = ace["Ace"]["Mask"]["Mask"]
        a, d = out.get(sid, (0, 0))
        if ace["AceType"] == ldaptypes.ACCESS_ALLOWED_ACE.ACE_TYPE:
            a |= mask
        else:
            d |= mask
        out[sid] = (a, d)
    return out


def group_sd(conn, share):
    tid = conn.connectTree(share)
    smb = conn.getSMBServer()
    fid = conn.openFile(tid, "x", desiredAccess=READ_CONTROL | WRITE_DAC,
                        shareMode=7)
    raw = smb.queryInfo(tid, fid, infoType=s3.SMB2_0_INFO_SECURITY,
                        fileInfoClass=0,
                        additionalInformation=OWNER | GROUP | DACL)
    sd = ldaptypes.SR_SECURITY_DESCRIPTOR(data=raw)
    owner = sd["OwnerSid"].formatCanonical()
    group = sd["GroupSid"].formatCanonical()
    report(owner == "S-1-22-1-1000", "security: owner is S-1-22-1-1000",
           owner)
    report(group == "S-1-22-2-1100", "security: group is S-1-22-2-1100",
           group)
    a = aces(sd)
    own = a.get("S-1-22-1-1000", (0, 0))[0]
    grp = a.get("S-1-22-2-1100", (0, 0))[0]
    world = a.get("S-1-1-0", (0, 0))[0]
    report(own & FILE_READ_DATA and own & FILE_WRITE_DATA and
           not own & FILE_EXECUTE and grp & FILE_READ_DATA and
           not grp & FILE_WRITE_DATA and
           not world & (FILE_READ_DATA | FILE_WRITE_DATA),
           "security: the DACL of mode 0640 (owner rw, group r, others "
           "nothing)", repr({k: (hex(v[0]), hex(v[1])) for k, v in a.items()}))

    # Only the owner's and the group's ACEs: Everyone gets nothing.
    new = ldaptypes.SR_SECURITY_DESCRIPTOR()
    new["Revision"] = b"\x01"
    new["Sbz1"] = b"\x00"
    new["Control"] = 0x8004  # SE_SELF_RELATIVE | SE_DACL_PRESENT
    new["OwnerSid"] = b""
    new["GroupSid"] = b""
    new["Sacl"] = b""
    acl = ldaptypes.ACL()
    acl["AclRevision"] = 2
    acl["Sbz1"] = 0
    acl["Sbz2"] = 0
    acl.aces = []
    for sid, mask in (("S-1-22-1-1000", FILE_ALL),
                      ("S-1-22-2-1100", FILE_READ)):
        ace = ldaptypes.ACE()
        ace["AceType"] = ldaptypes.ACCESS_ALLOWED_ACE.ACE_TYPE
        ace["AceFlags"] = 0
        body = ldaptypes.ACCESS_ALLOWED_ACE()
        body["Mask"] = ldaptypes.ACCESS_MASK()
        body["Mask"]["Mask"] = mask
        body["Sid"] = ldaptypes.LDAP_SID()
        body["Sid"].fromCanonical(sid)
        ace["Ace"] = body
        acl.aces.append(ace)
    new["Dacl"] = acl
    try:
        smb.setInfo(tid, fid, inputBlob=new.getData(),
                    infoType=s3.SMB2_0_INFO_SECURITY, fileInfoClass=0,
                    additionalInformation=DACL)
        report(True, "security: a DACL (owner all, group read) is set")
    except smb3.SessionError as e:
        report(False, "security: a DACL (owner all, group read) is set",
               str(e))
    conn.closeFile(tid, fid)

    # Without READ_CONTROL the descriptor cannot be read.
    fid = conn.openFile(tid, "x", desiredAccess=0x80, shareMode=7)
    try:
        smb.queryInfo(tid, fid, infoType=s3.SMB2_0_INFO_SECURITY,
                      fileInfoClass=0, additionalInformation=OWNER)
        report(False, "security: no READ_CONTROL, ACCESS_DENIED",
               "it was read")
    except smb3.SessionError as e:
        report(e.get_error_code() == 0xC0000022,
               "security: no READ_CONTROL, ACCESS_DENIED", str(e))
    conn.closeFile(tid, fid)


def main():
    port, share, user, password, group = sys.argv[1:6]
    conn = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=int(port))
    conn.login(user, password)
    {"sd": group_sd}[group](conn, share)
    conn.logoff()


if __name__ == "__main__":
    main()
