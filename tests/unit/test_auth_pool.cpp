// SPDX-License-Identifier: GPL-2.0-or-later
//
// The session-setup pool: a blocked job holds up only its own session,
// one session's jobs run one at a time in order, replies come back
// through the pool's fd, and the queue is bounded.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <poll.h>
#include <vector>

#include "auth_pool.hpp"

using namespace smbsrv;
using namespace std::chrono_literals;

namespace {

bool readable(int fd, int ms)
{
	pollfd p{fd, POLLIN, 0};
	return poll(&p, 1, ms) == 1;
}

// Run replies until @done says so or 5 s pass.
template <typename F> bool pump(AuthPool &pool, F done)
{
	auto end = std::chrono::steady_clock::now() + 5s;
	while (!done()) {
		if (std::chrono::steady_clock::now() > end)
			return false;
		if (readable(pool.fd(), 100))
			pool.run_replies();
	}
	return true;
}

} // namespace

TEST_CASE("auth pool: a blocked session holds up no other", "[authpool]")
{
	AuthPool pool(3, 16);
	std::promise<void> release;
	std::shared_future<void> gate = release.get_future().share();
	std::vector<int> answered; // replies run on this thread only
	REQUIRE(pool.submit(1, [gate, &answered] {
		gate.wait(); // a slow ticket check
		return AuthPool::Reply([&answered] { answered.push_back(1); });
	}));
	for (int s = 2; s <= 5; s++)
		REQUIRE(pool.submit(static_cast<uint64_t>(s), [s, &answered] {
			return AuthPool::Reply([s, &answered] { answered.push_back(s); });
		}));
	REQUIRE(pump(pool, [&] { return answered.size() == 4; }));
	CHECK(std::find(answered.begin(), answered.end(), 1) == answered.end());
	CHECK(pool.queued() == 1);
	release.set_value();
	REQUIRE(pump(pool, [&] { return answered.size() == 5; }));
	CHECK(answered.back() == 1);
	CHECK(pool.queued() == 0);
	CHECK_FALSE(readable(pool.fd(), 0));
}

TEST_CASE("auth pool: one session's legs one at a time, in order", "[authpool]")
{
	AuthPool pool(4, 64);
	std::atomic<int> running{0}, most{0};
	std::vector<int> order; // written by the jobs: one at a time
	std::vector<int> replies;
	for (int i = 0; i < 20; i++)
		REQUIRE(pool.submit(42, [&, i] {
			int now = ++running;
			most = std::max(most.load(), now);
			std::this_thread::sleep_for(2ms);
			order.push_back(i);
			--running;
			return AuthPool::Reply([&replies, i] { replies.push_back(i); });
		}));
	REQUIRE(pump(pool, [&] { return replies.size() == 20; }));
	CHECK(most == 1);
	for (int i = 0; i < 20; i++) {
		CHECK(order[static_cast<size_t>(i)] == i);
		CHECK(replies[static_cast<size_t>(i)] == i);
	}
}

TEST_CASE("auth pool: bounded", "[authpool]")
{
	AuthPool pool(1, 2);
	std::promise<void> release;
	std::shared_future<void> gate = release.get_future().share();
	int answered = 0;
	auto job = [gate, &answered] {
		gate.wait();
		return AuthPool::Reply([&answered] { answered++; });
	};
	CHECK(pool.submit(1, job));
	CHECK(pool.submit(2, job));
	CHECK_FALSE(pool.submit(3, job)); // two queued or running: full
	CHECK(pool.queued() == 2);
	release.set_value();
	REQUIRE(pump(pool, [&] { return answered == 2; }));
	CHECK(pool.submit(3, job)); // room again
	REQUIRE(pump(pool, [&] { return answered == 3; }));
	// A job that throws answers nothing and frees its place.
	CHECK(pool.submit(4, []() -> AuthPool::Reply { throw std::runtime_error("boom"); }));
	auto end = std::chrono::steady_clock::now() + 5s;
	while (pool.queued() && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(1ms);
	CHECK(pool.queued() == 0);
}
