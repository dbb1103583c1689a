# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's reports in a guest's console (and the kmemleak scan that
# tools/vm/guest/vm-kmemleak prints): each as a line "=== TITLE" and up
# to 80 lines of the report after it.  Used by vm_debug_check
# (tools/vm/lib.sh) for the debug kernel: KASAN, UBSAN, lockdep and the
# other WARNINGs and BUGs, oopses, hung tasks, list and refcount
# corruption, kmemleak's unreferenced objects, SLUB's red zone and
# poison checks ("BUG kmalloc-64 (Not tainted): Redzone overwritten").
#
# The in-tree ksmbd runs beside smbsrv as the yardstick, and it has bugs
# of its own: a report whose stack and allocation traces name ksmbd's
# functions ("[ksmbd]") and none of smbsrv's is ksmbd's, and its title
# line reads "=== ksmbd's: TITLE", which vm_debug_check lists without
# counting.  With -v pass=1 (the guest's dmesg_bad) the input is copied
# through instead, minus the lines of ksmbd's reports, and with a line
# "kernel-reports: ksmbd's report left out: TITLE" for each.
function flush(whole) {
	if (title != "") {
		whole = title "\n" body
		if (whole ~ /\[ksmbd\]/ && whole !~ /\[smbsrv\]/) {
			if (pass)
				print "kernel-reports: one of ksmbd's reports left out"
			else
				printf "=== ksmbd's: %s\n%s", title, body
		} else {
			printf "%s%s\n%s", pass ? "" : "=== ", title, body
		}
	}
	title = ""
	body = ""
	n = 0
}
{
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
}
/^SMBSRV-KMEMLEAK-BEGIN/ { flush(); leak = 1; next }
/^SMBSRV-KMEMLEAK-END/ { flush(); leak = 0; next }
leak && /^unreferenced object/ {
	flush()
	title = "kmemleak: " $0
	next
}
# The kernel's lines only (a test printing dmesg does so with a prefix):
# the report's first line, after an optional "watchdog: " or "rcu: ".
!leak && /^([a-z_]+: )?(BUG: |WARNING: |UBSAN: |Oops: |general protection fault|kernel BUG at|INFO: task .* blocked|INFO: rcu|list_(add|del) corruption|refcount_t: )/ ||
    /^kmemleak: .*(disabled|Cannot)/ || /^BUG [^ ]+ \(.*\): / {
	flush()
	title = $0
	next
}
title != "" {
	# A report's lines (the first 80 kept); a blank line or the next
	# marker ends the kmemleak ones; the closing rule of KASAN's and
	# UBSAN's, the end of a WARNING's trace or 300 lines the others.
	if (leak && /^$/) {
		flush()
		next
	}
	if (n++ < 80)
		body = body $0 "\n"
	if ((!leak && /^SMBSRV-VM-|^---\[ end trace|^=====+$/) || n == 300)
		flush()
	next
}
pass { print }
END { flush() }
