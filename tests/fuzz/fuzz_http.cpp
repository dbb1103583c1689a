// SPDX-License-Identifier: GPL-2.0-or-later
//
// libFuzzer target: the request-head parser of smbsrvd's metrics endpoint
// (userd/lib/http.*) on arbitrary bytes, whole and as the server receives
// them (every prefix: the answer for a prefix that is already complete
// must not change as more bytes come), and `metrics listen` addresses.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "http.hpp"

using namespace smbsrv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string_view in(reinterpret_cast<const char *>(data), size);
	http::Request whole;
	http::Parse p = http::parse_request(in, whole);
	if (p == http::Parse::ok) {
		if (whole.path.empty() || whole.path[0] != '/' || whole.method.empty() ||
		    whole.minor < 0 || whole.minor > 9)
			abort();
		(void)http::response(200, "OK", "text/plain", whole.path, whole.method == "HEAD");
	}
	// The first prefix that is not incomplete decides, as in the server.
	for (size_t n = 0; n <= size && n <= http::max_head + 1; n += 1 + n / 64) {
		http::Request r;
		http::Parse q = http::parse_request(in.substr(0, n), r);
		if (q == http::Parse::incomplete)
			continue;
		if (q != p && !(q == http::Parse::too_large && p == http::Parse::too_large))
			abort();
		if (q == http::Parse::ok && (r.path != whole.path || r.method != whole.method))
			abort();
		break;
	}
	sockaddr_storage ss{};
	socklen_t len = 0;
	(void)http::parse_listen(in.substr(0, 64), ss, len);
	return 0;
}
