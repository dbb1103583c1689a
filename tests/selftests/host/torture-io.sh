#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's LOCK, IOCTL and CHANGE_NOTIFY suites, logged on as demo,
# against smbsrv and, in the same boot, the in-tree ksmbd (torture.bash):
# the side-by-side table goes to build/test-logs/torture-torture-io.txt
# and into this log; the subtests smbsrv passes today are asserted so they
# stay passing.  smb2.notify.mask alone takes about 90 s under TCG (32
# filter bits x 12 operations, each with a 200 ms wait).
. "$(dirname "$0")/lib.sh"
# Before torture.bash, which sets its own default (240 s) otherwise:
# smb2.notify takes 110 s on an idle machine and mask alone 120-160 s at
# load 9.
TT_TIMEOUT=${TT_TIMEOUT:-300}
. "$(dirname "$0")/torture.bash"

t_vm_start
tt_servers_up
tt_run smb2.lock smb2.ioctl smb2.notify
# Still failing on smbsrv, with the reasons, in Documentation/testing.md;
# notify.dir is left out: 1 run in 5 its third request saw two changes.
tt_must_pass \
	smb2.lock.async smb2.lock.auto-unlock smb2.lock.cancel \
	smb2.lock.cancel-logoff smb2.lock.cancel-tdis smb2.lock.contend \
	smb2.lock.context smb2.lock.errorcode smb2.lock.lock \
	smb2.lock.multiple-unlock smb2.lock.overlap smb2.lock.range \
	smb2.lock.rw-exclusive smb2.lock.rw-shared smb2.lock.stacking \
	smb2.lock.truncate smb2.lock.unlock smb2.lock.valid-request \
	smb2.lock.zerobytelength smb2.lock.zerobyteread smb2.notify.valid-req \
	smb2.notify.tcon smb2.notify.mask smb2.notify.tdis smb2.notify.tdis1 \
	smb2.notify.close smb2.notify.logoff smb2.notify.session-reconnect \
	smb2.notify.basedir smb2.notify.double smb2.notify.file \
	smb2.notify.tcp smb2.notify.overflow smb2.notify.rmdir1 \
	smb2.notify.rmdir2 smb2.notify.rmdir3 smb2.notify.rmdir4 \
	smb2.notify.handle-permissions smb2.ioctl.compress_notsup_get \
	smb2.ioctl.compress_notsup_set smb2.ioctl.copy_chunk_across_shares \
	smb2.ioctl.copy_chunk_across_shares2 \
	smb2.ioctl.copy_chunk_across_shares3 smb2.ioctl.copy_chunk_append \
	smb2.ioctl.copy_chunk_bad_access smb2.ioctl.copy_chunk_bad_key \
	smb2.ioctl.copy_chunk_dest_lock smb2.ioctl.copy_chunk_limits \
	smb2.ioctl.copy_chunk_max_output_sz smb2.ioctl.copy_chunk_multi \
	smb2.ioctl.copy_chunk_overwrite smb2.ioctl.copy_chunk_simple \
	smb2.ioctl.copy_chunk_sparse_dest smb2.ioctl.copy_chunk_src_exceed \
	smb2.ioctl.copy_chunk_src_exceed_multi \
	smb2.ioctl.copy_chunk_src_is_dest \
	smb2.ioctl.copy_chunk_src_is_dest_overlap \
	smb2.ioctl.copy_chunk_src_lock smb2.ioctl.copy_chunk_tiny \
	smb2.ioctl.copy_chunk_write_access smb2.ioctl.copy_chunk_zero_length \
	smb2.ioctl.req_resume_key smb2.ioctl.req_two_resume_keys \
	smb2.ioctl.sparse_copy_chunk smb2.ioctl.sparse_dir_flag \
	smb2.ioctl.sparse_file_attr smb2.ioctl.sparse_file_flag \
	smb2.ioctl.sparse_hole_dealloc smb2.ioctl.sparse_lock \
	smb2.ioctl.sparse_perms smb2.ioctl.sparse_punch \
	smb2.ioctl.sparse_punch_invalid smb2.ioctl.sparse_qar \
	smb2.ioctl.sparse_qar_malformed smb2.ioctl.sparse_qar_multi \
	smb2.ioctl.sparse_qar_ob1 smb2.ioctl.sparse_qar_overflow \
	smb2.ioctl.sparse_set_nobuf smb2.ioctl.sparse_set_oversize
tt_table
t_dmesg_clean
t_done
