#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Kerberos checks that smbclient cannot make, with impacket's Kerberos
client fed service tickets from an MIT ccache (krb.sh gets them with kinit
and kvno from the suite's own KDC): a logon with a ticket that verifies,
the same AP-REQ replayed on a new connection, a ticket for another service
of the keytab, a ticket for a principal the keytab lacks, an expired
ticket (the ccache's ticket decrypted with the service key of KEYTAB, its
end time moved two hours back, encrypted again: a KDC's ticket in all but
its times), a malformed AP-REQ.  Prints "PASS text" or "FAIL text: why"
per check; krb.sh turns them into TAP.

    krb.py PORT HOST REALM CCACHE KEYTAB
    krb.py PORT HOST REALM CCACHE ntlm-off

With ntlm-off (the server has ntlm auth = disabled): NEGOTIATE offers
Kerberos only, an NTLM logon gets STATUS_NTLM_BLOCKED, Kerberos works.
"""

import datetime
import sys

from impacket.krb5 import crypto
from impacket.krb5.asn1 import TGS_REP, EncTicketPart
from impacket.krb5.ccache import CCache
from impacket.krb5.keytab import Keytab
from impacket.krb5.types import KerberosTime
from impacket.smb3structs import SMB2_SESSION_SETUP, SMB2SessionSetup
from impacket.smbconnection import SMBConnection
from pyasn1.codec.der import decoder, encoder

STATUS = {
    0: "STATUS_SUCCESS",
    0xC000000D: "STATUS_INVALID_PARAMETER",
    0xC000006D: "STATUS_LOGON_FAILURE",
    0xC0000418: "STATUS_NTLM_BLOCKED",
}
OID_KRB5 = bytes([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02])
OID_MS_KRB5 = bytes([0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02])
OID_NTLMSSP = bytes([0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a])


def check(text, cond, why=""):
    print(("PASS %s" % text) if cond else ("FAIL %s: %s" % (text, why)),
          flush=True)


def expect(text, fn):
    try:
        cond, why = fn()
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        cond, why = False, "%s: %s" % (type(e).__name__, e)
    check(text, cond, why)


def name(status):
    return STATUS.get(status, "0x%08x" % status)


class Rig:
    def __init__(self, port, host, realm, ccache):
        self.port, self.host, self.realm = port, host, realm
        self.cc = CCache.loadFile(ccache)

    def tgs(self, spn):
        cred = self.cc.getCredential("%s@%s" % (spn, self.realm), anySPN=False)
        if cred is None:
            raise RuntimeError("no ticket for %s in the ccache" % spn)
        return cred.toTGS()

    def expired_tgs(self, spn, keytab):
        """The ccache's ticket for spn, valid from 3 to 2 hours ago (more
        than the 5 minutes of clock skew a service allows)."""
        tgs = self.tgs(spn)
        rep = decoder.decode(tgs["KDC_REP"], asn1Spec=TGS_REP())[0]
        enc = rep["ticket"]["enc-part"]
        etype = int(enc["etype"])
        key = Keytab.loadFile(keytab).getKey("%s@%s" % (spn, self.realm),
                                             specificEncType=etype)
        if key is None:
            raise RuntimeError("no key of etype %d in the keytab" % etype)
        cipher = crypto._enctype_table[etype]
        k = crypto.Key(etype, bytes(key["keyvalue"]["data"]))
        part = decoder.decode(cipher.decrypt(k, 2, bytes(enc["cipher"])),
                              asn1Spec=EncTicketPart())[0]
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        part["authtime"] = KerberosTime.to_asn1(now - datetime.timedelta(hours=3))
        part["starttime"] = KerberosTime.to_asn1(now - datetime.timedelta(hours=3))
        part["endtime"] = KerberosTime.to_asn1(now - datetime.timedelta(hours=2))
        if part["renew-till"].hasValue():
            part["renew-till"] = KerberosTime.to_asn1(now - datetime.timedelta(hours=2))
        enc["cipher"] = cipher.encrypt(k, 2, encoder.encode(part), None)
        tgs["KDC_REP"] = encoder.encode(rep)
        return tgs

    def conn(self):
        return SMBConnection(self.host, "127.0.0.1", sess_port=self.port,
                             timeout=120)

    def logon(self, spn):
        """A Kerberos logon with the ticket for spn; returns the connection
        and the SESSION_SETUP security blob it sent."""
        c = self.conn()
        smb = c.getSMBServer()
        sent = []
        send = smb.sendSMB

        def spy(packet):
            if packet["Command"] == SMB2_SESSION_SETUP:
                sent.append(SMB2SessionSetup(packet["Data"].getData())["Buffer"])
            return send(packet)
        smb.sendSMB = spy
        c.kerberosLogin("alice", "", self.realm, TGS=self.tgs(spn))
        return c, sent[-1]

    def raw_setup(self, blob):
        """A fresh connection's SESSION_SETUP with this blob: its status."""
        c = self.conn()
        smb = c.getSMBServer()
        setup = SMB2SessionSetup()
        setup["Flags"] = 0
        setup["SecurityMode"] = 1
        setup["SecurityBufferLength"] = len(blob)
        setup["Buffer"] = blob
        packet = smb.SMB_PACKET()
        packet["Command"] = SMB2_SESSION_SETUP
        packet["Data"] = setup
        ans = smb.recvSMB(smb.sendSMB(packet))
        c.close()
        return ans["Status"]

    def refused(self, spn, status, tgs=None):
        def fn():
            try:
                if tgs:
                    c = self.conn()
                    c.kerberosLogin("alice", "", self.realm, TGS=tgs())
                else:
                    self.logon(spn)
            except Exception as e:  # noqa: BLE001
                got = getattr(e, "getErrorCode", lambda: None)()
                return got == status, "%s (%s)" % (e, name(got or 0))
            return False, "the logon succeeded"
        return fn


def mechs_offered(rig):
    c = rig.conn()
    token = c.getSMBServer()._Connection["GSSNegotiateToken"]
    c.close()
    return [n for n, oid in (("ms-krb5", OID_MS_KRB5), ("krb5", OID_KRB5),
                             ("ntlmssp", OID_NTLMSSP)) if oid in token]


def ntlm_off(rig, cifs):
    def offered():
        m = mechs_offered(rig)
        return m == ["ms-krb5", "krb5"], "offered: %s" % m
    expect("NEGOTIATE offers Kerberos (MS and IETF OIDs) and no NTLMSSP", offered)

    def ntlm():
        c = rig.conn()
        try:
            c.login("alice", "alicepass")
        except Exception as e:  # noqa: BLE001
            got = getattr(e, "getErrorCode", lambda: None)()
            return got == 0xC0000418, "%s (%s)" % (e, name(got or 0))
        return False, "the NTLM logon succeeded"
    expect("impacket: an NTLMSSP logon of alice (right password) gets "
           "STATUS_NTLM_BLOCKED", ntlm)

    def krb():
        c, _ = rig.logon(cifs)
        files = [f.get_longname() for f in c.listPath("krb", "*")]
        c.close()
        return "." in files, "listing: %s" % files
    expect("impacket: a Kerberos logon still lists the share", krb)


def main():
    port, host, realm, ccache = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    rig = Rig(port, host, realm, ccache)
    cifs = "cifs/%s" % host
    state = {}
    if sys.argv[5:] == ["ntlm-off"]:
        ntlm_off(rig, cifs)
        return
    keytab = sys.argv[5]

    def offered():
        m = mechs_offered(rig)
        return m == ["ms-krb5", "krb5", "ntlmssp"], "offered: %s" % m
    expect("NEGOTIATE offers MS-krb5, krb5 and NTLMSSP, in Windows' order", offered)

    def good():
        c, blob = rig.logon(cifs)
        state["blob"] = blob
        files = [f.get_longname() for f in c.listPath("krb", "*")]
        c.close()
        return "." in files, "listing: %s" % files
    expect("impacket: a Kerberos logon (AES ticket from the ccache, no "
           "mutual authentication) lists the share", good)

    def replay():
        if "blob" not in state:
            return False, "no AP-REQ recorded"
        st = rig.raw_setup(state["blob"])
        return st == 0xC000006D, name(st)
    expect("the same AP-REQ replayed on a new connection: "
           "STATUS_LOGON_FAILURE (replay cache)", replay)

    expect("a ticket for host/%s (in the keytab, not a cifs/ principal): "
           "STATUS_LOGON_FAILURE" % host, rig.refused("host/%s" % host, 0xC000006D))
    expect("a ticket for cifs/other.%s (not in the keytab): "
           "STATUS_LOGON_FAILURE" % host.split(".", 1)[-1],
           rig.refused("cifs/other.%s" % host.split(".", 1)[-1], 0xC000006D))
    expect("an expired ticket (ended two hours ago): STATUS_LOGON_FAILURE",
           rig.refused(cifs, 0xC000006D, lambda: rig.expired_tgs(cifs, keytab)))

    def malformed():
        # GSS-framed krb5 AP-REQ TOK_ID with a body that is no AP-REQ.
        oid = bytes([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02])
        inner = oid + b"\x01\x00" + b"\x6e\x03\x02\x01\x05"
        tok = b"\x60" + bytes([len(inner)]) + inner
        mech = b"\x30\x0b" + oid
        body = b"\xa0" + bytes([len(mech)]) + mech + b"\xa2" + bytes([len(tok) + 2]) + \
            b"\x04" + bytes([len(tok)]) + tok
        seq = b"\x30" + bytes([len(body)]) + body
        spnego_oid = bytes([0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02])
        init = spnego_oid + b"\xa0" + bytes([len(seq)]) + seq
        blob = b"\x60" + bytes([len(init)]) + init
        st = rig.raw_setup(blob)
        return st == 0xC000006D, name(st)
    expect("a malformed AP-REQ in SPNEGO: STATUS_LOGON_FAILURE", malformed)

    def oversized():
        # A well-formed SPNEGO NegTokenInit whose AP-REQ is 60000 bytes.
        oid = bytes([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02])

        def tlv(tag, v):
            n = len(v)
            if n < 0x80:
                return bytes([tag, n]) + v
            ln = n.to_bytes((n.bit_length() + 7) // 8, "big")
            return bytes([tag, 0x80 | len(ln)]) + ln + v
        tok = tlv(0x60, oid + b"\x01\x00" + tlv(0x6e, b"\x00" * 60000))
        body = tlv(0xa0, tlv(0x30, oid)) + tlv(0xa2, tlv(0x04, tok))
        blob = tlv(0x60, bytes([0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02]) +
                   tlv(0xa0, tlv(0x30, body)))
        st = rig.raw_setup(blob)
        return st == 0xC000006D, "%s (blob %d bytes)" % (name(st), len(blob))
    expect("a 60 KB AP-REQ: STATUS_LOGON_FAILURE, and the server still answers", oversized)
    expect("after all that, a good Kerberos logon still works", good)


if __name__ == "__main__":
    main()
