#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's QUERY_INFO, SET_INFO, QUERY_DIRECTORY, rename and compound
# suites, logged on as demo, against smbsrv and, in the same boot, the
# in-tree ksmbd (torture.bash): the side-by-side table goes to
# build/test-logs/torture-torture-meta.txt and into this log; the subtests
# smbsrv passes today are asserted so they stay passing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_TIMEOUT=${TT_TIMEOUT:-240}

t_vm_start
tt_servers_up
tt_run smb2.getinfo smb2.setinfo smb2.dir smb2.rename smb2.scan.getinfo \
	smb2.scan.setinfo smb2.scan.find smb2.compound
# Still failing on smbsrv (see the table and Documentation/testing.md;
# ksmbd fails them too): getinfo.complex needs named streams; dir.modify
# sets attributes by names in another case (smbsrv's names are
# case-sensitive); setinfo.setinfo expects a set ChangeTime to stay
# through later sets on the handle; getinfo.normalized opens by an 8.3
# name; compound.compound-padding needs named streams.
tt_must_pass \
	smb2.compound.compound-break smb2.compound.create-write-close \
	smb2.compound.invalid1 smb2.compound.invalid2 smb2.compound.invalid3 \
	smb2.compound.invalid4 smb2.compound.interim1 smb2.compound.interim2 \
	smb2.compound.related1 smb2.compound.related2 smb2.compound.related3 \
	smb2.compound.related4 smb2.compound.related5 smb2.compound.related6 \
	smb2.compound.related7 smb2.compound.related8 smb2.compound.related9 \
	smb2.compound.unrelated1 \
	smb2.dir.file-index smb2.dir.find smb2.dir.fixed smb2.dir.large-files \
	smb2.dir.many smb2.dir.sorted smb2.dir.one \
	smb2.getinfo.fsinfo smb2.getinfo.getinfo_access smb2.getinfo.granted \
	smb2.getinfo.qfile_buffercheck smb2.getinfo.qfs_buffercheck \
	smb2.getinfo.qsec_buffercheck \
	smb2.rename.close-full-information smb2.rename.msword \
	smb2.rename.no_sharing smb2.rename.rename_dir_bench \
	smb2.rename.rename_dir_openfile \
	smb2.rename.share_delete_and_delete_access \
	smb2.rename.no_share_delete_but_delete_access \
	smb2.rename.no_share_delete_no_delete_access \
	smb2.rename.share_delete_no_delete_access smb2.rename.simple \
	smb2.rename.simple_nodelete smb2.scan.find.find \
	smb2.scan.getinfo.getinfo smb2.scan.setinfo.setinfo
tt_table
t_dmesg_clean
t_done
