// SPDX-License-Identifier: GPL-2.0-or-later
#include "tree.hpp"

#include <algorithm>
#include <linux/smbsrv.h>

#include "audit.hpp"
#include "hosts.hpp"
#include "log.hpp"
#include "ntstatus.hpp"
#include "snapshots.hpp"
#include "unicode.hpp"

namespace smbsrv {

namespace {

// Samba's %S (share) and %U/%u (user) in user lists.
std::vector<std::string> expand(std::vector<std::string> list, const std::string &share,
				const std::string &user)
{
	for (auto &e : list) {
		for (size_t pos = 0; (pos = e.find('%', pos)) != std::string::npos;) {
			if (pos + 1 >= e.size())
				break;
			char c = e[pos + 1];
			const std::string *v = c == 'S' ? &share : (c == 'U' || c == 'u') ? &user : nullptr;
			if (!v) {
				pos += 2;
				continue;
			}
			e.replace(pos, 2, *v);
			pos += v->size();
		}
	}
	return list;
}

bool has_item(const std::vector<std::string> &list, std::string_view item)
{
	return std::any_of(list.begin(), list.end(),
			   [&](const std::string &s) { return utf8_iequal(s, item); });
}

// vfs objects = fruit: Samba's fruit:* parameters as the module's
// fruit-* attributes.  The global ones (aapl, copyfile, model, nfs_aces)
// are read from [global] only, as Samba reads them.
void fruit_share(const ParamSet &g, const ParamSet &p, ShareInfo &s)
{
	uint32_t ff = 0;
	struct {
		const ParamSet &set;
		const char *param;
		uint32_t flag;
	} const bools[] = {
		{g, "fruit:aapl", SMBSRV_FRUIT_FLAGS_AAPL},
		{g, "fruit:copyfile", SMBSRV_FRUIT_FLAGS_COPYFILE},
		{g, "fruit:nfs_aces", SMBSRV_FRUIT_FLAGS_NFS_ACES},
		{p, "fruit:time machine", SMBSRV_FRUIT_FLAGS_TIME_MACHINE},
		{p, "fruit:posix_rename", SMBSRV_FRUIT_FLAGS_POSIX_RENAME},
		{p, "fruit:zero_file_id", SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID},
		{p, "readdir_attr:aapl_rsize", SMBSRV_FRUIT_FLAGS_RSIZE},
		{p, "readdir_attr:aapl_finder_info", SMBSRV_FRUIT_FLAGS_FINDER_INFO},
		{p, "readdir_attr:aapl_max_access", SMBSRV_FRUIT_FLAGS_MAX_ACCESS},
		{p, "fruit:convert_adouble", SMBSRV_FRUIT_FLAGS_CONVERT_ADOUBLE},
		{p, "fruit:wipe_intentionally_left_blank_rfork",
		 SMBSRV_FRUIT_FLAGS_WIPE_BLANK_RFORK},
		{p, "fruit:delete_empty_adfiles",
		 SMBSRV_FRUIT_FLAGS_DELETE_EMPTY_ADFILES},
	};
	for (const auto &b : bools)
		if (b.set.boolean(b.param))
			ff |= b.flag;
	if (utf8_iequal(p.str("fruit:metadata"), "netatalk"))
		ff |= SMBSRV_FRUIT_FLAGS_METADATA_NETATALK;
	// Resource forks are the stream AFP_Resource whatever fruit:resource
	// says (file and xattr are reported as not supported yet).  Where
	// Samba keeps them in AppleDouble "._" files, it vetoes those names
	// (fruit:veto_appledouble): so does smbsrv, through veto files.
	if (!utf8_iequal(p.str("fruit:resource"), "stream")) {
		log::warning("share [" + s.name + "]: fruit:resource = " +
			     p.str("fruit:resource") +
			     " is not supported yet; resource forks are kept as "
			     "the stream AFP_Resource");
		if (p.boolean("fruit:veto_appledouble")) {
			if (!s.veto_files.ends_with('/'))
				s.veto_files += '/';
			s.veto_files += "._*/";
		}
	}
	s.fruit_flags = ff;
	s.fruit_model = g.str("fruit:model");
	s.fruit_tm_max_size = p.number("fruit:time machine max size");
}

} // namespace

bool user_in_list(const std::vector<std::string> &list, const std::string &user,
		  Accounts &accounts)
{
	std::optional<Account> acct;
	bool looked_up = false;
	for (const auto &e : list) {
		if (e.size() > 1 && (e[0] == '@' || e[0] == '+')) {
			if (!looked_up) {
				acct = accounts.user(user);
				looked_up = true;
			}
			auto gid = accounts.group(e.substr(1));
			if (acct && gid &&
			    std::find(acct->groups.begin(), acct->groups.end(), *gid) !=
				    acct->groups.end())
				return true;
		} else if (utf8_iequal(e, user)) {
			return true;
		}
	}
	return false;
}

TreeConnectDone decide_tree_connect(const Config &cfg, const TreeConnectReq &req,
				    Accounts &accounts)
{
	TreeConnectDone d;
	d.handle = req.handle;
	// The module sends the share part of \\server\share; take the last
	// component in case a whole path comes up.
	std::string name = req.share_name;
	if (size_t bs = name.find_last_of("\\/"); bs != std::string::npos)
		name = name.substr(bs + 1);
	std::string who = "tree connect of '" + req.user + "' from " + req.client_addr +
			  " to [" + name + "]";
	auto refuse = [&](uint32_t status, const std::string &why) {
		log::notice(who + " refused: " + why);
		d.status = status;
		return d;
	};

	const ShareConfig *sh = cfg.share(name);
	if (!sh || name.empty())
		return refuse(nt::BAD_NETWORK_NAME, "no such share");
	const ParamSet &p = sh->params;
	bool ipc = utf8_iequal(sh->name, "IPC$");
	bool guest = req.session_flags &
		     (SMBSRV_SESSION_FLAGS_GUEST | SMBSRV_SESSION_FLAGS_ANONYMOUS);

	if (guest) {
		// ksmbd.conf(5): restrict anonymous = 1 or 2 disallows guest
		// connections to IPC$ and to shares without guest ok.
		if (ipc && cfg.global.str("restrict anonymous") != "0")
			return refuse(nt::ACCESS_DENIED, "restrict anonymous");
		if (!ipc && !p.boolean("guest ok"))
			return refuse(nt::ACCESS_DENIED, "guest session and the share is not guest ok");
	}
	if (!host_allowed(p.list("hosts allow"), p.list("hosts deny"), req.client_addr))
		return refuse(nt::ACCESS_DENIED, "hosts allow / hosts deny");
	auto list = [&](const char *param) { return expand(p.list(param), sh->name, req.user); };
	if (user_in_list(list("invalid users"), req.user, accounts))
		return refuse(nt::ACCESS_DENIED, "in invalid users");
	auto valid = list("valid users");
	if (!valid.empty() && !user_in_list(valid, req.user, accounts))
		return refuse(nt::ACCESS_DENIED, "not in valid users");

	ShareInfo s;
	s.name = sh->name;
	bool read_only = p.boolean("read only");
	if (user_in_list(list("read list"), req.user, accounts))
		read_only = true;
	else if (user_in_list(list("write list"), req.user, accounts))
		read_only = false;

	uint32_t f = 0;
	if (ipc) {
		f |= SMBSRV_SHARE_FLAGS_IPC;
	} else {
		std::string root = cfg.global.str("root directory");
		std::string path = p.str("path");
		if (!root.empty())
			path = root + (path.starts_with('/') || root.ends_with('/') ? "" : "/") + path;
		if (!path.starts_with('/'))
			return refuse(nt::BAD_NETWORK_NAME,
				      "its path '" + path + "' is not absolute");
		while (path.size() > 1 && path.ends_with('/'))
			path.pop_back();
		s.path = path;

		// A share's own guest account runs its guests (ksmbd.conf(5)).
		const std::string &ga = p.str("guest account");
		if (guest && !ga.empty() && ga != "nobody" && ga != cfg.global.str("guest account")) {
			auto a = accounts.user(ga);
			if (!a)
				return refuse(nt::ACCESS_DENIED,
					      "guest account '" + ga + "' does not exist");
			s.force_uid = a->uid;
			s.force_gid = a->gid;
		}
		if (const std::string &fu = p.str("force user"); !fu.empty()) {
			auto a = accounts.user(fu);
			if (!a)
				return refuse(nt::ACCESS_DENIED,
					      "force user '" + fu + "' does not exist");
			s.force_uid = a->uid;
			s.force_gid = a->gid;
		}
		if (const std::string &fg = p.str("force group"); !fg.empty()) {
			auto g = accounts.group(fg);
			if (!g)
				return refuse(nt::ACCESS_DENIED,
					      "force group '" + fg + "' does not exist");
			s.force_gid = *g;
		}
		// Samba's admin users: root on this share, whatever force
		// user or force group say.
		if (user_in_list(list("admin users"), req.user, accounts)) {
			s.force_uid = 0;
			s.force_gid = 0;
		}
		auto vfs = p.list("vfs objects");
		if (has_item(vfs, "streams_xattr"))
			f |= SMBSRV_SHARE_FLAGS_STREAMS;
		if (has_item(vfs, "acl_xattr"))
			f |= SMBSRV_SHARE_FLAGS_ACL_XATTR;
		if (has_item(vfs, "shadow_copy2")) {
			std::string why;
			if (auto snap = shadow_copy_config(p, path, &why)) {
				f |= SMBSRV_SHARE_FLAGS_SHADOW_COPY;
				s.snap_dir = std::move(snap->dir);
				s.snap_subdir = std::move(snap->subdir);
				s.snap_format = std::move(snap->format);
				s.snap_sort = snap->sort;
				s.snap_zone = std::move(snap->zone);
			} else {
				log::warning("share [" + sh->name + "]: shadow_copy2: " + why +
					     "; no previous versions");
			}
		}
		// full_audit: what the module records on this share.
		if (AuditStyle a = audit_style(p); a.enabled) {
			s.audit_success = a.success;
			s.audit_failure = a.failure;
		}
		s.create_mask = static_cast<uint32_t>(p.number("create mask"));
		s.directory_mask = static_cast<uint32_t>(p.number("directory mask"));
		s.force_create_mode = static_cast<uint32_t>(p.number("force create mode"));
		s.force_directory_mode = static_cast<uint32_t>(p.number("force directory mode"));
		s.veto_files = p.str("veto files");
		s.hide_files = p.str("hide files");
		if (has_item(vfs, "fruit")) {
			f |= SMBSRV_SHARE_FLAGS_FRUIT;
			fruit_share(cfg.global, p, s);
		}
	}
	if (read_only || ipc)
		f |= ipc ? 0 : SMBSRV_SHARE_FLAGS_READ_ONLY;
	// Server-wide in [global], or for this share alone.
	auto mandatory = [](std::string v) {
		for (auto &c : v)
			c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
		return v == "mandatory" || v == "required";
	};
	if (mandatory(cfg.global.str("smb3 encryption")) || mandatory(p.str("smb3 encryption")))
		f |= SMBSRV_SHARE_FLAGS_ENCRYPT;
	struct {
		const char *param;
		uint32_t flag;
	} const bools[] = {
		{"browseable", SMBSRV_SHARE_FLAGS_BROWSEABLE},
		{"guest ok", SMBSRV_SHARE_FLAGS_GUEST_OK},
		{"oplocks", SMBSRV_SHARE_FLAGS_OPLOCKS},
		{"hide dot files", SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES},
		{"hide unreadable", SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE},
		{"store dos attributes", SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES},
		{"follow symlinks", SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS},
		{"inherit owner", SMBSRV_SHARE_FLAGS_INHERIT_OWNER},
		{"inherit permissions", SMBSRV_SHARE_FLAGS_INHERIT_PERMISSIONS},
		{"crossmnt", SMBSRV_SHARE_FLAGS_CROSSMNT},
		{"smb3 unix extensions", SMBSRV_SHARE_FLAGS_POSIX},
	};
	for (const auto &b : bools)
		if (p.boolean(b.param))
			f |= b.flag;
	// Samba's "auto" is case-insensitive for SMB2 clients, as "no".
	if (parse_bool(p.str("case sensitive")).value_or(false))
		f |= SMBSRV_SHARE_FLAGS_CASE_SENSITIVE;
	if (ipc)
		f |= SMBSRV_SHARE_FLAGS_GUEST_OK;
	s.flags = f;
	if (p.has("max connections"))
		s.max_connections = static_cast<uint32_t>(p.number("max connections"));

	log::info("tree connect of '" + req.user + "' from " + req.client_addr + " to [" +
		  s.name + "]" + (read_only && !ipc ? " (read-only)" : "") +
		  (s.force_uid == 0u ? " (admin user: root)" : ""));
	d.status = nt::SUCCESS;
	d.share = std::move(s);
	return d;
}

} // namespace smbsrv
