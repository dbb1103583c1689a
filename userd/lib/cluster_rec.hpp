// SPDX-License-Identifier: GPL-2.0-or-later
//
// Cluster mode's records (Documentation/design-cluster.md): the names of
// the objects and omap keys in the state store, and what a node decides
// from a file's record.  Pure: unit-tested without Ceph; cluster.cpp
// reads and writes the records through librados.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <optional>
#include <set>
#include <string_view>

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

// Another node's locks of a file, as a notify carries them.
struct Push {
	uint64_t ino = 0;
	std::string stream;
	std::string node;
	uint64_t version = 0;
	Bytes locks;
};
Bytes encode_push(const Push &p);
// std::nullopt for anything smb_cluster_push_decode() refuses.
std::optional<Push> decode_push(const uint8_t *data, size_t len);

} // namespace smbsrv::cluster
