# SPDX-License-Identifier: GPL-2.0-or-later
"""Host side of host/acl.sh: security.NTACL blobs judged by Samba's code.

  acl.py blob HEX OWNER SDDL-PART...
      Samba's NDR code (python3-samba) unpacks the blob smbsrv wrote: an
      xattr_NTACL version 4 with a SHA-256 hash, its descriptor owned by
      OWNER and containing each SDDL-PART.
  acl.py samba-reads HEX f|d UID GID MODE ACE...
      smbd's acl_xattr module (samba-tool ntacl get --use-s3fs) reads the
      blob from a file (f) or directory (d) with that owner, group and
      mode: it must find the blob current (its hashes match) and return
      the descriptor in it; and, once the mode changed, no longer.
  acl.py samba-writes UID GID MODE SDDL
      smbd's acl_xattr writes SDDL on such a file; prints the blob in hex
      and the file's mode afterwards (to make the same file in the guest).
  acl.py ea PORT USER PASSWORD FILE
      SET_INFO FileFullEaInformation with an EA named security.NTACL on
      FILE (smbsrv keeps EAs as user.* xattrs; acl.sh checks the real
      security.NTACL did not change).

ACEs are written as smbcacls --numeric prints them: SID:TYPE/FLAGS/MASK.

Each check prints PASS or FAIL and a description (t_checks in lib.sh).
Needs root, python3-samba, samba-common-bin and samba-vfs-modules.
"""
import os
import struct
import subprocess
import sys
import tempfile

from samba.dcerpc import security, xattr
from samba.ndr import ndr_unpack

DOMAIN = "S-1-5-21-11-22-33"


def check(ok, what, detail=""):
    print(("PASS " if ok else "FAIL ") + what +
          ("" if ok or not detail else ": " + detail), flush=True)
    return ok


def aces_of(sd):
    """The DACL as smbcacls --numeric prints it: SID:TYPE/FLAGS/MASK."""
    if sd.dacl is None:
        return "NULL DACL"
    return ",".join("%s:%d/0x%x/0x%08x" % (a.trustee, a.type, a.flags,
                                          a.access_mask)
                    for a in sd.dacl.aces)


def parse_sddl(sddl):
    return security.descriptor.from_sddl(sddl, security.dom_sid(DOMAIN))


class SambaShare:
    """A directory served (for samba-tool) by smbd's acl_xattr."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory(prefix="smbsrv-acl-")
        d = self.dir.name
        for sub in ("share", "priv", "lock"):
            os.mkdir(os.path.join(d, sub))
        self.conf = os.path.join(d, "smb.conf")
        with open(self.conf, "w") as f:
            f.write("[global]\n"
                    f"\tprivate dir = {d}/priv\n"
                    f"\tlock directory = {d}/lock\n"
                    f"\tstate directory = {d}/lock\n"
                    f"\tcache directory = {d}/lock\n"
                    f"\tpid directory = {d}/lock\n"
                    f"\tncalrpc dir = {d}/lock\n"
                    "\tpassdb backend = tdbsam\n"
                    "[share]\n"
                    f"\tpath = {d}/share\n"
                    "\tvfs objects = acl_xattr\n"
                    "\tread only = no\n")
        for what in ("setlocalsid", "setdomainsid"):
            subprocess.run(["net", "-s", self.conf, what, DOMAIN],
                           check=True, capture_output=True)

    def file(self, uid, gid, mode, kind="f"):
        path = os.path.join(self.dir.name, "share", "f")
        if kind == "d":
            os.mkdir(path)
        else:
            with open(path, "w"):
                pass
        os.chown(path, uid, gid)
        os.chmod(path, mode)
        return path

    def tool(self, *args):
        return subprocess.run(["samba-tool", "ntacl", *args, "--use-s3fs",
                               "--service=share", "-s", self.conf],
                              capture_output=True, text=True)

    def get(self, path):
        """The DACL smbd's acl_xattr finds (SID:TYPE/FLAGS/MASK, ...)."""
        r = self.tool("get", "--as-sddl", path)
        try:
            return aces_of(parse_sddl(r.stdout.strip()))
        except Exception:   # noqa: BLE001 (shown as the failure's detail)
            return r.stdout.strip() + r.stderr.strip()


def blob(hexblob, owner, *parts):
    b = bytes.fromhex(hexblob)
    try:
        n = ndr_unpack(xattr.NTACL, b)
    except Exception as e:   # noqa: BLE001 (any NDR error is the failure)
        return check(False, "Samba's NDR code unpacks the blob", str(e))
    check(True, "Samba's NDR code unpacks the blob (%d bytes)" % len(b))
    check(n.version == 4, "xattr_NTACL version 4", str(n.version))
    i = n.info
    check(i.hash_type == xattr.XATTR_SD_HASH_TYPE_SHA256,
          "hash type SHA-256", str(i.hash_type))
    check(i.description == "posix_acl", "description posix_acl",
          repr(i.description))
    aces = aces_of(i.sd)
    print("# owner %s, DACL %s" % (i.sd.owner_sid, aces))
    check(str(i.sd.owner_sid) == owner, "owner " + owner,
          str(i.sd.owner_sid))
    for p in parts:
        check(p in aces, "the descriptor has " + p, aces)
    return True


def samba_reads(hexblob, kind, uid, gid, mode, *parts):
    share = SambaShare()
    path = share.file(int(uid), int(gid), int(mode, 8), kind)
    os.setxattr(path, "security.NTACL", bytes.fromhex(hexblob))
    aces = share.get(path)
    print("# Samba reads: " + aces)
    for p in parts:
        check(p in aces, "Samba's acl_xattr takes the blob: " + p, aces)
    os.chmod(path, int(mode, 8) ^ 0o001)
    aces = share.get(path)
    print("# after chmod: " + aces)
    check(not any(p in aces for p in parts),
          "after a chmod Samba finds the blob stale (its hash covers the "
          "mode)", aces)


def samba_writes(uid, gid, mode, sddl):
    share = SambaShare()
    path = share.file(int(uid), int(gid), int(mode, 8))
    r = share.tool("set", sddl, path)
    try:
        b = os.getxattr(path, "security.NTACL")
    except OSError as e:
        sys.exit("samba-tool ntacl set left no blob: %s %s" % (e, r.stderr))
    print(b.hex(), "%o" % (os.stat(path).st_mode & 0o7777))


def ea(port, user, password, name):
    from impacket.smbconnection import SMBConnection
    from impacket.smb3structs import FILE_OPEN
    c = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=int(port))
    c.login(user, password)
    tid = c.connectTree("acl")
    fid = c.getSMBServer().create(tid, name, 0x00120116 | 0x00120089, 7,
                                  0, FILE_OPEN, 0)
    ename, value = b"security.NTACL", b"forged"
    entry = (struct.pack("<IBBH", 0, 0, len(ename), len(value)) + ename +
             b"\0" + value)
    try:
        c.getSMBServer().setInfo(tid, fid, inputBlob=entry,
                                 infoType=1, fileInfoClass=15)
        what = "accepted (as the EA user.security.NTACL)"
    except Exception as e:   # noqa: BLE001 (a refusal is fine too)
        what = "refused: %s" % e
    c.closeFile(tid, fid)
    check(True, "SET_INFO of an EA named security.NTACL " + what)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"blob": blob, "samba-reads": samba_reads,
     "samba-writes": samba_writes, "ea": ea}[cmd](*args)
