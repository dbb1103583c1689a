#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Logon checks against smbsrv through the forwarded port, with smbclient
and impacket: session setup per dialect, signing, encryption, wrong
password, unknown share, guest, VALIDATE_NEGOTIATE_INFO.  Prints "PASS
text" or "FAIL text: why" per check; logon.sh turns them into TAP.

    logon.py PORT SECTION    SECTION: default, share-encryption, signing,
                             encryption
"""

import struct
import subprocess
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from smb2raw import Conn, neg_rsp  # noqa: E402

USER, PASS = "demo", "demopass"


def check(text, cond, why=""):
    print(("PASS %s" % text) if cond else ("FAIL %s: %s" % (text, why)),
          flush=True)


def expect(text, fn):
    try:
        cond, why = fn()
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        cond, why = False, "%s: %s" % (type(e).__name__, e)
    check(text, cond, why)


def smbclient(port, share, *args, user="%s%%%s" % (USER, PASS)):
    cmd = ["smbclient", "//127.0.0.1/%s" % share, "-p", str(port),
           "-c", "exit"]
    cmd += ["-N"] if user is None else ["-U", user]
    cmd += list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, (p.stdout + p.stderr).strip()


def works(port, share, *args, **kw):
    def fn():
        rc, out = smbclient(port, share, *args, **kw)
        return rc == 0 and "NT_STATUS" not in out, "rc %d: %s" % (rc, out)
    return fn


def fails_with(port, share, status, *args, **kw):
    def fn():
        rc, out = smbclient(port, share, *args, **kw)
        return rc != 0 and status in out, "rc %d: %s" % (rc, out)
    return fn


def impacket_conn(port, dialect, sign=False):
    from impacket.smbconnection import SMBConnection
    c = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                      preferredDialect=dialect)
    if sign:
        c.getSMBServer()._Connection["RequireSigning"] = True
    return c


def section_default(port):
    for m in ("SMB2_02", "SMB2_10", "SMB3_00", "SMB3_02", "SMB3_11"):
        expect("smbclient -m %s: logon and tree connect" % m,
               works(port, "demo", "-m", m, "--max-protocol", m))
    expect("smbclient -m SMB3 with signing required by the client",
           works(port, "demo", "-m", "SMB3", "--client-protection=sign"))
    for m in ("SMB3_00", "SMB3_02", "SMB3_11"):
        expect("smbclient -m %s with encryption required by the client" % m,
               works(port, "demo", "-m", m, "--max-protocol", m,
                     "--client-protection=encrypt"))
    expect("smbclient -m SMB2_10 requiring encryption is refused "
           "(no SMB3)", fails_with(port, "demo", "SMB3 encryption", "-m",
                                  "SMB2_10", "--max-protocol", "SMB2_10",
                                  "--client-protection=encrypt"))
    expect("wrong password: NT_STATUS_LOGON_FAILURE",
           fails_with(port, "demo", "NT_STATUS_LOGON_FAILURE", "-m", "SMB3",
                      user="%s%%wrong" % USER))
    expect("unknown user: NT_STATUS_LOGON_FAILURE",
           fails_with(port, "demo", "NT_STATUS_LOGON_FAILURE", "-m", "SMB3",
                      user="nobody%x"))
    expect("unknown share: NT_STATUS_BAD_NETWORK_NAME",
           fails_with(port, "nosuch", "NT_STATUS_BAD_NETWORK_NAME", "-m",
                      "SMB3"))
    expect("anonymous on a guest ok share works",
           works(port, "pub", "-m", "SMB3", user=None))
    expect("anonymous on a share without guest ok: NT_STATUS_ACCESS_DENIED",
           fails_with(port, "demo", "NT_STATUS_ACCESS_DENIED", "-m", "SMB3",
                      user=None))
    expect("a share whose path is missing: NT_STATUS_BAD_NETWORK_NAME",
           fails_with(port, "gone", "NT_STATUS_BAD_NETWORK_NAME", "-m",
                      "SMB3"))

    # impacket 0.10 starts the 3.1.1 preauth hash of an NTLM session from
    # zero instead of the connection's (its Kerberos path does it right),
    # so its 3.1.1 signing keys are wrong against any server: 2.1 and 3.0.
    def impacket_all():
        from impacket import smb3structs as s3
        out = []
        for d in (s3.SMB2_DIALECT_21, s3.SMB2_DIALECT_30):
            c = impacket_conn(port, d)
            c.login(USER, PASS)
            srv = c.getSMBServer()
            ipc = c.connectTree("IPC$")
            tid = c.connectTree("demo")
            srv.echo()
            c.disconnectTree(tid)
            c.disconnectTree(ipc)
            c.logoff()
            out.append(d)
        return len(out) == 2, repr(out)
    expect("impacket 2.1 and 3.0 (encrypted): logon, IPC$ and demo trees, "
           "ECHO, tree disconnect, logoff", impacket_all)

    def reauth():
        # SESSION_SETUP on the live session (impacket's login() sends it
        # with the session's id): same session, its tree still usable; a
        # re-authentication that fails ends the session (3.3.5.5.3).
        from impacket import smb3structs as s3
        from impacket.smbconnection import SessionError
        c = impacket_conn(port, s3.SMB2_DIALECT_21)
        c.login(USER, PASS)
        srv = c.getSMBServer()
        sid = srv._Session["SessionID"]
        tid = c.connectTree("demo")
        c.login(USER, PASS)
        same = srv._Session["SessionID"] == sid
        srv.echo()
        ipc = c.connectTree("IPC$")
        c.disconnectTree(ipc)
        c.disconnectTree(tid)
        try:
            c.login(USER, "wrong")
            failed = 0
        except SessionError as e:
            failed = e.getErrorCode()
        srv._Session["SessionID"] = sid
        try:
            c.connectTree("demo")
            after = 0
        except SessionError as e:
            after = e.getErrorCode()
        ok = same and failed == 0xC000006D and after == 0xC0000203
        return ok, "same session %s, bad re-auth %#x, then %#x" % (
            same, failed, after)
    expect("re-authentication of a live session (2.1) keeps it and its "
           "trees; a failed one ends it: STATUS_USER_SESSION_DELETED",
           reauth)

    def previous_crossed():
        # Two live sessions of one user re-authenticate at once, each
        # naming the other as PreviousSessionId (3.3.5.5.3), their final
        # legs sent together: both are answered (a server that ends the
        # previous session while holding the new one's setup lock
        # deadlocks the two), with success or USER_SESSION_DELETED (the
        # other ended this one first), and a new logon works afterwards.
        # Three rounds.
        import threading
        from impacket import ntlm, smb3, smb3structs as s3
        from impacket.smbconnection import SessionError
        orig_setup, orig_type3 = smb3.SMB2SessionSetup, ntlm.getNTLMSSPType3
        local, barrier = threading.local(), threading.Barrier(2, timeout=60)

        def setup():
            r = orig_setup()
            r["PreviousSessionId"] = getattr(local, "prev", 0)
            return r

        def type3(*a, **kw):
            out = orig_type3(*a, **kw)
            if getattr(local, "prev", 0):
                barrier.wait()
            return out

        def relogon(c, prev, res, i):
            local.prev = prev
            try:
                c.login(USER, PASS)
                res[i] = 0
            except SessionError as e:
                res[i] = e.getErrorCode()
            except Exception as e:  # noqa: BLE001 - a timeout: reported
                res[i] = "%s: %s" % (type(e).__name__, e)

        smb3.SMB2SessionSetup, ntlm.getNTLMSSPType3 = setup, type3
        rounds = []
        try:
            for _ in range(3):
                cs = [impacket_conn(port, s3.SMB2_DIALECT_21)
                      for _ in range(2)]
                for c in cs:
                    c.login(USER, PASS)
                sids = [c.getSMBServer()._Session["SessionID"] for c in cs]
                res = [None, None]
                ts = [threading.Thread(target=relogon,
                                       args=(cs[i], sids[1 - i], res, i))
                      for i in range(2)]
                for t in ts:
                    t.start()
                for t in ts:
                    t.join(90)
                rounds.append(res if not any(t.is_alive() for t in ts)
                              else "hung")
                if rounds[-1] == "hung":
                    break
                for c in cs:
                    c.close()
        finally:
            smb3.SMB2SessionSetup, ntlm.getNTLMSSPType3 = (orig_setup,
                                                           orig_type3)
        c = impacket_conn(port, s3.SMB2_DIALECT_21)
        c.login(USER, PASS)
        c.disconnectTree(c.connectTree("demo"))
        c.logoff()
        ok = all(r != "hung" and all(x in (0, 0xC0000203) for x in r)
                 for r in rounds)
        return ok, "rounds %r" % rounds
    expect("two sessions re-authenticating at once, each naming the other "
           "as PreviousSessionId: both answered, a new logon works",
           previous_crossed)

    def validate_negotiate():
        from impacket import smb3structs as s3
        c = impacket_conn(port, s3.SMB2_DIALECT_30, sign=True)
        c.login(USER, PASS)
        srv = c.getSMBServer()
        tid = srv.connectTree("IPC$")
        vn = struct.pack("<I16sHH", s3.SMB2_GLOBAL_CAP_ENCRYPTION,
                         srv.ClientGuid.encode() if isinstance(
                             srv.ClientGuid, str) else srv.ClientGuid,
                         1, 1) + struct.pack("<H", 0x0300)
        out = srv.ioctl(tid, None, s3.FSCTL_VALIDATE_NEGOTIATE_INFO,
                        flags=s3.SMB2_0_IOCTL_IS_FSCTL, inputBlob=vn,
                        maxInputResponse=0, maxOutputResponse=24)
        caps, guid, mode, dialect = struct.unpack("<I16sHH", out[:24])
        ok = dialect == 0x0300 and mode & 1 and len(out) == 24
        # A tampered request terminates the connection.
        bad = vn[:4] + b"x" * 16 + vn[20:]
        try:
            srv.ioctl(tid, None, s3.FSCTL_VALIDATE_NEGOTIATE_INFO,
                      flags=s3.SMB2_0_IOCTL_IS_FSCTL, inputBlob=bad,
                      maxInputResponse=0, maxOutputResponse=24)
            dropped = False
        except Exception:  # noqa: BLE001 - any error means it hung up
            dropped = True
        return ok and dropped, "answer %r, dropped on a bad GUID: %s" % (
            (caps, mode, hex(dialect)), dropped)
    expect("FSCTL_VALIDATE_NEGOTIATE_INFO (3.0, signed): answered, and a "
           "mismatch drops the connection", validate_negotiate)


def section_signing(port):
    def mandatory():
        c = Conn(port)
        r = c.negotiate([0x0210, 0x0300, 0x0302])
        return neg_rsp(r)["secmode"] == 3, repr(neg_rsp(r)["secmode"])
    expect("server signing = mandatory: NEGOTIATE says SIGNING_REQUIRED",
           mandatory)
    for m in ("SMB2_10", "SMB3_00", "SMB3_11"):
        expect("server signing = mandatory: smbclient -m %s logs on" % m,
               works(port, "demo", "-m", m, "--max-protocol", m))

    def unsigned_refused():
        from impacket import smb3structs as s3
        c = impacket_conn(port, s3.SMB2_DIALECT_30)
        srv = c.getSMBServer()
        # Pretend the server did not ask: send what follows unsigned, and
        # in clear (impacket encrypts 3.x sessions on its own).
        srv._Connection["RequireSigning"] = False
        c.login(USER, PASS)
        srv._Session["SessionFlags"] &= ~s3.SMB2_SESSION_FLAG_ENCRYPT_DATA
        try:
            c.connectTree("demo")
            return False, "unsigned TREE_CONNECT accepted"
        except Exception as e:  # noqa: BLE001
            return "STATUS_ACCESS_DENIED" in str(e), str(e)
    expect("server signing = mandatory: an unsigned request on the session "
           "gets STATUS_ACCESS_DENIED", unsigned_refused)


def section_encryption(port):
    for m in ("SMB3_00", "SMB3_02", "SMB3_11"):
        expect("smb3 encryption = mandatory: smbclient -m %s logs on "
               "(encrypted)" % m, works(port, "demo", "-m", m,
                                        "--max-protocol", m))
    expect("smb3 encryption = mandatory: an SMB 2.1 client is refused",
           fails_with(port, "demo", "NT_STATUS_ACCESS_DENIED", "-m",
                      "SMB2_10", "--max-protocol", "SMB2_10"))


def section_share_encryption(port):
    for m in ("SMB3_00", "SMB3_11"):
        expect("share with smb3 encryption = mandatory: smbclient -m %s "
               "connects and encrypts" % m,
               works(port, "secret", "-m", m, "--max-protocol", m))
    expect("share with smb3 encryption = mandatory: an SMB 2.1 client "
           "gets NT_STATUS_ACCESS_DENIED",
           fails_with(port, "secret", "NT_STATUS_ACCESS_DENIED", "-m",
                      "SMB2_10", "--max-protocol", "SMB2_10"))

    def unencrypted_refused():
        from impacket import smb3structs as s3
        c = impacket_conn(port, s3.SMB2_DIALECT_30)
        srv = c.getSMBServer()
        c.login(USER, PASS)
        tid = c.connectTree("secret")
        # From now on, in clear: impacket encrypts 3.x sessions on its own.
        srv._Session["SessionFlags"] &= ~s3.SMB2_SESSION_FLAG_ENCRYPT_DATA
        srv._Session["TreeConnectTable"][tid]["EncryptData"] = False
        try:
            c.disconnectTree(tid)
            return False, "clear TREE_DISCONNECT accepted"
        except Exception as e:  # noqa: BLE001
            return "STATUS_ACCESS_DENIED" in str(e), str(e)
    expect("share with smb3 encryption = mandatory: a request in clear on "
           "its tree gets STATUS_ACCESS_DENIED", unencrypted_refused)


def main():
    port, section = int(sys.argv[1]), sys.argv[2]
    {"default": section_default, "signing": section_signing,
     "encryption": section_encryption,
     "share-encryption": section_share_encryption}[section](port)


if __name__ == "__main__":
    main()
