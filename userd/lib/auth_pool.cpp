// SPDX-License-Identifier: GPL-2.0-or-later
#include "auth_pool.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/eventfd.h>
#include <unistd.h>

#include "log.hpp"

namespace smbsrv {

AuthPool::AuthPool(size_t threads, size_t max_queued) : max_queued_(max_queued)
{
	efd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd_ < 0)
		throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
	for (size_t i = 0; i < threads; i++)
		threads_.emplace_back([this] { worker(); });
}

AuthPool::~AuthPool()
{
	{
		std::lock_guard lock(mu_);
		stop_ = true;
	}
	cv_.notify_all();
	for (auto &t : threads_)
		t.join();
	close(efd_);
}

bool AuthPool::submit(uint64_t session, Work work)
{
	{
		std::lock_guard lock(mu_);
		if (queued_ >= max_queued_)
			return false;
		queued_++;
		auto &q = jobs_[session];
		q.push_back(std::move(work));
		// A session whose job runs, or waits in ready_, gets its next
		// one queued behind: one at a time, in order.
		if (q.size() > 1 || running_.contains(session))
			return true;
		ready_.push_back(session);
	}
	cv_.notify_one();
	return true;
}

size_t AuthPool::queued()
{
	std::lock_guard lock(mu_);
	return queued_;
}

void AuthPool::worker()
{
	std::unique_lock lock(mu_);
	for (;;) {
		cv_.wait(lock, [this] { return stop_ || !ready_.empty(); });
		if (stop_)
			return;
		uint64_t session = ready_.front();
		ready_.pop_front();
		Work work = std::move(jobs_[session].front());
		jobs_[session].pop_front();
		running_.insert(session);
		lock.unlock();

		Reply reply;
		try {
			reply = work();
		} catch (const std::exception &e) {
			// The job answers nothing: the module times the upcall
			// out and fails the session setup.
			log::error(std::string("session setup: ") + e.what());
		}

		lock.lock();
		queued_--;
		if (reply)
			replies_.push_back(std::move(reply));
		running_.erase(session);
		auto it = jobs_.find(session);
		if (it->second.empty())
			jobs_.erase(it);
		else
			ready_.push_back(session);
		uint64_t one = 1;
		(void)!write(efd_, &one, sizeof(one));
		if (!ready_.empty())
			cv_.notify_one();
	}
}

void AuthPool::run_replies()
{
	uint64_t n = 0;
	(void)!read(efd_, &n, sizeof(n));
	std::deque<Reply> todo;
	{
		std::lock_guard lock(mu_);
		todo.swap(replies_);
	}
	for (auto &r : todo)
		r();
}

} // namespace smbsrv
