// SPDX-License-Identifier: GPL-2.0-or-later
//
// A test-only LD_PRELOAD shim for smbsrvd (tests/selftests/host/krb.sh):
// gss_accept_sec_context as usual, then, when the ticket's client is
// $SMBSRV_SLOW_PRINCIPAL, a sleep of $SMBSRV_SLOW_SECONDS: one Kerberos
// logon made as slow as a replay cache on slow storage would make it,
// while every other logon keeps its pace.  Built in tests/, never
// installed.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gssapi/gssapi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef OM_uint32 (*accept_fn)(OM_uint32 *, gss_ctx_id_t *, gss_cred_id_t,
			       gss_buffer_t, gss_channel_bindings_t, gss_name_t *, gss_OID *,
			       gss_buffer_t, OM_uint32 *, OM_uint32 *, gss_cred_id_t *);

static int slow_client(gss_ctx_id_t ctx, const char *want)
{
	OM_uint32 minor;
	gss_name_t src = GSS_C_NO_NAME;
	gss_buffer_desc out = GSS_C_EMPTY_BUFFER;
	int slow = 0;

	if (gss_inquire_context(&minor, ctx, &src, NULL, NULL, NULL, NULL, NULL, NULL) !=
	    GSS_S_COMPLETE)
		return 0;
	if (gss_display_name(&minor, src, &out, NULL) == GSS_S_COMPLETE) {
		slow = out.length == strlen(want) && !memcmp(out.value, want, out.length);
		gss_release_buffer(&minor, &out);
	}
	gss_release_name(&minor, &src);
	return slow;
}

OM_uint32 gss_accept_sec_context(OM_uint32 *minor, gss_ctx_id_t *ctx, gss_cred_id_t cred,
				 gss_buffer_t in, gss_channel_bindings_t cb, gss_name_t *src,
				 gss_OID *mech, gss_buffer_t out, OM_uint32 *flags,
				 OM_uint32 *time_rec, gss_cred_id_t *delegated)
{
	static accept_fn real;
	const char *want = getenv("SMBSRV_SLOW_PRINCIPAL");
	const char *secs = getenv("SMBSRV_SLOW_SECONDS");
	OM_uint32 major;

	if (!real)
		real = (accept_fn)dlsym(RTLD_NEXT, "gss_accept_sec_context");
	major = real(minor, ctx, cred, in, cb, src, mech, out, flags, time_rec, delegated);
	if (major == GSS_S_COMPLETE && want && secs && ctx && *ctx != GSS_C_NO_CONTEXT &&
	    slow_client(*ctx, want))
		sleep((unsigned int)atoi(secs));
	return major;
}
