// SPDX-License-Identifier: GPL-2.0-or-later
#include "userdb.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "atomic_file.hpp"
#include "crypto.hpp"
#include "log.hpp"
#include "unicode.hpp"

namespace smbsrv {

std::optional<NtHash> nt_hash(std::string_view password)
{
	auto u = utf8_to_utf16le(password);
	if (!u)
		return std::nullopt;
	return crypto::md4(*u);
}

std::string check_user_name(std::string_view name)
{
	if (name.empty())
		return "user name is empty";
	if (name.size() >= 48)
		return "user name is longer than 47 bytes";
	if (name.find_first_of(":\n\r") != std::string_view::npos)
		return "user name contains ':' or a newline";
	if (!utf8_to_utf16(name))
		return "user name is not valid UTF-8";
	return "";
}

std::string check_password(std::string_view password)
{
	if (password.size() >= 129)
		return "password is longer than 128 bytes";
	if (!utf8_to_utf16(password))
		return "password is not valid UTF-8";
	return "";
}

UserDb UserDb::parse(std::string_view text, const std::string &file,
		     Diagnostics &diags)
{
	UserDb db;
	int lineno = 0;
	while (!text.empty()) {
		size_t nl = text.find('\n');
		std::string_view line = text.substr(0, nl);
		text = nl == std::string_view::npos ? std::string_view{}
						    : text.substr(nl + 1);
		lineno++;
		if (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		if (line.empty())
			continue;
		size_t colon = line.rfind(':');
		if (colon == std::string_view::npos) {
			diags.warn(file, lineno, "no ':' between user and hash; line ignored");
			continue;
		}
		std::string_view name = line.substr(0, colon);
		if (std::string why = check_user_name(name); !why.empty()) {
			diags.warn(file, lineno, why + "; line ignored");
			continue;
		}
		auto hash = crypto::base64_decode(line.substr(colon + 1));
		if (!hash || hash->size() != 16) {
			diags.warn(file, lineno, "user '" + std::string(name) +
					 "': the password hash is not base64 of 16 bytes; line ignored");
			continue;
		}
		bool dup = false;
		for (const auto &u : db.users_)
			dup = dup || u.name == name;
		if (dup) {
			diags.warn(file, lineno, "user '" + std::string(name) +
					 "' repeated; the first entry is kept");
			continue;
		}
		UserEntry e{std::string(name), {}};
		std::copy(hash->begin(), hash->end(), e.hash.begin());
		db.users_.push_back(std::move(e));
	}
	return db;
}

UserDb UserDb::load(const std::string &path, Diagnostics &diags)
{
	std::ifstream in(path, std::ios::binary);
	if (!in) {
		if (errno != ENOENT)
			diags.error(path, 0, std::string("cannot read: ") +
						     std::strerror(errno));
		return {};
	}
	struct stat st {};
	if (stat(path.c_str(), &st) == 0 && (st.st_mode & 077))
		diags.warn(path, 0, "readable by other users; its hashes are "
				    "as good as passwords (chmod 600)");
	std::stringstream ss;
	ss << in.rdbuf();
	return parse(ss.str(), path, diags);
}

const UserEntry *UserDb::find(std::string_view name) const
{
	for (const auto &u : users_)
		if (u.name == name)
			return &u;
	const UserEntry *found = nullptr;
	for (const auto &u : users_) {
		if (utf8_iequal(u.name, name)) {
			if (found)
				return nullptr; // ambiguous: refuse to guess
			found = &u;
		}
	}
	return found;
}

void UserDb::set(std::string_view name, const NtHash &hash)
{
	for (auto &u : users_) {
		if (u.name == name) {
			u.hash = hash;
			return;
		}
	}
	users_.push_back({std::string(name), hash});
}

bool UserDb::remove(std::string_view name)
{
	for (auto it = users_.begin(); it != users_.end(); ++it) {
		if (it->name == name) {
			users_.erase(it);
			return true;
		}
	}
	return false;
}

std::string UserDb::serialize() const
{
	std::string out;
	for (const auto &u : users_)
		out += u.name + ":" + crypto::base64_encode(u.hash) + "\n";
	return out;
}

void UserDb::save(const std::string &path) const
{
	write_file_atomic(path, serialize(), 0600, true);
}

bool UserDbFile::Stamp::operator==(const Stamp &o) const
{
	return exists == o.exists && dev == o.dev && ino == o.ino &&
	       size == o.size && mtime.tv_sec == o.mtime.tv_sec &&
	       mtime.tv_nsec == o.mtime.tv_nsec &&
	       ctime.tv_sec == o.ctime.tv_sec && ctime.tv_nsec == o.ctime.tv_nsec;
}

std::optional<UserEntry> UserDbFile::find(const std::string &name)
{
	std::lock_guard lock(mu_);
	const UserEntry *e = current().find(name);
	if (!e)
		return std::nullopt;
	return *e;
}

const UserDb &UserDbFile::current()
{
	Stamp now;
	struct stat st {};
	if (stat(path_.c_str(), &st) == 0) {
		now.exists = true;
		now.dev = st.st_dev;
		now.ino = st.st_ino;
		now.size = st.st_size;
		now.mtime = st.st_mtim;
		now.ctime = st.st_ctim;
	}
	if (stamp_ && *stamp_ == now)
		return db_;
	Diagnostics diags;
	db_ = UserDb::load(path_, diags);
	for (const auto &d : diags.all()) {
		if (d.severity == Severity::error)
			log::error(d.str());
		else
			log::warning(d.str());
	}
	if (!now.exists)
		log::warning(path_ + " does not exist: no user can log on "
				     "with a password");
	else
		log::info("read " + std::to_string(db_.users().size()) +
			  " user(s) from " + path_);
	stamp_ = now;
	return db_;
}

} // namespace smbsrv
