// SPDX-License-Identifier: GPL-2.0-or-later
#include "crypto.hpp"

#include <cerrno>
#include <system_error>

#include <nettle/base64.h>
#include <nettle/hmac.h>
#include <nettle/md4.h>
#include <nettle/md5.h>
#include <sys/random.h>

namespace smbsrv::crypto {

Digest16 md4(ByteView data)
{
	md4_ctx ctx;
	Digest16 out{};
	md4_init(&ctx);
	md4_update(&ctx, data.size(), data.data());
	md4_digest(&ctx, out.size(), out.data());
	return out;
}

Digest16 md5(std::initializer_list<ByteView> parts)
{
	md5_ctx ctx;
	Digest16 out{};
	md5_init(&ctx);
	for (ByteView p : parts)
		md5_update(&ctx, p.size(), p.data());
	md5_digest(&ctx, out.size(), out.data());
	return out;
}

Digest16 hmac_md5(ByteView key, std::initializer_list<ByteView> parts)
{
	hmac_md5_ctx ctx;
	Digest16 out{};
	hmac_md5_set_key(&ctx, key.size(), key.data());
	for (ByteView p : parts)
		hmac_md5_update(&ctx, p.size(), p.data());
	hmac_md5_digest(&ctx, out.size(), out.data());
	return out;
}

Rc4::Rc4(ByteView key)
{
	arcfour_set_key(&ctx_, key.size(), key.data());
}

void Rc4::crypt(std::span<uint8_t> data)
{
	arcfour_crypt(&ctx_, data.size(), data.data(), data.data());
}

Bytes rc4_once(ByteView key, ByteView data)
{
	Bytes out(data.begin(), data.end());
	Rc4(key).crypt(out);
	return out;
}

void random_bytes(std::span<uint8_t> out)
{
	size_t done = 0;
	while (done < out.size()) {
		ssize_t n = getrandom(out.data() + done, out.size() - done, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw std::system_error(errno, std::generic_category(),
						"getrandom");
		}
		done += static_cast<size_t>(n);
	}
}

bool equal_ct(ByteView a, ByteView b)
{
	if (a.size() != b.size())
		return false;
	uint8_t diff = 0;
	for (size_t i = 0; i < a.size(); i++)
		diff |= a[i] ^ b[i];
	return diff == 0;
}

std::string base64_encode(ByteView data)
{
	std::string out(BASE64_ENCODE_RAW_LENGTH(data.size()), '\0');
	base64_encode_raw(out.data(), data.size(), data.data());
	return out;
}

std::optional<Bytes> base64_decode(std::string_view text)
{
	// nettle skips blanks and tolerates missing padding; the database
	// format does not, and a round trip must give the text back.
	if (text.size() % 4 != 0)
		return std::nullopt;
	Bytes out(BASE64_DECODE_LENGTH(text.size()));
	base64_decode_ctx ctx;
	base64_decode_init(&ctx);
	size_t n = out.size();
	if (!base64_decode_update(&ctx, &n, out.data(), text.size(), text.data()) ||
	    !base64_decode_final(&ctx))
		return std::nullopt;
	out.resize(n);
	if (base64_encode(out) != text)
		return std::nullopt;
	return out;
}

} // namespace smbsrv::crypto
