// SPDX-License-Identifier: GPL-2.0-or-later
//
// Session-setup legs run on a few worker threads, so that one slow logon
// (a ticket whose check waits on a replay cache on slow storage, a huge
// PAC) holds up neither other logons nor the tree connects and pipe
// upcalls the main thread answers meanwhile.
//
// A job is work done on a worker that returns a reply, which the main
// thread runs (the netlink socket is the main thread's alone): the pool's
// fd becomes readable when replies wait, and run_replies() runs them.
// Jobs of one session run one at a time, in the order submitted (legs of
// a logon, a re-authentication after it); jobs of different sessions run
// in parallel.  At most max_queued jobs wait or run; submit() refuses more.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace smbsrv {

class AuthPool {
public:
	using Reply = std::function<void()>;
	using Work = std::function<Reply()>;

	AuthPool(size_t threads, size_t max_queued);
	~AuthPool(); // lets running jobs finish, drops waiting ones
	AuthPool(const AuthPool &) = delete;
	AuthPool &operator=(const AuthPool &) = delete;

	// Queue @work for session @session; false when max_queued jobs are
	// waiting or running already.
	bool submit(uint64_t session, Work work);
	// Readable (an eventfd) while replies wait.
	[[nodiscard]] int fd() const { return efd_; }
	// Run the replies of finished jobs, in the order they finished.
	void run_replies();
	// Jobs waiting or running.
	[[nodiscard]] size_t queued();

private:
	void worker();

	std::mutex mu_;
	std::condition_variable cv_;
	bool stop_ = false;
	size_t max_queued_;
	size_t queued_ = 0;
	// Sessions with a job ready to run, in order; each session's jobs.
	std::deque<uint64_t> ready_;
	std::map<uint64_t, std::deque<Work>> jobs_;
	std::set<uint64_t> running_;
	std::deque<Reply> replies_;
	int efd_ = -1;
	std::vector<std::thread> threads_;
};

} // namespace smbsrv
