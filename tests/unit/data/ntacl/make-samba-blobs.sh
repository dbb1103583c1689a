#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerate samba-blobs.txt: security.NTACL blobs written by Samba itself
# (samba-tool ntacl set --use-s3fs through smbd's acl_xattr module: needs
# Debian's samba-common-bin, python3-samba and samba-vfs-modules, not the
# samba package, which conflicts with ksmbd-tools), with what the file
# looked like when Samba
# hashed it: owner, group, st_mode and the POSIX ACLs Samba left on it.
# tests/unit/test_wire_ntacl.cpp decodes each blob and recomputes its
# sys_acl_hash the way smbsrv does.  Run as root on a file system with
# POSIX ACLs and user xattrs (the committed file came from ext4).
set -euo pipefail

out=$(cd "$(dirname "$0")" && pwd)/samba-blobs.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share" "$work/priv" "$work/lock"
cat > "$work/smb.conf" <<EOF
[global]
	private dir = $work/priv
	lock directory = $work/lock
	state directory = $work/lock
	cache directory = $work/lock
	pid directory = $work/lock
	ncalrpc dir = $work/lock
	passdb backend = tdbsam
[share]
	path = $work/share
	vfs objects = acl_xattr
	read only = no
EOF
net -s "$work/smb.conf" setlocalsid S-1-5-21-11-22-33 >/dev/null
net -s "$work/smb.conf" setdomainsid S-1-5-21-11-22-33 >/dev/null

U=S-1-22-1-1000 G=S-1-22-2-1000 O=S-1-22-1-1001
cases=(
	"file-owner-world f 0640 O:${U}G:${G}D:(A;;FA;;;${U})(A;;0x1200a9;;;WD)"
	"file-deny f 0600 O:${U}G:${G}D:(D;;FW;;;${O})(A;;FA;;;${U})(A;;FR;;;WD)"
	"file-noncanonical f 0640 O:${U}G:${G}D:(A;;FA;;;${U})(D;;FW;;;${O})"
	"file-user f 0644 O:${U}G:${G}D:(A;;FA;;;${U})(A;;FR;;;${O})(A;;FR;;;${G})"
	"dir-inherit d 0755 O:${U}G:${G}D:(A;OICI;FA;;;${U})(A;OICIIO;FA;;;CO)(A;OICI;0x1200a9;;;WD)"
	"dir-protected d 0770 O:${U}G:${G}D:P(A;;FA;;;${U})(A;OICI;FA;;;${O})"
)
: > "$out"
i=0
for c in "${cases[@]}"; do
	read -r name kind mode sddl <<<"$c"
	f="$work/share/$name"
	if [ "$kind" = d ]; then mkdir "$f"; else : > "$f"; fi
	chown 1000:1000 "$f"
	chmod "$mode" "$f"
	samba-tool ntacl set "$sddl" "$f" --use-s3fs --service=share \
		-s "$work/smb.conf" >/dev/null 2>&1
	/usr/bin/python3 - "$f" "$name" "$sddl" >> "$out" <<'EOF'
import os, struct, sys
f, name, sddl = sys.argv[1:]
st = os.stat(f)
def posix_acl(attr):
    try:
        b = os.getxattr(f, attr)
    except OSError:
        return 'none'
    # Linux's posix_acl_xattr: u32 version, then (u16 tag, u16 perm, u32 id)
    tags = {1: 2, 2: 1, 4: 4, 8: 3, 16: 6, 32: 5}   # to Samba's numbering
    ents = []
    for o in range(4, len(b), 8):
        t, p, i = struct.unpack_from('<HHI', b, o)
        ents.append('%d:%d:%d' % (tags[t], p, i if t in (2, 8) else 0))
    return ','.join(ents) or 'empty'
print('name', name)
print('blob', os.getxattr(f, 'security.NTACL').hex())
print('stat', st.st_uid, st.st_gid, st.st_mode)
print('acc', posix_acl('system.posix_acl_access'))
print('def', posix_acl('system.posix_acl_default'))
print('sddl', sddl)
print()
EOF
	i=$((i + 1))
done
# Versions 1 to 4 as Samba's own NDR code packs them (samba.ndr): Samba
# still reads the older ones, and so must smbsrv.
/usr/bin/python3 - "$out" <<'EOF'
import sys
from samba.dcerpc import security, xattr
from samba.ndr import ndr_pack
sd = security.descriptor.from_sddl(
    'O:S-1-22-1-1000G:S-1-22-2-1000D:AI(A;OICIID;FA;;;S-1-22-1-1000)'
    '(D;;FW;;;S-1-5-11)S:(AU;SA;FA;;;WD)', security.dom_sid('S-1-5-21-1'))
with open(sys.argv[1], 'a') as out:
    for v in (1, 2, 3, 4):
        n = xattr.NTACL()
        n.version = v
        if v == 1:
            n.info = sd
        else:
            h = {2: xattr.security_descriptor_hash_v2,
                 3: xattr.security_descriptor_hash_v3,
                 4: xattr.security_descriptor_hash_v4}[v]()
            h.sd = sd
            if v == 2:
                h.hash = list(range(16))
            else:
                h.hash_type = 1
                h.hash = list(range(64))
            if v == 4:
                # Another description length: what follows moves.
                h.description = 'nfs4acl'
                h.time = 0x01dd81b76ee99eb4
                h.sys_acl_hash = list(range(64, 128))
            n.info = h
        print('name ndr-v%d' % v, file=out)
        print('blob', ndr_pack(n).hex(), file=out)
        print('stat - - -', file=out)
        print('acc -', file=out)
        print('def -', file=out)
        print('sddl', sd.as_sddl(), file=out)
        print(file=out)
EOF
echo "wrote $((i + 4)) blobs to $out"
