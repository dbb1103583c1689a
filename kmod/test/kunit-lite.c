// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: runs KUnit suites on a kernel without KUnit (kunit-lite.h says
 * when and why), printing the KTAP KUnit prints: a suite is a subtest of
 * the module's KTAP document, a test case a subtest of the suite, each
 * parameter of a parameterised case a result of the case's own subtest.
 * Test cases run one after the other from the module's init, each run in
 * a kernel thread of its own, as KUnit runs them: a failed assertion ends
 * the thread; the case's deferred actions then run, newest first.
 */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/stdarg.h>

#include "kunit-lite.h"

#define INDENT	"    "

struct kunit_lite_action {
	struct list_head node;
	kunit_action_t *action;
	void *ctx;
};

struct kunit_lite_stats {
	unsigned long passed, failed, total;
};

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx)
{
	struct kunit_lite_action *a = kmalloc(sizeof(*a), GFP_KERNEL);

	if (!a) {
		action(ctx);
		return -ENOMEM;
	}
	a->action = action;
	a->ctx = ctx;
	list_add(&a->node, &test->actions);
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(kunit_lite_kfree, kfree, const void *);

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p && kunit_add_action_or_reset(test, kunit_lite_kfree, p))
		return NULL;
	return p;
}

const void *kunit_lite_array_param(const void *prev, char *desc,
				   const void *array, size_t size,
				   size_t elem_size, size_t desc_offset)
{
	const char *next = prev ? (const char *)prev + elem_size : array;

	if (next >= (const char *)array + size)
		return NULL;
	strscpy(desc, *(const char * const *)(next + desc_offset),
		KUNIT_PARAM_DESC_SIZE);
	return next;
}

void kunit_lite_fail(struct kunit *test, bool assertion, const char *file,
		     int line, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	test->status = KUNIT_FAILURE;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err(INDENT "# %s: %s FAILED at %s:%d\n" INDENT "%pV\n", test->name,
	       assertion ? "ASSERTION" : "EXPECTATION", file, line, &vaf);
	va_end(args);
	if (assertion)
		kthread_complete_and_exit(&test->done, 0);
}

void kunit_lite_memneq(struct kunit *test, bool assertion, const char *file,
		       int line, const char *left_text,
		       const char *right_text, const u8 *left,
		       const u8 *right, size_t size)
{
	size_t i = 0;

	while (i < size && left[i] == right[i])
		i++;
	kunit_lite_fail(test, assertion, file, line,
			"Expected %s == %s, but the %zu bytes differ from byte %zu on:\n"
			INDENT "%s: %*phN\n" INDENT "%s: %*phN",
			left_text, right_text, size, i,
			left_text, (int)min_t(size_t, size - i, 32), left + i,
			right_text, (int)min_t(size_t, size - i, 32), right + i);
}

struct kunit_lite_run {
	struct kunit *test;
	void (*run_case)(struct kunit *test);
};

static int kunit_lite_thread(void *data)
{
	struct kunit_lite_run *run = data;

	run->run_case(run->test);
	kthread_complete_and_exit(&run->test->done, 0);
}

static void kunit_lite_count(struct kunit_lite_stats *s, enum kunit_status st)
{
	if (st == KUNIT_SUCCESS)
		s->passed++;
	else
		s->failed++;
	s->total++;
}

static void kunit_lite_stats(const char *indent, const char *name,
			     const struct kunit_lite_stats *s)
{
	/* As KUnit: only when there is more than one result to sum up. */
	if (s->total > 1)
		pr_info("%s# %s: pass:%lu fail:%lu skip:0 total:%lu\n", indent,
			name, s->passed, s->failed, s->total);
}

static const char *kunit_lite_ok(enum kunit_status st)
{
	return st == KUNIT_SUCCESS ? "ok" : "not ok";
}

/* One run of @tc (for @param, if it has parameters); its status. */
static enum kunit_status kunit_lite_run_one(struct kunit_case *tc,
					    const void *param, int index)
{
	struct kunit test = {
		.name = tc->name,
		.status = KUNIT_SUCCESS,
		.param_value = param,
		.param_index = index,
	};
	struct kunit_lite_run run = { &test, tc->run_case };
	struct kunit_lite_action *a, *tmp;
	struct task_struct *t;

	INIT_LIST_HEAD(&test.actions);
	init_completion(&test.done);
	t = kthread_run(kunit_lite_thread, &run, "kunit_lite");
	if (IS_ERR(t))
		kunit_lite_fail(&test, false, __FILE__, __LINE__,
				"no thread for the test case: %ld", PTR_ERR(t));
	else
		wait_for_completion(&test.done);
	list_for_each_entry_safe(a, tmp, &test.actions, node) {
		a->action(a->ctx);
		kfree(a);
	}
	return test.status;
}

/*
 * A case and its parameters; its results are added to @params.  A
 * parameterised case that has no parameter is a failure here (KUnit
 * reports it skipped): a case that stops reporting must not pass.
 */
static enum kunit_status kunit_lite_run_case(struct kunit_case *tc,
					     struct kunit_lite_stats *params)
{
	char desc[KUNIT_PARAM_DESC_SIZE];
	struct kunit_lite_stats s = {};
	enum kunit_status st, status;
	const void *param;
	int i;

	if (!tc->generate_params) {
		status = kunit_lite_run_one(tc, NULL, 0);
		kunit_lite_count(params, status);
		return status;
	}
	pr_info(INDENT INDENT "KTAP version 1\n");
	pr_info(INDENT INDENT "# Subtest: %s\n", tc->name);
	status = KUNIT_FAILURE;
	desc[0] = '\0';
	param = tc->generate_params(NULL, desc);
	for (i = 0; param; i++) {
		st = kunit_lite_run_one(tc, param, i);
		if (!desc[0])
			snprintf(desc, sizeof(desc), "param-%d", i);
		pr_info(INDENT INDENT "%s %d %s\n", kunit_lite_ok(st), i + 1,
			desc);
		kunit_lite_count(&s, st);
		desc[0] = '\0';
		param = tc->generate_params(param, desc);
	}
	if (s.total && !s.failed)
		status = KUNIT_SUCCESS;
	kunit_lite_stats(INDENT, tc->name, &s);
	params->passed += s.passed;
	params->failed += s.failed;
	params->total += s.total;
	return status;
}

static void kunit_lite_run(struct kunit_suite *const *suites, size_t n)
{
	size_t i, j, ncases;

	pr_info("KTAP version 1\n");
	pr_info("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		struct kunit_lite_stats cases = {}, params = {};
		const struct kunit_suite *suite = suites[i];
		enum kunit_status st;

		for (ncases = 0; suite->test_cases[ncases].run_case; ncases++)
			;
		pr_info(INDENT "KTAP version 1\n");
		pr_info(INDENT "# Subtest: %s\n", suite->name);
		pr_info(INDENT "# module: %s\n", KBUILD_MODNAME);
		pr_info(INDENT "1..%zu\n", ncases);
		for (j = 0; j < ncases; j++) {
			struct kunit_case *tc = &suite->test_cases[j];

			st = kunit_lite_run_case(tc, &params);
			pr_info(INDENT "%s %zu %s\n", kunit_lite_ok(st), j + 1,
				tc->name);
			kunit_lite_count(&cases, st);
		}
		kunit_lite_stats("", suite->name, &cases);
		kunit_lite_stats("", "Totals", &params);
		st = KUNIT_FAILURE;
		if (ncases && !cases.failed)
			st = KUNIT_SUCCESS;
		pr_info("%s %zu %s\n", kunit_lite_ok(st), i + 1, suite->name);
	}
}

/* The test module's init: kunit_test_suites() named its suites. */
static int __init kunit_lite_init(void)
{
	kunit_lite_run(kunit_lite_suites, kunit_lite_nsuites);
	return 0;
}

static void __exit kunit_lite_exit(void)
{
}

module_init(kunit_lite_init);
module_exit(kunit_lite_exit);
