/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the KUnit API of the test modules, KUnit's own or a stand-in.
 *
 * The tests are KUnit suites.  On a kernel with CONFIG_KUNIT this is
 * <kunit/test.h>: KUnit runs a module's suites when it is loaded and
 * prints KTAP to the kernel log.  The kernel smbsrv targets (Debian's
 * cloud kernel) is built without KUnit; there kunit-lite.c, linked into
 * the test module, provides the part of the API declared below, runs the
 * suites from the module's init and prints the same KTAP
 * (Documentation/decisions/2026-12-06-module-tests.md).
 *
 * Only what the tests use is here: a test that needs more of KUnit fails
 * to build against the stand-in rather than behaving differently.  As
 * under KUnit, each run of a test case has a kernel thread of its own,
 * which a failed KUNIT_ASSERT_*() ends from wherever it is, and its
 * deferred actions (kunit_kzalloc()'s frees among them) run after it.
 */
#ifndef _SMBSRV_KUNIT_LITE_H
#define _SMBSRV_KUNIT_LITE_H

#if IS_ENABLED(CONFIG_KUNIT)

#include <kunit/test.h>

#else /* !CONFIG_KUNIT */

#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#define KUNIT_PARAM_DESC_SIZE	128

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
};

/* One run of a test case (of one parameter, for a parameterised case). */
struct kunit {
	const char *name;
	enum kunit_status status;
	const void *param_value;
	int param_index;
	struct list_head actions;	/* deferred actions, newest first */
	struct completion done;		/* the case's thread ended */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char name[256];
	struct kunit_case *test_cases;	/* ends with an empty entry */
};

#define KUNIT_CASE(test_name) \
	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params) \
	{ .run_case = test_name, .name = #test_name, \
	  .generate_params = gen_params }

/* The element of @array after @prev (NULL: the first one), or NULL. */
const void *kunit_lite_array_param(const void *prev, char *desc,
				   const void *array, size_t size,
				   size_t elem_size, size_t desc_offset);

/*
 * name##_gen_params: every element of @array, described by its
 * @desc_member (a const char *, here).
 */
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)			\
	static const void *name##_gen_params(const void *prev, char *desc)	\
	{									\
		return kunit_lite_array_param(prev, desc, array,		\
					      sizeof(array),			\
					      sizeof((array)[0]),		\
					      offsetof(typeof((array)[0]),	\
						       desc_member));		\
	}

/*
 * The module's suites, which kunit-lite.c's module init runs (a test
 * module has one kunit_test_suites()).
 */
extern struct kunit_suite *const kunit_lite_suites[];
extern const size_t kunit_lite_nsuites;

#define kunit_test_suites(__suites...)					\
	struct kunit_suite *const kunit_lite_suites[] = { __suites };	\
	const size_t kunit_lite_nsuites = ARRAY_SIZE(kunit_lite_suites)

#define kunit_test_suite(suite)	kunit_test_suites(&(suite))

/* --- deferred actions and managed memory ------------------------------- */

typedef void (kunit_action_t)(void *);

#define KUNIT_DEFINE_ACTION_WRAPPER(wrapper, orig, arg_type)	\
	static void wrapper(void *in)				\
	{							\
		orig((arg_type)in);				\
	}

/* Call @action(@ctx) when the test case ends; on failure, call it now. */
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx);
/* kmalloc() memory freed when the test case ends. */
void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

/* --- expectations and assertions ---------------------------------------- */

/*
 * Report a failure, from the test case's thread; an assertion's ends the
 * test case (the thread).
 */
__printf(5, 6)
void kunit_lite_fail(struct kunit *test, bool assertion, const char *file,
		     int line, const char *fmt, ...);
void kunit_lite_memneq(struct kunit *test, bool assertion, const char *file,
		       int line, const char *left_text,
		       const char *right_text, const u8 *left,
		       const u8 *right, size_t size);

#define KUNIT_FAIL(test, fmt, ...) \
	kunit_lite_fail(test, false, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* @ok; when false, a failure is reported with the message @fmt. */
#define KUNIT_LITE_CHECK(test, assertion, ok, fmt, ...)			\
	({								\
		bool __ok = (ok);					\
									\
		if (!__ok)						\
			kunit_lite_fail(test, assertion, __FILE__, __LINE__, \
					fmt, ##__VA_ARGS__);		\
		__ok;							\
	})

#define KUNIT_LITE_BINARY(test, assertion, left, op, right)		\
	({								\
		typeof(left) __left = (left);				\
		typeof(right) __right = (right);			\
									\
		KUNIT_LITE_CHECK(test, assertion, __left op __right,	\
				 "Expected %s %s %s, but\n"		\
				 "    %s == %lld\n    %s == %lld",	\
				 #left, #op, #right, #left,		\
				 (long long)__left, #right,		\
				 (long long)__right);			\
	})

#define KUNIT_LITE_TRUE(test, assertion, condition)			\
	KUNIT_LITE_CHECK(test, assertion, !!(condition),		\
			 "Expected %s to be true, but is false", #condition)

#define KUNIT_LITE_NOT_NULL(test, assertion, ptr)			\
	KUNIT_LITE_CHECK(test, assertion, (ptr) != NULL,		\
			 "Expected %s is not null, but is", #ptr)

#define KUNIT_EXPECT_EQ(test, left, right) \
	((void)KUNIT_LITE_BINARY(test, false, left, ==, right))
#define KUNIT_EXPECT_TRUE(test, condition) \
	((void)KUNIT_LITE_TRUE(test, false, condition))

#define KUNIT_EXPECT_MEMEQ(test, left, right, size)			\
	do {								\
		const u8 *__l = (const u8 *)(left);			\
		const u8 *__r = (const u8 *)(right);			\
		size_t __n = (size);					\
									\
		if (memcmp(__l, __r, __n))				\
			kunit_lite_memneq(test, false, __FILE__, __LINE__, \
					  #left, #right, __l, __r, __n); \
	} while (0)

#define KUNIT_ASSERT_EQ(test, left, right) \
	((void)KUNIT_LITE_BINARY(test, true, left, ==, right))
#define KUNIT_ASSERT_TRUE(test, condition) \
	((void)KUNIT_LITE_TRUE(test, true, condition))
#define KUNIT_ASSERT_NOT_NULL(test, ptr) \
	((void)KUNIT_LITE_NOT_NULL(test, true, ptr))

#endif /* CONFIG_KUNIT */

#endif /* _SMBSRV_KUNIT_LITE_H */
