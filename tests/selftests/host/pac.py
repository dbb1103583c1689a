#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Tickets whose PAC was tampered with, for host/pac.sh: impacket takes a
service ticket a Samba AD DC issued (from an MIT ccache), decrypts it with
the service's key from the keytab, changes its PAC and encrypts it again,
then logs on with it (impacket's Kerberos client, SPNEGO).  The PAC's
server signature (MS-PAC 2.8) covers the whole PAC and is keyed with the
service key, which a client does not have: whoever changes the PAC
cannot sign it again.

Holding the keytab, this can: a PAC re-signed with the service key (the
KDC's signature, which the service cannot check, left as it was) stands
for what a domain controller issues that this Samba AD DC does not make
on its own, decoded with Samba's NDR code (python3-samba): an extra SID
of another domain and a resource group (MS-PAC 2.5, the UserFlags D and
H) that the files extra.txt and res.txt grant by their NT ACLs alone, and
a PAC listing more SIDs than a token takes.  Prints "PASS text" or
"FAIL text: why" per check.

    pac.py PORT HOST REALM CCACHE KEYTAB SECRET EXTRA RES
        (the last three: local copies of the files' contents)
"""

import struct
import sys

from impacket.krb5 import constants, crypto
from impacket.krb5.asn1 import AD_IF_RELEVANT, EncTicketPart, TGS_REP
from impacket.krb5.ccache import CCache
from impacket.krb5.keytab import Keytab
from impacket.smbconnection import SMBConnection
from impacket.smbconnection import SessionError
from pyasn1.codec.der import decoder, encoder
from samba.dcerpc import krb5pac, netlogon, samr, security
from samba.ndr import ndr_pack, ndr_unpack

AD_IF_RELEVANT_TYPE = 1
AD_WIN2K_PAC = 128
PAC_LOGON_INFO = 1
PAC_SERVER_CHECKSUM = 6
TICKET_KEY_USAGE = 2
PAC_CHECKSUM_KEY_USAGE = 17  # KERB_NON_KERB_CKSUM_SALT
EXTRA_SID = "S-1-5-21-4242424242-4242424242-4242424242-1234"
RESOURCE_DOMAIN = "S-1-5-21-3777777777-777777777-77777777"
RESOURCE_RID = 2001
STATUS_ACCESS_DENIED = 0xC0000022
STATUS_LOGON_FAILURE = 0xC000006D


def check(text, cond, why=""):
    print(("PASS %s" % text) if cond else ("FAIL %s: %s" % (text, why)), flush=True)


def pac_buffers(pac):
    """(type, offset, size) of each PAC_INFO_BUFFER (MS-PAC 2.3, 2.4)."""
    count, _version = struct.unpack_from("<II", pac, 0)
    out = []
    for i in range(count):
        typ, size, off = struct.unpack_from("<IIQ", pac, 8 + 16 * i)
        out.append((typ, off, size))
    return out


def tamper_pac(pac, how):
    pac = bytearray(pac)
    bufs = {t: (o, s) for t, o, s in pac_buffers(pac)}
    if how == "signature":
        # PAC_SIGNATURE_DATA: SignatureType (4 bytes), then the HMAC.
        off, _ = bufs[PAC_SERVER_CHECKSUM]
        pac[off + 4] ^= 0x01
    elif how == "rid":
        # KERB_VALIDATION_INFO's UserId: 0x78 into the buffer (after the
        # 16-byte serialisation headers and the fixed part before it).
        off, _ = bufs[PAC_LOGON_INFO]
        struct.pack_into("<I", pac, off + 0x78, 500)  # Administrator
    return bytes(pac)


def add_sids(extra, resource_rids):
    """A change of KERB_VALIDATION_INFO: more extra SIDs, resource groups."""
    def change(li):
        info3 = li.info3
        sids = list(info3.sids or [])[:info3.sidcount]
        for sid in extra:
            e = netlogon.netr_SidAttr()
            e.sid, e.attributes = security.dom_sid(sid), 7
            sids.append(e)
        info3.sids = sids
        info3.sidcount = len(sids)
        info3.base.user_flags |= 0x20  # D: ExtraSids
        if resource_rids:
            arr = samr.RidWithAttributeArray()
            groups = []
            for rid in resource_rids:
                g = samr.RidWithAttribute()
                g.rid, g.attributes = rid, 7
                groups.append(g)
            arr.count = len(groups)
            arr.rids = groups
            li.resource_groups.domain_sid = security.dom_sid(RESOURCE_DOMAIN)
            li.resource_groups.groups = arr
            info3.base.user_flags |= 0x200  # H: ResourceGroupIds
    return change


def resign_pac(raw, key, change):
    """The PAC with its logon information changed and its server signature
    made again with the service key (the KDC signature kept: it is over
    the server signature with the krbtgt key, which services do not
    check)."""
    pac = ndr_unpack(krb5pac.PAC_DATA, raw)
    for b in pac.buffers:
        if b.type == krb5pac.PAC_TYPE_LOGON_INFO:
            change(b.info.info)
    srv = [b for b in pac.buffers if b.type == krb5pac.PAC_TYPE_SRV_CHECKSUM][0]
    kdc = [b for b in pac.buffers if b.type == krb5pac.PAC_TYPE_KDC_CHECKSUM][0]
    kdc_sig = bytes(kdc.info.signature)
    # The server signature is over the PAC with both signatures zeroed.
    srv.info.signature = bytes(len(srv.info.signature))
    kdc.info.signature = bytes(len(kdc_sig))
    ctype = srv.info.type
    srv.info.signature = crypto._checksum_table[ctype].checksum(
        key, PAC_CHECKSUM_KEY_USAGE, ndr_pack(pac))
    kdc.info.signature = kdc_sig
    return ndr_pack(pac)


class Rig:
    def __init__(self, port, host, realm, ccache, keytab):
        self.port, self.host, self.realm = port, host, realm
        self.cc = CCache.loadFile(ccache)
        self.kt = Keytab.loadFile(keytab)
        self.spn = "cifs/%s" % host

    def tgs(self, how):
        """The ccache's service ticket, its PAC changed as `how` says
        (None: decrypted and encrypted again unchanged)."""
        cred = self.cc.getCredential("%s@%s" % (self.spn, self.realm), anySPN=False)
        tgs = cred.toTGS()
        rep = decoder.decode(tgs["KDC_REP"], asn1Spec=TGS_REP())[0]
        enc = rep["ticket"]["enc-part"]
        etype = int(enc["etype"])
        key = self.kt.getKey("%s@%s" % (self.spn, self.realm), specificEncType=etype)
        if key is None:
            raise RuntimeError("no key of etype %d in the keytab" % etype)
        cipher = crypto._enctype_table[etype]
        k = crypto.Key(etype, bytes(key['keyvalue']['data']))
        plain = cipher.decrypt(k, TICKET_KEY_USAGE, bytes(enc["cipher"]))
        part = decoder.decode(plain, asn1Spec=EncTicketPart())[0]
        found = False
        for ad in part["authorization-data"]:
            if int(ad["ad-type"]) != AD_IF_RELEVANT_TYPE:
                continue
            inner = decoder.decode(bytes(ad["ad-data"]), asn1Spec=AD_IF_RELEVANT())[0]
            for e in inner:
                if int(e["ad-type"]) == AD_WIN2K_PAC:
                    found = True
                    if callable(how):
                        e["ad-data"] = resign_pac(bytes(e["ad-data"]), k, how)
                    elif how:
                        e["ad-data"] = tamper_pac(bytes(e["ad-data"]), how)
            ad["ad-data"] = encoder.encode(inner)
        if not found:
            raise RuntimeError("the ticket has no PAC")
        enc["cipher"] = cipher.encrypt(k, TICKET_KEY_USAGE, encoder.encode(part), None)
        tgs["KDC_REP"] = encoder.encode(rep)
        return tgs

    def logon(self, how):
        c = SMBConnection(self.host, "127.0.0.1", sess_port=self.port, timeout=120)
        c.kerberosLogin("quinn", "", self.realm, TGS=self.tgs(how))
        files = [f.get_longname() for f in c.listPath("ad", "*")]
        c.close()
        return files

    def read(self, how, names):
        """Each file's content, or the NTSTATUS that refused it."""
        c = SMBConnection(self.host, "127.0.0.1", sess_port=self.port, timeout=120)
        c.kerberosLogin("quinn", "", self.realm, TGS=self.tgs(how))
        out = {}
        for name in names:
            data = []
            try:
                c.getFile("ad", name, data.append)
                out[name] = b"".join(data)
            except SessionError as e:
                out[name] = e.getErrorCode()
        c.close()
        return out


def reads(rig, text, how, expect):
    """A logon with the ticket `how` makes; `expect`: name -> the content or
    the NTSTATUS each read gets."""
    try:
        got = rig.read(how, list(expect))
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        check(text, False, "%s: %s" % (type(e).__name__, e))
        return
    bad = {n: g for n, g in got.items() if g != expect[n]}
    check(text, not bad, "got %s" % {n: (("0x%08x" % g) if isinstance(g, int) else g)
                                        for n, g in bad.items()})


def main():
    port, host, realm, ccache, keytab = sys.argv[1:6]
    contents = sys.argv[6:9]  # the contents of secret.txt, extra.txt, res.txt
    rig = Rig(int(port), host, realm, ccache, keytab)

    try:
        files = rig.logon(None)
        check("quinn's ticket decrypted and encrypted again unchanged: the logon "
              "works and lists the share", "secret.txt" in files, "listing: %s" % files)
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        check("quinn's ticket decrypted and encrypted again unchanged: the logon works",
              False, "%s: %s" % (type(e).__name__, e))

    for how, text in (("signature", "the PAC's server signature flipped"),
                      ("rid", "the PAC's UserId changed to 500 (Administrator), not re-signed")):
        try:
            rig.logon(how)
            check("%s: refused" % text, False, "the logon succeeded")
        except Exception as e:  # noqa: BLE001
            got = getattr(e, "getErrorCode", lambda: None)()
            check("%s: STATUS_LOGON_FAILURE" % text, got == STATUS_LOGON_FAILURE,
                  "%s (0x%08x)" % (e, got or 0))

    secret, extra, res = (open(f, "rb").read() for f in contents)
    denied = STATUS_ACCESS_DENIED
    reads(rig, "quinn's own PAC: secret.txt read, extra.txt and res.txt refused "
          "(STATUS_ACCESS_DENIED)", None,
          {"secret.txt": secret, "extra.txt": denied, "res.txt": denied})
    reads(rig, "quinn's PAC re-signed with the service key, unchanged: the same",
          add_sids([], []),
          {"secret.txt": secret, "extra.txt": denied, "res.txt": denied})
    reads(rig, "quinn's PAC re-signed with an extra SID (%s): extra.txt read, "
          "res.txt refused" % EXTRA_SID, add_sids([EXTRA_SID], []),
          {"secret.txt": secret, "extra.txt": extra, "res.txt": denied})
    reads(rig, "quinn's PAC re-signed with a resource group (%s-%d): res.txt read, "
          "extra.txt refused" % (RESOURCE_DOMAIN, RESOURCE_RID), add_sids([], [RESOURCE_RID]),
          {"secret.txt": secret, "extra.txt": denied, "res.txt": res})
    absurd = ["S-1-5-21-1-2-3-%d" % i for i in range(1100)]
    try:
        rig.logon(add_sids(absurd, []))
        check("quinn's PAC re-signed with 1100 extra SIDs (more than 1024): refused",
              False, "the logon succeeded")
    except Exception as e:  # noqa: BLE001
        got = getattr(e, "getErrorCode", lambda: None)()
        check("quinn's PAC re-signed with 1100 extra SIDs (more than 1024): "
              "STATUS_LOGON_FAILURE", got == STATUS_LOGON_FAILURE, "%s (0x%08x)" % (e, got or 0))


if __name__ == "__main__":
    main()
