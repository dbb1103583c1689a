// SPDX-License-Identifier: GPL-2.0-or-later
//
// The little HTTP smbsrvd's metrics endpoint speaks: the head of a request
// (request line and header lines, nothing after), parsed from untrusted
// bytes with every length checked, and the whole response.  No keep-alive,
// no body, no chunking: one GET (or HEAD) per connection.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <sys/socket.h>

namespace smbsrv::http {

// The most a request head may take; more is refused (431).
inline constexpr size_t max_head = 8192;

struct Request {
	std::string method; // "GET", ...
	std::string path;   // the target without its query: "/metrics"
	int minor = 0;	    // HTTP/1.minor
};

enum class Parse {
	incomplete, // no blank line yet: read more
	ok,
	bad,	    // not an HTTP/1.x request head: 400
	too_large,  // no end of the head within max_head bytes: 431
};

// Parse what a client sent so far.  Only the head is looked at.
Parse parse_request(std::string_view received, Request &out);

// A whole HTTP/1.1 response that closes the connection; with head_only
// (a HEAD request) the body is left out but its length is given.
std::string response(int code, std::string_view reason, std::string_view content_type,
		     const std::string &body, bool head_only = false);

// "ADDR:PORT" (IPv4) or "[ADDR]:PORT" (IPv6), as `metrics listen` takes
// it, into a socket address.  Returns an empty string, or why not.  Port
// 0 (any free one) only with any_port.
std::string parse_listen(std::string_view text, sockaddr_storage &addr, socklen_t &len,
			 bool any_port = false);

} // namespace smbsrv::http
