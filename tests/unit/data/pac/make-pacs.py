#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""PAC logon information buffers (KERB_VALIDATION_INFO, MS-PAC 2.5) made
with Samba's own NDR marshalling (Debian's python3-samba), for the unit
tests of userd/lib/pac.cpp and the seeds of fuzz_pac: an independent
encoder to check the decoder against.  samba-ad-dc-pat.bin beside them
is the buffer MIT GSSAPI returned for a ticket a Samba AD DC issued.

    make-pacs.py DIR
"""
import struct
import sys

from samba.dcerpc import krb5pac, netlogon, samr, security
from samba.ndr import ndr_pack

DOMAIN = "S-1-5-21-1111111111-2222222222-3333333333"
OTHER = "S-1-5-21-444444444-555555555-666666666"


def serialised(ctr):
    """MS-RPCE 2.2.6 type serialisation: common and private header."""
    body = ndr_pack(ctr)
    body += b"\0" * (-len(body) % 8)
    return struct.pack("<BBHIII", 1, 0x10, 8, 0xcccccccc, len(body), 0) + body


def rids(lst):
    out = samr.RidWithAttributeArray()
    out.count = len(lst)
    arr = []
    for r in lst:
        g = samr.RidWithAttribute()
        g.rid, g.attributes = r, 7
        arr.append(g)
    out.rids = arr
    return out


def logon_info(user, rid, gid, groups, extra=(), res_domain=None, res=()):
    info3 = netlogon.netr_SamInfo3()
    b = info3.base
    b.account_name.string = user
    b.logon_domain.string = "EXAMPLE"
    b.logon_server.string = "DC1"
    b.domain_sid = security.dom_sid(DOMAIN)
    b.rid, b.primary_gid = rid, gid
    b.groups = rids(groups)
    sids = []
    for s in extra:
        e = netlogon.netr_SidAttr()
        e.sid, e.attributes = security.dom_sid(s), 7
        sids.append(e)
    info3.sidcount = len(sids)
    info3.sids = sids
    b.user_flags = (0x20 if sids else 0) | (0x200 if res else 0)
    li = krb5pac.PAC_LOGON_INFO()
    li.info3 = info3
    if res_domain:
        li.resource_groups.domain_sid = security.dom_sid(res_domain)
        li.resource_groups.groups = rids(res)
    ctr = krb5pac.PAC_LOGON_INFO_CTR()
    ctr.info = li
    return serialised(ctr)


def main():
    out = sys.argv[1]
    bufs = {
        # Groups, extra SIDs of another domain and well-known ones,
        # resource groups of a resource domain, a name beyond ASCII.
        "rich": logon_info("zoë", 1105, 513, [513, 1104, 1106],
                           [OTHER + "-1234", "S-1-18-1", DOMAIN + "-1104"],
                           OTHER, [2001, 2002]),
        # 1024 SIDs: user, primary group and 1022 more: the limit.
        "limit": logon_info("max", 1107, 513, list(range(3000, 4022))),
        # 1025: one too many.
        "too-many": logon_info("over", 1108, 513, list(range(3000, 4023))),
    }
    for name, b in bufs.items():
        with open("%s/%s.bin" % (out, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
