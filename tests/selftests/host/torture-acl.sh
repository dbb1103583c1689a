#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's NT ACL suites, logged on as demo (not root), against smbsrv
# and, in the same boot, the in-tree ksmbd (torture.bash), on the share
# issue 12 asks for: vfs objects = streams_xattr acl_xattr, create mask
# 0666, directory mask 0777, the share root root's and 0777.  smb2.acls,
# the ACL subtests of smb2.create and smb2.maximum_allowed; the side-by-
# side table goes to build/test-logs/torture-torture-acl.txt and into
# this log, and what smbsrv passes is asserted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_SHARE_CONF="vfs objects = streams_xattr acl_xattr
	create mask = 0666
	directory mask = 0777
	store dos attributes = yes"
# acls.ACCESSBASED lists a directory on a share named hideunread.
TT_MORE_CONF="[hideunread]
	path = /srv/tt-hide
	read only = no
	hide unreadable = yes
	$TT_SHARE_CONF"

t_vm_start
t_guest_check "the hideunread share's directory" 'mkdir -p /srv/tt-hide'
tt_servers_up
t_guest_check "the share roots are root's, mode 0777" '
chown root:root /srv/tt-smbsrv /srv/tt-ksmbd /srv/tt-hide &&
chmod 0777 /srv/tt-smbsrv /srv/tt-ksmbd /srv/tt-hide'
tt_run smb2.acls smb2.create.aclfile smb2.create.acldir smb2.create.nulldacl \
	smb2.maximum_allowed
# Still failing on smbsrv, with reasons in Documentation/testing.md:
# maximum_allowed (MAXIMUM_ALLOWED | GENERIC_EXECUTE on a
# file whose DACL grants only SEC_RIGHTS_FILE_READ: FILE_EXECUTE is not
# granted; Samba lists the test as a known failure; ksmbd passes it by not
# checking the other bits, which acls.MXAC-NOT-GRANTED shows is wrong).
tt_must_pass \
	smb2.acls.CREATOR smb2.acls.GENERIC smb2.acls.OWNER \
	smb2.acls.INHERITANCE smb2.acls.INHERITFLAGS smb2.acls.SDFLAGSVSCHOWN \
	smb2.acls.DYNAMIC smb2.acls.OWNER-RIGHTS smb2.acls.OWNER-RIGHTS-DENY \
	smb2.acls.OWNER-RIGHTS-DENY1 smb2.acls.DENY1 \
	smb2.acls.MXAC-NOT-GRANTED smb2.acls.OVERWRITE_READ_ONLY_FILE \
	smb2.acls.ACCESSBASED \
	smb2.create.aclfile.aclfile smb2.create.acldir.acldir \
	smb2.create.nulldacl.nulldacl
tt_table
t_dmesg_clean
t_done
