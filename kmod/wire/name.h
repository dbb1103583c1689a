/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File names as clients send them (UTF-16LE, backslash-separated, with
 * optional stream syntax) turned into paths below a share root, and the
 * share's `veto files` patterns.
 */
#ifndef _SMBSRV_WIRE_NAME_H
#define _SMBSRV_WIRE_NAME_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest name component, in UTF-8 bytes (NAME_MAX). */
#define SMB_NAME_COMPONENT_MAX	255

/*
 * Convert the name of a CREATE (@bytes of UTF-16LE) into a path relative
 * to the share root: UTF-8, components separated by '/', no leading or
 * trailing separator, "" for the root itself.  The client separates
 * components with '\\' or '/' (as Samba and ksmbd; Windows refuses
 * '/').  A stream part ("name:s", "name:s:$DATA") goes, without its
 * type, after the path's NUL and *stream points at it; "name::$DATA" is
 * the file's own data stream (*stream ""), a plain name has none
 * (*stream NULL).
 *
 * Returns STATUS_SUCCESS, or the status Windows gives:
 *   STATUS_INVALID_PARAMETER      a leading separator
 *   STATUS_OBJECT_NAME_INVALID    unpaired surrogates, NUL or control
 *                                 characters, wildcards, '"', '|',
 *                                 an empty or "." component, a component
 *                                 over 255 bytes, a bad stream part (a
 *                                 type other than $DATA, '/', an empty
 *                                 name but for "::$DATA"), a
 *                                 name that does not fit @cap
 *   STATUS_OBJECT_PATH_SYNTAX_BAD a ".." component
 * Nothing in a successful result can name anything outside the root:
 * the path only ever goes down, one plain name at a time.
 */
u32 smb_name_to_path(const u8 *name, u32 bytes, char *out, u32 cap,
		     const char **stream);

/*
 * Whether @name (@len bytes of UTF-8, one path component) matches one of
 * the patterns of a `veto files` list ("/pat/pat/"; '*' and '?' are
 * wildcards, ASCII letters match without case).
 */
bool smb_veto_match(const char *list, const char *name, u32 len);

/* Whether any component of a '/'-separated path matches a veto list. */
bool smb_veto_path(const char *list, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_NAME_H */
