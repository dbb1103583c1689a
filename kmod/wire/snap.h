/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Previous versions (snapshots) as SMB names them: @GMT tokens
 * ("@GMT-YYYY.MM.DD-HH.MM.SS", MS-SMB2 2.2.13.2.7 and MS-SMB 2.2.1.1.1),
 * the TWrp create context's FILETIME, snapshot directory names made and
 * read with a share's `shadow:format` (a subset of strftime(3)), and the
 * SRV_SNAPSHOT_ARRAY an FSCTL_SRV_ENUMERATE_SNAPSHOTS answers with
 * (MS-SMB2 2.2.32.2, 3.3.5.15.1).
 *
 * Times are seconds since the Unix epoch, UTC, from 1970-01-01 00:00:00
 * to 9999-12-31 23:59:59 (what four-digit years can name).
 */
#ifndef _SMBSRV_WIRE_SNAP_H
#define _SMBSRV_WIRE_SNAP_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Last second a snapshot time may have: 9999-12-31 23:59:59 UTC. */
#define SMB_SNAP_TIME_MAX	253402300799ULL

/* "@GMT-YYYY.MM.DD-HH.MM.SS": its length, without a NUL. */
#define SMB_GMT_TOKEN_LEN	24

/* Longest snapshot directory name a format may produce (NAME_MAX). */
#define SMB_SNAP_NAME_MAX	255

/* Longest `shadow:format` accepted. */
#define SMB_SNAP_FORMAT_MAX	128

/*
 * Whether @fmt can name snapshots: at most SMB_SNAP_FORMAT_MAX bytes, no
 * '/', conversions only from %Y %m %d %H %M %S %y %j %s %F %T %% (the
 * rest is literal text), enough of them to name a day (%s, or a year and
 * %m with %d, or %j; hours, minutes and seconds left out are 0), each
 * field (and the year) at most once, and no digit right after %s (whose
 * width varies).
 * Returns 0, or -EINVAL.
 */
int smb_snap_format_check(const char *fmt);

/*
 * The name @fmt gives the snapshot of time @t (to the precision of the
 * format: "%F" names a whole day), in @out (@cap bytes, NUL
 * terminated).  Returns its length, or -EINVAL (a bad format, a time out
 * of range, past 2068 for a format with %y) or -ENAMETOOLONG (longer
 * than @cap - 1 or SMB_SNAP_NAME_MAX).
 */
int smb_snap_name(const char *fmt, u64 t, char *out, u32 cap);

/*
 * The time a snapshot directory named @name (@len bytes, not NUL
 * terminated: as a directory lists it) stands for under @fmt, in *@t.
 * Strict: every number has the width the format writes (%Y four digits,
 * %m two, ...; %s without leading zeros) and the name must be exactly
 * what smb_snap_name() makes of that time, so a name parses only if it
 * is the one name of its time.  Returns 0, or -EINVAL.
 */
int smb_snap_parse(const char *fmt, const char *name, u32 len, u64 *t);

/*
 * An @GMT token: @s (@len bytes) is exactly "@GMT-YYYY.MM.DD-HH.MM.SS",
 * a valid date and time.  Returns 0 with *@t, or -EINVAL.
 */
int smb_gmt_token_parse(const char *s, u32 len, u64 *t);

/* The token of @t (at most SMB_SNAP_TIME_MAX) in @out, NUL terminated. */
void smb_gmt_token(u64 t, char out[SMB_GMT_TOKEN_LEN + 1]);

/*
 * Find an @GMT token in @path (a '/'-separated share-relative path, as
 * smb_name_to_path() makes them): the first "@GMT-" that starts a
 * component, if that whole component is a valid token (Samba's rule;
 * anything else is an ordinary name).  The component is taken out of
 * @path in place (with the separator after or before it), so that the
 * rest names the object inside the snapshot.  Returns 1 with *@t, 0 when
 * the path has no token.
 */
int smb_gmt_strip(char *path, u64 *t);

/*
 * The TWrp create context (MS-SMB2 2.2.13.2.7): a FILETIME.  Returns 0
 * with *@t in whole seconds (the snapshot of that second), -EINVAL for
 * data shorter than 8 bytes, -ERANGE for a time before 1970 or after
 * 9999 (which no snapshot can have).
 */
int smb_twrp_decode(const u8 *data, u32 len, u64 *t);

/* SRV_SNAPSHOT_ARRAY: its three counts, then the tokens. */
#define SMB_SNAP_ARRAY_HDR	12
/* The smallest answer a request may ask for (3.3.5.15.1). */
#define SMB_SNAP_ARRAY_MIN_OUT	16
/* One token in the array: 24 UTF-16 characters and a NUL. */
#define SMB_SNAP_ARRAY_ENTRY	(2 * (SMB_GMT_TOKEN_LEN + 1))

/* SnapShotArraySize for @n snapshots: the tokens and the final NUL. */
u32 smb_snap_array_size(u32 n);

/*
 * The SRV_SNAPSHOT_ARRAY for the @n times @t (in the order given) at
 * @out, for a request whose MaxOutputResponse is @max_out (at least
 * SMB_SNAP_ARRAY_MIN_OUT: the caller refuses less with
 * STATUS_INVALID_PARAMETER).  When all of them fit, NumberOfSnapShots =
 * NumberOfSnapShotsReturned = @n, SnapShotArraySize the tokens' bytes,
 * then the tokens, each NUL terminated, and a NUL to end the list; when
 * they do not, only the counts, with none returned and the size the
 * array needs (16 bytes, as Samba and Windows answer the first call of
 * the two-call protocol).  @out has room for the smaller of @max_out and
 * SMB_SNAP_ARRAY_HDR + smb_snap_array_size(@n).  Returns the bytes
 * written.
 */
u32 smb_snap_array_encode(u8 *out, u32 max_out, const u64 *t, u32 n);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_SNAP_H */
