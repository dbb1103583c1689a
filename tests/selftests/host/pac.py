#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Tickets whose PAC was tampered with, for host/pac.sh: impacket takes a
service ticket a Samba AD DC issued (from an MIT ccache), decrypts it with
the service's key from the keytab, changes its PAC and encrypts it again,
then logs on with it (impacket's Kerberos client, SPNEGO).  The PAC's
server signature (MS-PAC 2.8) covers the whole PAC and is keyed with the
service key, which a client does not have: whoever changes the PAC
cannot sign it again.  Prints "PASS text" or "FAIL text: why" per check.

    pac.py PORT HOST REALM CCACHE KEYTAB
"""

import struct
import sys

from impacket.krb5 import constants, crypto
from impacket.krb5.asn1 import AD_IF_RELEVANT, EncTicketPart, TGS_REP
from impacket.krb5.ccache import CCache
from impacket.krb5.keytab import Keytab
from impacket.smbconnection import SMBConnection
from pyasn1.codec.der import decoder, encoder

AD_IF_RELEVANT_TYPE = 1
AD_WIN2K_PAC = 128
PAC_LOGON_INFO = 1
PAC_SERVER_CHECKSUM = 6
TICKET_KEY_USAGE = 2


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
                    if how:
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


def main():
    port, host, realm, ccache, keytab = sys.argv[1:6]
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
            check("%s: STATUS_LOGON_FAILURE" % text, got == 0xC000006D,
                  "%s (0x%08x)" % (e, got or 0))


if __name__ == "__main__":
    main()
