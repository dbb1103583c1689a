// SPDX-License-Identifier: GPL-2.0-or-later
//
// The smbsrvctl program itself: exit statuses, the password prompt on a
// terminal (no echo, asked twice), passwords on stdin, files it writes.
#include <catch2/catch.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <poll.h>
#include <pty.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "atomic_file.hpp"
#include "config.hpp"
#include "userdb.hpp"

using namespace smbsrv;

namespace {

struct TempDir {
	std::string path;
	TempDir()
	{
		char t[] = "/tmp/smbsrvctl-test-XXXXXX";
		REQUIRE(mkdtemp(t) != nullptr);
		path = t;
	}
	~TempDir() { std::filesystem::remove_all(path); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;
};

struct Run {
	int status = -1; // exit status
	std::string out; // what the terminal (or stdout and stderr) showed
};

std::vector<char *> argv_of(std::vector<std::string> &args)
{
	std::vector<char *> v;
	v.reserve(args.size() + 1);
	for (auto &a : args)
		v.push_back(a.data());
	v.push_back(nullptr);
	return v;
}

int wait_exit(pid_t pid)
{
	int st = 0;
	REQUIRE(waitpid(pid, &st, 0) == pid);
	REQUIRE(WIFEXITED(st));
	return WEXITSTATUS(st);
}

// Run smbsrvctl on a new terminal, typing each line when it asks.
Run on_terminal(std::vector<std::string> args, const std::vector<std::string> &typed)
{
	args.insert(args.begin(), SMBSRVCTL);
	int fd = -1;
	auto v = argv_of(args);
	pid_t pid = forkpty(&fd, nullptr, nullptr, nullptr);
	if (pid == 0) { // the child reports nothing to Catch
		execv(v[0], v.data());
		_exit(127);
	}
	REQUIRE(pid > 0);
	Run r;
	size_t next = 0;
	bool quiet = false;
	for (;;) {
		pollfd p{fd, POLLIN, 0};
		if (poll(&p, 1, 10000) <= 0) {
			quiet = true;
			break;
		}
		char buf[512];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break; // EIO: the child closed the terminal
		r.out.append(buf, static_cast<size_t>(n));
		// Answer each prompt (they end in ": ") once.
		if (next < typed.size() && r.out.size() >= 2 &&
		    r.out.compare(r.out.size() - 2, 2, ": ") == 0) {
			std::string line = typed[next++] + "\n";
			REQUIRE(write(fd, line.data(), line.size()) ==
				static_cast<ssize_t>(line.size()));
		}
	}
	// Silent for 10 s: it waits for input that will not come.  End it
	// rather than hang the tests.
	if (quiet) {
		kill(pid, SIGKILL);
		FAIL_CHECK("smbsrvctl hung; the terminal showed: " << r.out);
	}
	r.status = quiet ? -1 : wait_exit(pid);
	if (quiet)
		waitpid(pid, nullptr, 0);
	close(fd);
	return r;
}

// Run smbsrvctl with stdin from a pipe; stdout and stderr captured.
Run with_stdin(std::vector<std::string> args, const std::string &input)
{
	args.insert(args.begin(), SMBSRVCTL);
	int in[2], out[2];
	REQUIRE(pipe(in) == 0);
	REQUIRE(pipe(out) == 0);
	auto v = argv_of(args);
	pid_t pid = fork();
	if (pid == 0) { // the child reports nothing to Catch
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[1]);
		close(out[0]);
		execv(v[0], v.data());
		_exit(127);
	}
	REQUIRE(pid > 0);
	close(in[0]);
	close(out[1]);
	// smbsrvctl may exit before it reads its input (a refused call):
	// the write then fails with EPIPE instead of raising SIGPIPE, which
	// would end the whole test run.
	struct sigaction ign = {};
	struct sigaction old = {};
	ign.sa_handler = SIG_IGN;
	REQUIRE(sigaction(SIGPIPE, &ign, &old) == 0);
	const ssize_t w = write(in[1], input.data(), input.size());
	const int werr = errno;
	REQUIRE(sigaction(SIGPIPE, &old, nullptr) == 0);
	REQUIRE((w == static_cast<ssize_t>(input.size()) || (w < 0 && werr == EPIPE)));
	close(in[1]);
	Run r;
	char buf[512];
	for (ssize_t n; (n = read(out[0], buf, sizeof(buf))) > 0;)
		r.out.append(buf, static_cast<size_t>(n));
	close(out[0]);
	r.status = wait_exit(pid);
	return r;
}

NtHash hash_in(const std::string &db, const std::string &user)
{
	Diagnostics d;
	UserDb u = UserDb::load(db, d);
	const UserEntry *e = u.find(user);
	REQUIRE(e != nullptr);
	return e->hash;
}

} // namespace

TEST_CASE("smbsrvctl user add asks twice on a terminal and never echoes")
{
	TempDir t;
	std::string db = t.path + "/pwd.db";
	Run r = on_terminal({"-u", db, "user", "add", "root"}, {"S3cret!", "S3cret!"});
	CAPTURE(r.out);
	CHECK(r.status == 0);
	CHECK(r.out.find("New SMB password for root: ") != std::string::npos);
	CHECK(r.out.find("Retype it: ") != std::string::npos);
	CHECK(r.out.find("S3cret!") == std::string::npos);
	CHECK(hash_in(db, "root") == nt_hash("S3cret!").value());
	struct stat st {};
	REQUIRE(stat(db.c_str(), &st) == 0);
	CHECK((st.st_mode & 07777) == 0600);

	// Two different answers change nothing.
	r = on_terminal({"-u", db, "user", "passwd", "root"}, {"one", "two"});
	CHECK(r.status == 2);
	CHECK(r.out.find("the passwords differ; nothing changed") != std::string::npos);
	CHECK(hash_in(db, "root") == nt_hash("S3cret!").value());
}

TEST_CASE("smbsrvctl user: passwords on stdin, passwd, del, list")
{
	TempDir t;
	std::string db = t.path + "/pwd.db";
	std::vector<std::string> u = {"-u", db, "user"};
	auto cmd = [&](std::vector<std::string> more) {
		std::vector<std::string> a = u;
		a.insert(a.end(), more.begin(), more.end());
		return a;
	};
	CHECK(with_stdin(cmd({"add", "root"}), "first\n").status == 0);
	CHECK(hash_in(db, "root") == nt_hash("first").value());
	Run r = with_stdin(cmd({"add", "root"}), "again\n");
	CHECK(r.status == 1);
	CHECK(r.out == "smbsrvctl: user 'root' exists; use 'user passwd'\n");
	CHECK(with_stdin(cmd({"passwd", "root"}), "second\r\n").status == 0);
	CHECK(hash_in(db, "root") == nt_hash("second").value());
	r = with_stdin(cmd({"list"}), "");
	CHECK(r.status == 0);
	CHECK(r.out == "root\t(uid 0)\n");
	CHECK(with_stdin(cmd({"passwd", "nobody-here"}), "x\n").status == 1);
	CHECK(with_stdin(cmd({"add", "a:b"}), "x\n").status == 2);
	CHECK(with_stdin(cmd({"add", "bob"}), "").status == 2);
	CHECK(with_stdin(cmd({"del", "root"}), "").status == 0);
	CHECK(read_file(db) == std::optional<std::string>(""));
	CHECK(with_stdin(cmd({"del", "root"}), "").status == 1);
}

TEST_CASE("smbsrvctl share: exit statuses and the file it leaves")
{
	TempDir t;
	std::string conf = t.path + "/smbsrv.conf";
	write_file_atomic(conf, "; mine\n[global]\n\tworkgroup = HOME\n");
	std::vector<std::string> c = {"-c", conf, "-P", t.path + "/none.pid"};
	auto cmd = [&](std::vector<std::string> more) {
		std::vector<std::string> a = c;
		a.insert(a.end(), more.begin(), more.end());
		return a;
	};
	Run r = with_stdin(cmd({"share", "add", "docs", "-o", "path = " + t.path}), "");
	CHECK(r.status == 0);
	CHECK(r.out == "share 'docs' added to " + conf +
			       "\nsmbsrvd is not running; the change applies when it starts\n");
	CHECK(read_file(conf) == "; mine\n[global]\n\tworkgroup = HOME\n\n[docs]\n\tpath = " +
					 t.path + "\n");
	r = with_stdin(cmd({"share", "list"}), "");
	CHECK(r.out.find("docs  " + t.path) != std::string::npos);
	CHECK(with_stdin(cmd({"share", "add", "docs", "-o", "path = /x"}), "").status == 1);
	CHECK(with_stdin(cmd({"share", "add", "x", "-o", "path"}), "").status == 2);
	CHECK(with_stdin(cmd({"share", "frobnicate", "x"}), "").status == 2);
	CHECK(with_stdin(cmd({"share", "del", "docs"}), "").status == 0);
	CHECK(read_file(conf) == std::optional<std::string>("; mine\n[global]\n\tworkgroup = HOME\n"));
	CHECK(with_stdin(cmd({"nonsense"}), "").status == 2);
}
