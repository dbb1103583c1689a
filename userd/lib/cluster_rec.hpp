// SPDX-License-Identifier: GPL-2.0-or-later
//
// Cluster mode's records (Documentation/design-cluster.md): the names of
// the objects and omap keys in the state store, and what a node decides
// from a file's record.  Pure: unit-tested without Ceph; cluster.cpp
// reads and writes the records through librados.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bytes.hpp"

extern "C" {
#include "cluster.h"
}

namespace smbsrv::cluster {

// A file's object: "f." and its inode number in hex.
std::string file_object(uint64_t ino);
// A node's object: "node." and its name.
std::string node_object(std::string_view node);
// The key of a node's aggregate of its opens of a file (stream "": the
// file itself): "o.NODE.STREAM".
std::string open_key(std::string_view node, std::string_view stream);
// The value of that key.
Bytes open_value(const smb_cluster_agg &a);

// Whether a node name can name a node: 1 to 64 of [A-Za-z0-9_-].
bool valid_node_name(std::string_view node);

// A new open of @stream with @access and @share on node @node, against
// the other nodes' keys in the file's record @omap (key -> value, the
// "o." keys; others are ignored): SUCCESS, or SHARING_VIOLATION when it
// conflicts with another node's aggregate.  A value that does not decode
// (written by a newer or broken node) counts as an open denying
// everything: refusing is safe, ignoring it is not.
uint32_t check_open(const std::map<std::string, Bytes> &omap, std::string_view node,
		    std::string_view stream, uint32_t access, uint32_t share);

// The key of a file's (stream "": the file itself) pending deletion:
// "dp.STREAM"; its value is the name of the node that set it.
std::string delete_key(std::string_view stream);

// Whether @stream of the file whose record is @omap is pending deletion:
// its "dp." key (or, for a named stream, the file's) is there while some
// node has it open ("o." keys; a key left with no open anywhere, a reaped
// node's, counts for nothing).
bool delete_pending(const std::map<std::string, Bytes> &omap, std::string_view stream);

// The nodes other than @node with an "o." key of @stream in @omap.
std::set<std::string> other_openers(const std::map<std::string, Bytes> &omap,
				    std::string_view node, std::string_view stream);

// The nodes other than @node whose "o." key of @stream records handle
// caching (H): a rename or delete breaks it.
std::set<std::string> handle_holders(const std::map<std::string, Bytes> &omap,
				     std::string_view node, std::string_view stream);

// The key of a node's byte-range locks of a file: "b.NODE.STREAM"; its
// value is the node's lock list (kmod/wire/cluster.h).
std::string lock_key(std::string_view node, std::string_view stream);

// Node @node's lock list @mine for @stream (what it holds after a LOCK),
// against the other nodes' "b." keys of the record @omap: SUCCESS,
// LOCK_NOT_GRANTED when one of them conflicts (a value that does not
// decode counts as a lock of everything), INVALID_PARAMETER when @mine is
// not a valid list.
uint32_t check_locks(const std::map<std::string, Bytes> &omap, std::string_view node,
		     std::string_view stream, const Bytes &mine);

// The nodes other than @node with an "o." key in @omap (the file open).
std::set<std::string> nodes_with_opens(const std::map<std::string, Bytes> &omap,
				       std::string_view node);

// What a node may let its clients cache of @stream beside the other
// nodes' opens in @omap: lease bits (R 1, H 2, W 4) allowed by every
// other node's "o." key (smb_cluster_cover(); a value that does not
// decode allows nothing).
uint32_t caching_cover(const std::map<std::string, Bytes> &omap, std::string_view node,
		       std::string_view stream);

// The breaks an open on node @node needs (its aggregate access @access
// after it; @violation: it conflicts with another node's share modes):
// per other node caching what the open takes, the lease bits to give up
// (smb_cluster_break_bits()).
std::map<std::string, uint32_t> caching_breaks(const std::map<std::string, Bytes> &omap,
					       std::string_view node, std::string_view stream,
					       uint32_t access, bool violation);

// What a notify carries from one node to another, and what the daemon
// hands its module (cluster-view): by kind (kmod/wire/cluster.h), a
// node's locks of a file, a break of the receiver's caching of it, or a
// wake for the CREATEs waiting on it.
struct Push {
	uint8_t kind = SMB_CLUSTER_PUSH_LOCKS;
	uint64_t ino = 0;
	std::string stream;
	std::string node;
	uint64_t version = 0;
	Bytes locks;	     // LOCKS
	uint32_t caching = 0; // BREAK: the lease bits to give up; DIRMARK: leased
};
Bytes encode_push(const Push &p);
// std::nullopt for anything smb_cluster_push_decode() refuses.
std::optional<Push> decode_push(const uint8_t *data, size_t len);

// The reply of rados_notify2() (le32 number of acknowledgements, each
// le64 notifier id, le64 cookie, le32 length and that many bytes, then
// le32 number of timeouts, each two le64): whether an acknowledgement's
// payload starts with a nonzero byte (a rename check's "busy"), or
// std::nullopt when it does not parse.
std::optional<bool> acks_busy(const uint8_t *data, size_t len);

// Fencing (design-cluster.md, "Liveness, node loss, partitions"): the
// addresses of a node's Ceph clients, which the survivor that reaps the
// node blocklists.  An address is a Ceph entity address without its type,
// "IPV4:PORT/NONCE" or "[IPV6]:PORT/NONCE", all decimal but the IP.
bool valid_client_addr(std::string_view addr);
// The addresses in what rados_getaddrs() returns ("[v2:1.2.3.4:0/5,...]"
// or one address), without their "v1:"/"v2:"/"any:" types; none on any
// malformed one.
std::vector<std::string> rados_addrs(std::string_view getaddrs);
// The CephFS kernel client's address in its debugfs "status" file
// ("instance: client.4161 (2)10.0.2.15:0/3725 ...", the address's type
// in parentheses), without the type; empty if none.
std::string cephfs_status_addr(std::string_view status);
// The value of a node's "addrs" key: the addresses, space-separated (at
// most max_client_addrs of them), and back: the valid ones of a value,
// which another node wrote (a malformed entry is skipped).
constexpr size_t max_client_addrs = 16;
std::string addrs_value(const std::vector<std::string> &addrs);
std::vector<std::string> addrs_of(std::string_view value);

// The file system a cluster serves, as statfs() of a CephFS mount
// reports it (f_fsid: the cluster fsid's 32-bit words xored, and the
// file system's fscid), in the "fs" key of the "meta" object: "1 %08x %u"
// (format 1).  fs_of: nothing unless the value is exactly that.
struct FsIdent {
	uint32_t fsid_xor = 0;
	uint32_t fscid = 0;
	bool operator==(const FsIdent &) const = default;
};
std::string fs_value(const FsIdent &f);
std::optional<FsIdent> fs_of(std::string_view value);

} // namespace smbsrv::cluster
