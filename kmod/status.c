// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the NTSTATUS a client gets for an errno (status.h).
 */
#include <linux/errno.h>

#include "status.h"
#include "wire/ntstatus.h"

u32 smbsrv_errno_status(int err)
{
	switch (err) {
	case 0:
		return STATUS_SUCCESS;
	case -ENOENT:
		return STATUS_OBJECT_NAME_NOT_FOUND;
	case -ENOTDIR:
		return STATUS_OBJECT_PATH_NOT_FOUND;
	case -EACCES:
	case -EPERM:
	case -EXDEV:	/* out of the root, or across a mount */
	case -ELOOP:	/* a symlink the share does not follow */
		return STATUS_ACCESS_DENIED;
	case -EEXIST:
		return STATUS_OBJECT_NAME_COLLISION;
	case -ENOSPC:
	case -EFBIG:
		return STATUS_DISK_FULL;
	case -EDQUOT:
		return STATUS_QUOTA_EXCEEDED;
	case -EOVERFLOW:	/* as Samba maps it */
		return STATUS_ALLOTTED_SPACE_EXCEEDED;
	case -EMFILE:
		return STATUS_TOO_MANY_OPENED_FILES;
	case -ENFILE:
		return STATUS_INSUFFICIENT_RESOURCES;
	case -EROFS:
		return STATUS_MEDIA_WRITE_PROTECTED;
	case -ENAMETOOLONG:
		return STATUS_OBJECT_NAME_INVALID;
	case -EISDIR:
		return STATUS_FILE_IS_A_DIRECTORY;
	case -ENOTEMPTY:
		return STATUS_DIRECTORY_NOT_EMPTY;
	case -EBUSY:
	case -ETXTBSY:
	case -EAGAIN:
		return STATUS_SHARING_VIOLATION;
	case -EMLINK:
		return STATUS_TOO_MANY_LINKS;
	case -ENOMEM:
		return STATUS_INSUFFICIENT_RESOURCES;
	case -EOPNOTSUPP:
		return STATUS_NOT_SUPPORTED;
	case -EINVAL:
		return STATUS_INVALID_PARAMETER;
	case -EINTR:
		return STATUS_CANCELLED;
	case -EIO:
		return STATUS_IO_DEVICE_ERROR;
	default:
		return STATUS_INTERNAL_ERROR;
	}
}
