// SPDX-License-Identifier: GPL-2.0-or-later
//
// srvsvc (MS-SRVS) and wkssvc (MS-WKST): the calls share browsing makes.
// srvsvc: NetrShareEnum (15) at levels 0, 1, 2, 501; NetrShareGetInfo (16)
// at 0, 1, 2, 501, 1005; NetrServerGetInfo (21) at 100, 101, 102.
// wkssvc: NetrWkstaGetInfo (0) at 100, 101, 102.
#include <algorithm>

#include "config.hpp"
#include "rpc/dcerpc.hpp"
#include "rpc/ndr.hpp"
#include "rpc/rpc.hpp"
#include "tree.hpp"

namespace smbsrv::rpc {

namespace {

// Win32 errors the calls return (MS-ERREF 2.2).
constexpr uint32_t ERROR_SUCCESS = 0;
constexpr uint32_t ERROR_ACCESS_DENIED = 5;
constexpr uint32_t ERROR_INVALID_LEVEL = 124;
constexpr uint32_t NERR_NETNAMENOTFOUND = 2310;

constexpr uint32_t PLATFORM_ID_NT = 500;
constexpr uint32_t VERSION_MAJOR = 6, VERSION_MINOR = 1;
// SV_TYPE_WORKSTATION | SERVER | SERVER_UNIX | NT | SERVER_NT
constexpr uint32_t SERVER_TYPE = 0x1 | 0x2 | 0x800 | 0x1000 | 0x8000;

// "/srv/data" as Windows clients expect a local path: "C:\srv\data".
std::string windows_path(const std::string &p)
{
	std::string w = "C:" + p;
	std::replace(w.begin(), w.end(), '/', '\\');
	return w;
}

bool share_level(uint32_t level)
{
	return level == 0 || level == 1 || level == 2 || level == 501 ||
	       level == 502 || level == 503;
}

// The fixed part of one SHARE_INFO_<level>; its strings follow later.
void share_fixed(NdrWriter &w, uint32_t level, const ShareInfo &s)
{
	w.ptr(true); // netname
	if (level == 0)
		return;
	w.u32(s.type);
	w.ptr(true); // remark
	if (level == 501) {
		w.u32(0); // shi501_flags: no client-side caching policy
	} else if (level == 2) {
		w.u32(0); // permissions (share-level security: none)
		w.u32(s.max_uses);
		w.u32(0); // current uses: not tracked here
		w.ptr(true); // path
		w.ptr(false); // password
	}
}

void share_strings(NdrWriter &w, uint32_t level, const ShareInfo &s)
{
	w.string(s.name);
	if (level == 0)
		return;
	w.string(s.comment);
	if (level == 2)
		w.string(windows_path(s.path));
}

// Skip an [in] container a client filled (clients send it empty).
void skip_share_array(NdrReader &r, uint32_t level)
{
	uint32_t n = r.u32();
	if (level != 0 && level != 1 && level != 2 && level != 501)
		throw NdrError("share entries of a level smbsrv does not read");
	// Each entry takes at least four bytes: bound n before looping.
	if (n > r.remaining() / 4)
		throw NdrError("more share entries than bytes");
	std::vector<std::array<uint32_t, 3>> ptrs(n);
	for (auto &e : ptrs) {
		e[0] = r.ptr();
		if (level == 0)
			continue;
		r.u32();
		e[1] = r.ptr();
		if (level == 501) {
			r.u32();
		} else if (level == 2) {
			r.u32();
			r.u32();
			r.u32();
			e[2] = r.ptr();
			if (r.ptr())
				e[2] |= 0x80000000; // a password follows the path
		}
	}
	for (const auto &e : ptrs) {
		if (e[0])
			r.string();
		if (e[1])
			r.string();
		if (e[2] & 0x7fffffff)
			r.string();
		if (e[2] & 0x80000000)
			r.string();
	}
}

class Srvsvc final : public Interface {
public:
	Srvsvc(ServerInfo info, bool admin) : info_(std::move(info)), admin_(admin) {}
	[[nodiscard]] SyntaxId syntax() const override
	{
		return {Uuid::parse("4b324fc8-1670-01d3-1278-5a47bf6ee188"), 3};
	}
	std::optional<Bytes> call(uint16_t opnum, ByteView stub) override
	{
		NdrReader r(stub);
		switch (opnum) {
		case 15:
			return share_enum(r);
		case 16:
			return share_get_info(r);
		case 21:
			return server_get_info(r);
		default:
			return std::nullopt;
		}
	}

private:
	Bytes share_enum(NdrReader &r);
	Bytes share_get_info(NdrReader &r);
	Bytes server_get_info(NdrReader &r);

	ServerInfo info_;
	bool admin_;
};

Bytes Srvsvc::share_enum(NdrReader &r)
{
	r.unique_string(); // ServerName: this server, whatever it says
	uint32_t level = r.u32();
	if (r.u32() != level || !share_level(level))
		throw NdrError("SHARE_ENUM_STRUCT switch does not match its level");
	if (r.ptr()) {
		r.u32(); // EntriesRead
		if (r.ptr())
			skip_share_array(r, level);
	}
	r.u32(); // PreferedMaximumLength: smbsrv has few shares; all fit
	uint32_t resume_ptr = r.ptr();
	uint32_t resume = resume_ptr ? r.u32() : 0;

	uint32_t status = ERROR_SUCCESS;
	if (level == 502 || level == 503)
		status = ERROR_INVALID_LEVEL;
	else if (level == 2 && !admin_)
		status = ERROR_ACCESS_DENIED;
	std::vector<const ShareInfo *> list;
	if (status == ERROR_SUCCESS)
		for (const auto &s : info_.shares)
			if (s.browseable)
				list.push_back(&s);
	auto total = static_cast<uint32_t>(list.size());
	if (resume < list.size())
		list.erase(list.begin(), list.begin() + resume);
	else
		list.clear();

	NdrWriter w;
	w.u32(level);
	w.u32(level);
	w.ptr(true); // the container
	w.u32(static_cast<uint32_t>(list.size()));
	w.ptr(!list.empty());
	if (!list.empty()) {
		w.u32(static_cast<uint32_t>(list.size()));
		for (const auto *s : list)
			share_fixed(w, level, *s);
		for (const auto *s : list)
			share_strings(w, level, *s);
	}
	w.u32(total);
	w.ptr(resume_ptr != 0);
	if (resume_ptr)
		w.u32(0); // everything was returned
	w.u32(status);
	return w.take();
}

Bytes Srvsvc::share_get_info(NdrReader &r)
{
	r.unique_string();
	std::string name = r.string();
	uint32_t level = r.u32();
	const ShareInfo *s = nullptr;
	for (const auto &x : info_.shares)
		if (normalize_section(x.name) == normalize_section(name))
			s = &x;
	uint32_t status = ERROR_SUCCESS;
	if (level != 0 && level != 1 && level != 2 && level != 501 && level != 1005)
		status = ERROR_INVALID_LEVEL;
	else if (!s)
		status = NERR_NETNAMENOTFOUND;
	else if (level == 2 && !admin_)
		status = ERROR_ACCESS_DENIED;

	NdrWriter w;
	w.u32(level);
	w.ptr(status == ERROR_SUCCESS);
	if (status == ERROR_SUCCESS) {
		if (level == 1005) {
			w.u32(0); // shi1005_flags
		} else {
			share_fixed(w, level, *s);
			share_strings(w, level, *s);
		}
	}
	w.u32(status);
	return w.take();
}

Bytes Srvsvc::server_get_info(NdrReader &r)
{
	r.unique_string();
	uint32_t level = r.u32();
	bool ok = level == 100 || level == 101 || level == 102;
	NdrWriter w;
	w.u32(level);
	w.ptr(ok);
	if (ok) {
		w.u32(PLATFORM_ID_NT);
		w.ptr(true); // name
		if (level >= 101) {
			w.u32(VERSION_MAJOR);
			w.u32(VERSION_MINOR);
			w.u32(SERVER_TYPE);
			w.ptr(true); // comment
		}
		if (level == 102) {
			w.u32(0);	   // users
			w.u32(0xffffffff); // disc: no autodisconnect
			w.u32(0);	   // hidden: no
			w.u32(240);	   // announce
			w.u32(3000);	   // anndelta
			w.u32(0);	   // licenses
			w.ptr(true);	   // userpath
		}
		w.string(info_.netbios_name);
		if (level >= 101)
			w.string(info_.server_string);
		if (level == 102)
			w.string("C:\\");
	}
	w.u32(ok ? ERROR_SUCCESS : ERROR_INVALID_LEVEL);
	return w.take();
}

class Wkssvc final : public Interface {
public:
	explicit Wkssvc(ServerInfo info) : info_(std::move(info)) {}
	[[nodiscard]] SyntaxId syntax() const override
	{
		return {Uuid::parse("6bffd098-a112-3610-9833-46c3f87e345a"), 1};
	}
	std::optional<Bytes> call(uint16_t opnum, ByteView stub) override
	{
		if (opnum != 0)
			return std::nullopt;
		NdrReader r(stub);
		r.unique_string();
		uint32_t level = r.u32();
		bool ok = level == 100 || level == 101 || level == 102;
		NdrWriter w;
		w.u32(level);
		w.ptr(ok);
		if (ok) {
			w.u32(PLATFORM_ID_NT);
			w.ptr(true); // computername
			w.ptr(true); // langroup
			w.u32(VERSION_MAJOR);
			w.u32(VERSION_MINOR);
			if (level >= 101)
				w.ptr(true); // lanroot
			if (level == 102)
				w.u32(0); // logged-on users
			w.string(info_.netbios_name);
			w.string(info_.workgroup);
			if (level >= 101)
				w.string("C:\\");
		}
		w.u32(ok ? ERROR_SUCCESS : ERROR_INVALID_LEVEL);
		return w.take();
	}

private:
	ServerInfo info_;
};

} // namespace

ServerInfo server_info(const Config &cfg)
{
	ServerInfo info;
	info.netbios_name = cfg.global.str("netbios name");
	info.workgroup = cfg.global.str("workgroup");
	info.server_string = cfg.global.str("server string");
	for (const auto &sh : cfg.shares) {
		ShareInfo s;
		s.name = sh.name;
		s.comment = sh.params.str("comment");
		s.path = sh.params.str("path");
		bool ipc = normalize_section(sh.name) == "ipc$";
		s.type = ipc ? (STYPE_IPC | STYPE_SPECIAL) : STYPE_DISKTREE;
		s.browseable = sh.params.boolean("browseable");
		// No limit unless the share's section sets one ("auto", 0 and
		// 65536 and above are none): SHI_USES_UNLIMITED, as Samba says.
		uint64_t mc = sh.params.has("max connections")
				      ? sh.params.number("max connections")
				      : 0;
		s.max_uses = mc == 0 || mc >= 65536 ? 0xffffffff : static_cast<uint32_t>(mc);
		info.shares.push_back(std::move(s));
	}
	return info;
}

std::unique_ptr<RpcEndpoint> open_pipe(const std::string &pipe, ServerInfo info,
				       bool admin)
{
	std::string n = normalize_section(pipe);
	for (const char *prefix : {"\\pipe\\", "\\"})
		if (n.starts_with(prefix))
			n = n.substr(std::char_traits<char>::length(prefix));
	if (n == "srvsvc")
		return std::make_unique<Endpoint>(
			n, std::make_unique<Srvsvc>(std::move(info), admin));
	if (n == "wkssvc")
		return std::make_unique<Endpoint>(n, std::make_unique<Wkssvc>(std::move(info)));
	return nullptr;
}

std::unique_ptr<RpcEndpoint> open_pipe(const std::string &pipe, const Config &cfg,
				       const std::string &user, Accounts &accounts)
{
	bool admin = false;
	if (const ShareConfig *ipc = cfg.share("ipc$"); ipc && !user.empty())
		admin = user_in_list(ipc->params.list("admin users"), user, accounts);
	return open_pipe(pipe, server_info(cfg), admin);
}

} // namespace smbsrv::rpc
