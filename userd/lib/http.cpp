// SPDX-License-Identifier: GPL-2.0-or-later
#include "http.hpp"

#include <arpa/inet.h>
#include <cstring>
#include <netinet/in.h>

namespace smbsrv::http {

namespace {

// RFC 9110 tchar: what a method may be made of.
bool tchar(char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

// A request target in origin form: '/' then visible ASCII.
bool origin_form(std::string_view t)
{
	if (t.empty() || t[0] != '/')
		return false;
	for (char c : t)
		if (c <= 0x20 || c >= 0x7f)
			return false;
	return true;
}

} // namespace

Parse parse_request(std::string_view received, Request &out)
{
	// The head ends at the first empty line (CRLF CRLF; a bare LF is
	// accepted for the line ends, as RFC 9112 allows).
	size_t end = std::string_view::npos;
	for (size_t i = 0; i < received.size() && i < max_head; i++) {
		if (received[i] != '\n')
			continue;
		if (i >= 1 && received[i - 1] == '\n') {
			end = i;
			break;
		}
		if (i >= 2 && received[i - 1] == '\r' && received[i - 2] == '\n') {
			end = i;
			break;
		}
	}
	if (end == std::string_view::npos)
		return received.size() >= max_head ? Parse::too_large : Parse::incomplete;
	std::string_view head = received.substr(0, end);
	size_t eol = head.find('\n');
	std::string_view line = head.substr(0, eol);
	if (!line.empty() && line.back() == '\r')
		line.remove_suffix(1);

	// METHOD SP TARGET SP HTTP/1.x, single spaces.
	size_t sp1 = line.find(' ');
	if (sp1 == std::string_view::npos || sp1 == 0)
		return Parse::bad;
	size_t sp2 = line.find(' ', sp1 + 1);
	if (sp2 == std::string_view::npos || sp2 == sp1 + 1)
		return Parse::bad;
	std::string_view method = line.substr(0, sp1);
	std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
	std::string_view version = line.substr(sp2 + 1);
	for (char c : method)
		if (!tchar(c))
			return Parse::bad;
	if (!origin_form(target))
		return Parse::bad;
	if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || version[7] < '0' ||
	    version[7] > '9')
		return Parse::bad;
	// Header lines: NAME ":" VALUE, no line folding; not otherwise used.
	while (eol != std::string_view::npos && eol + 1 < head.size()) {
		size_t next = head.find('\n', eol + 1);
		std::string_view h = head.substr(eol + 1, next == std::string_view::npos
								  ? std::string_view::npos
								  : next - eol - 1);
		if (!h.empty() && h.back() == '\r')
			h.remove_suffix(1);
		eol = next;
		if (h.empty())
			continue;
		size_t colon = h.find(':');
		if (colon == std::string_view::npos || colon == 0 || h[0] == ' ' || h[0] == '\t')
			return Parse::bad;
		for (size_t i = 0; i < colon; i++)
			if (!tchar(h[i]))
				return Parse::bad;
	}
	out.method = std::string(method);
	out.path = std::string(target.substr(0, target.find('?')));
	out.minor = version[7] - '0';
	return Parse::ok;
}

std::string response(int code, std::string_view reason, std::string_view content_type,
		     const std::string &body, bool head_only)
{
	std::string r = "HTTP/1.1 " + std::to_string(code) + " " + std::string(reason) +
			"\r\nContent-Type: " + std::string(content_type) +
			"\r\nContent-Length: " + std::to_string(body.size()) +
			"\r\nConnection: close\r\n";
	if (code == 405)
		r += "Allow: GET, HEAD\r\n";
	r += "\r\n";
	if (!head_only)
		r += body;
	return r;
}

std::string parse_listen(std::string_view text, sockaddr_storage &addr, socklen_t &len,
			 bool any_port)
{
	std::memset(&addr, 0, sizeof(addr));
	std::string host;
	std::string_view port;
	bool v6 = !text.empty() && text[0] == '[';
	if (v6) {
		size_t close = text.find(']');
		if (close == std::string_view::npos || close + 1 >= text.size() ||
		    text[close + 1] != ':')
			return "'" + std::string(text) + "' is not [IPv6 address]:port";
		host = std::string(text.substr(1, close - 1));
		port = text.substr(close + 2);
	} else {
		size_t colon = text.rfind(':');
		if (colon == std::string_view::npos)
			return "'" + std::string(text) + "' is not address:port";
		host = std::string(text.substr(0, colon));
		port = text.substr(colon + 1);
	}
	unsigned long p = 0;
	if (port.empty() || port.size() > 5)
		return "'" + std::string(port) + "' is not a port (1-65535)";
	for (char c : port) {
		if (c < '0' || c > '9')
			return "'" + std::string(port) + "' is not a port (1-65535)";
		p = p * 10 + static_cast<unsigned long>(c - '0');
	}
	if ((p == 0 && !any_port) || p > 65535)
		return "'" + std::string(port) + "' is not a port (1-65535)";
	if (v6) {
		auto *a = reinterpret_cast<sockaddr_in6 *>(&addr);
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(static_cast<uint16_t>(p));
		if (inet_pton(AF_INET6, host.c_str(), &a->sin6_addr) != 1)
			return "'" + host + "' is not an IPv6 address";
		len = sizeof(*a);
	} else {
		auto *a = reinterpret_cast<sockaddr_in *>(&addr);
		a->sin_family = AF_INET;
		a->sin_port = htons(static_cast<uint16_t>(p));
		if (inet_pton(AF_INET, host.c_str(), &a->sin_addr) != 1)
			return "'" + host + "' is not an IPv4 address (IPv6: [address]:port)";
		len = sizeof(*a);
	}
	return {};
}

} // namespace smbsrv::http
