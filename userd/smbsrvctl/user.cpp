// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl user list|add|passwd|del: the user database (ksmbdpwd.db
// format, userdb.hpp).  smbsrvd notices the file changed at the next
// logon, so no reload is needed.
#include <cstdio>
#include <iostream>
#include <termios.h>
#include <unistd.h>

#include "accounts.hpp"
#include "atomic_file.hpp"
#include "ctl.hpp"
#include "userdb.hpp"

namespace smbsrv::ctl {

namespace {

// Overwrite a secret before its memory is released.
void wipe(std::string &s)
{
	volatile char *p = s.data();
	for (size_t i = 0; i < s.size(); i++)
		p[i] = 0;
	s.clear();
}

// One line from f, without its line end; false at end of file.
bool read_line(FILE *f, std::string &out)
{
	out.clear();
	int c;
	bool any = false;
	while ((c = std::fgetc(f)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		out += static_cast<char>(c);
	}
	if (!out.empty() && out.back() == '\r')
		out.pop_back();
	return any;
}

// Ask on the terminal, echo off, and restore the terminal whatever happens.
// Echo goes off before the question shows (and type-ahead is discarded, as
// getpass does), so that nothing typed after it can be echoed.
bool prompt(FILE *tty, const char *question, std::string &out)
{
	termios old{};
	int fd = fileno(tty);
	bool restore = tcgetattr(fd, &old) == 0;
	if (restore) {
		termios quiet = old;
		quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
		quiet.c_lflag |= ECHONL;
		tcsetattr(fd, TCSAFLUSH, &quiet);
	}
	std::fputs(question, stderr);
	std::fflush(stderr);
	bool ok = read_line(tty, out);
	if (restore)
		tcsetattr(fd, TCSAFLUSH, &old);
	return ok;
}

// The new password: asked twice on a terminal, or one line of stdin.
std::string new_password(const std::string &user)
{
	std::string pw;
	if (!isatty(STDIN_FILENO)) {
		if (!read_line(stdin, pw))
			throw UsageError("no password on standard input");
		return pw;
	}
	std::string again;
	std::string q = "New SMB password for " + user + ": ";
	if (!prompt(stdin, q.c_str(), pw) || !prompt(stdin, "Retype it: ", again))
		throw UsageError("no password given");
	bool same = pw == again;
	wipe(again);
	if (!same) {
		wipe(pw);
		throw UsageError("the passwords differ; nothing changed");
	}
	return pw;
}

UserDb load(const Options &o)
{
	Diagnostics d;
	UserDb db = UserDb::load(o.userdb, d);
	for (const auto &x : d.all())
		std::cerr << x.str() << "\n";
	if (d.has_errors())
		throw Failure(o.userdb + " has errors; nothing changed");
	return db;
}

void note_unix_account(const std::string &name)
{
	SystemAccounts acc;
	if (!acc.user(name))
		std::fprintf(stderr,
			     "smbsrvctl: warning: there is no Unix user '%s'; "
			     "smbsrvd maps SMB users to Unix users of the same "
			     "name and refuses logons without one\n",
			     name.c_str());
}

int list(const Options &o)
{
	UserDb db = load(o);
	SystemAccounts acc;
	for (const auto &u : db.users()) {
		auto a = acc.user(u.name);
		if (a)
			std::printf("%s\t(uid %u)\n", u.name.c_str(), a->uid);
		else
			std::printf("%s\t(no Unix account: logons are refused)\n",
				    u.name.c_str());
	}
	return 0;
}

int set_password(const Options &o, const std::string &name, bool adding)
{
	if (std::string why = check_user_name(name); !why.empty())
		throw UsageError(why);
	DirLock lock(o.userdb);
	UserDb db = load(o);
	const UserEntry *u = db.find(name);
	// find() also matches without case; an admin names users exactly.
	bool exists = u && u->name == name;
	if (adding && exists) {
		std::fprintf(stderr, "smbsrvctl: user '%s' exists; use 'user passwd'\n",
			     name.c_str());
		return 1;
	}
	if (!adding && !exists) {
		std::fprintf(stderr, "smbsrvctl: no user '%s' in %s\n", name.c_str(),
			     o.userdb.c_str());
		return 1;
	}
	std::string pw = new_password(name);
	std::string why = check_password(pw);
	std::optional<NtHash> h = why.empty() ? nt_hash(pw) : std::nullopt;
	wipe(pw);
	if (!h)
		throw UsageError(why.empty() ? "unusable password" : why);
	db.set(name, *h);
	db.save(o.userdb);
	std::printf("user '%s' %s in %s\n", name.c_str(),
		    adding ? "added" : "password changed", o.userdb.c_str());
	if (adding)
		note_unix_account(name);
	return 0;
}

int remove(const Options &o, const std::string &name)
{
	DirLock lock(o.userdb);
	UserDb db = load(o);
	if (!db.remove(name)) {
		std::fprintf(stderr, "smbsrvctl: no user '%s' in %s\n", name.c_str(),
			     o.userdb.c_str());
		return 1;
	}
	db.save(o.userdb);
	std::printf("user '%s' removed from %s\n", name.c_str(), o.userdb.c_str());
	return 0;
}

} // namespace

int cmd_user(const Options &o, const Args &args)
{
	if (args.size() < 2)
		throw UsageError("user: which action? list, add, passwd or del");
	const std::string &action = args[1];
	if (action == "list") {
		if (args.size() != 2)
			throw UsageError("user list takes no arguments");
		return list(o);
	}
	if (args.size() != 3)
		throw UsageError("user " + action + " takes one user name");
	if (action == "add")
		return set_password(o, args[2], true);
	if (action == "passwd")
		return set_password(o, args[2], false);
	if (action == "del" || action == "delete")
		return remove(o, args[2]);
	throw UsageError("user: unknown action '" + action + "'");
}

} // namespace smbsrv::ctl
