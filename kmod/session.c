// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: sessions, tree connects and open files.
 */
#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "conn.h"
#include "session.h"
#include "share.h"
#include "smbsrv.h"
#include "upcall.h"

static DEFINE_XARRAY_ALLOC1(smbsrv_sessions);
static u32 smbsrv_session_next_id;
static atomic_t smbsrv_nr_sessions = ATOMIC_INIT(0);

/* ---- sessions ---------------------------------------------------------- */

static void smbsrv_session_free_rcu(struct rcu_head *head)
{
	kfree_sensitive(container_of(head, struct smbsrv_session, rcu));
}

/* The session's keys, signer and ciphers (sign.c set them up). */
static void smbsrv_session_free_keys(struct smbsrv_session *sess)
{
	if (sess->signer)
		smbsrv_signer_free(sess->signer);
	if (sess->encryptor)
		smbsrv_cipher_free(sess->encryptor);
	if (sess->decryptor)
		smbsrv_cipher_free(sess->decryptor);
	sess->signer = NULL;
	sess->encryptor = NULL;
	sess->decryptor = NULL;
	memzero_explicit(&sess->keys, sizeof(sess->keys));
	memzero_explicit(sess->session_key, sizeof(sess->session_key));
}

void smbsrv_session_put(struct smbsrv_session *sess)
{
	if (!refcount_dec_and_test(&sess->ref))
		return;
	WARN_ON(!xa_empty(&sess->trees) || !xa_empty(&sess->opens));
	/* Its opens closed (their locks went) or left with their count. */
	WARN_ON(atomic_read(&sess->nr_locks));
	xa_destroy(&sess->trees);
	xa_destroy(&sess->opens);
	smbsrv_session_free_keys(sess);
	if (sess->cred)
		put_cred(sess->cred);
	kfree(sess->user);
	kfree(sess->domain);
	smbsrv_conn_put(sess->conn);
	call_rcu(&sess->rcu, smbsrv_session_free_rcu);
}

struct smbsrv_session *smbsrv_session_new(struct smbsrv_conn *conn)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.max_sessions);
	struct smbsrv_session *sess;
	u32 id;

	if (max && atomic_inc_return(&smbsrv_nr_sessions) > max) {
		atomic_dec(&smbsrv_nr_sessions);
		return ERR_PTR(-EUSERS);
	} else if (!max) {
		atomic_inc(&smbsrv_nr_sessions);
	}

	sess = kzalloc(sizeof(*sess), GFP_KERNEL);
	if (!sess)
		goto err_count;
	refcount_set(&sess->ref, 2);	/* the tables' and the caller's */
	mutex_init(&sess->setup_lock);
	sess->state = SMBSRV_SESSION_IN_PROGRESS;
	sess->conn = conn;
	xa_init_flags(&sess->trees, XA_FLAGS_ALLOC1);
	xa_init_flags(&sess->opens, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&sess->conn_node);
	smbsrv_conn_get(conn);

	if (xa_alloc_cyclic(&smbsrv_sessions, &id, sess, XA_LIMIT(1, U32_MAX),
			    &smbsrv_session_next_id, GFP_KERNEL) < 0)
		goto err_free;
	sess->id = id;

	spin_lock(&conn->lock);
	if (smbsrv_conn_closing(conn)) {
		spin_unlock(&conn->lock);
		xa_erase(&smbsrv_sessions, id);
		goto err_free;
	}
	list_add_tail(&sess->conn_node, &conn->sessions);
	conn->nr_sessions++;
	spin_unlock(&conn->lock);
	return sess;

err_free:
	smbsrv_conn_put(conn);
	kfree(sess);
err_count:
	atomic_dec(&smbsrv_nr_sessions);
	return ERR_PTR(-ENOMEM);
}

struct smbsrv_session *smbsrv_session_lookup_any(u64 id)
{
	struct smbsrv_session *sess;

	if (!id || id > U32_MAX)
		return NULL;
	rcu_read_lock();
	sess = xa_load(&smbsrv_sessions, id);
	if (sess && !refcount_inc_not_zero(&sess->ref))
		sess = NULL;
	rcu_read_unlock();
	return sess;
}

struct smbsrv_session *smbsrv_session_lookup(struct smbsrv_conn *conn, u64 id)
{
	struct smbsrv_session *sess = smbsrv_session_lookup_any(id);

	if (sess && sess->conn != conn) {
		smbsrv_session_put(sess);
		return NULL;
	}
	return sess;
}

void smbsrv_session_end(struct smbsrv_session *sess)
{
	mutex_lock(&sess->setup_lock);
	smbsrv_session_end_unlock(sess);
}

/* As smbsrv_session_end(), called with @sess's setup lock held: drops it. */
void smbsrv_session_end_unlock(struct smbsrv_session *sess)
{
	struct smbsrv_conn *conn = sess->conn;
	struct smbsrv_tree *tree;
	struct smbsrv_open *op;
	unsigned long id;

	lockdep_assert_held(&sess->setup_lock);
	if (sess->state == SMBSRV_SESSION_EXPIRED) {
		mutex_unlock(&sess->setup_lock);
		return;
	}
	/* Under the tree table's lock: no tree is added after this. */
	xa_lock(&sess->trees);
	WRITE_ONCE(sess->state, SMBSRV_SESSION_EXPIRED);
	xa_unlock(&sess->trees);
	xa_erase(&smbsrv_sessions, sess->id);
	spin_lock(&conn->lock);
	list_del_init(&sess->conn_node);
	conn->nr_sessions--;
	spin_unlock(&conn->lock);
	mutex_unlock(&sess->setup_lock);

	xa_for_each(&sess->trees, id, tree)
		smbsrv_tree_end(tree);
	/* Opens of trees that ended concurrently are gone by now too. */
	xa_for_each(&sess->opens, id, op)
		smbsrv_open_end(op);
	atomic_dec(&smbsrv_nr_sessions);
	smbsrv_session_put(sess);
}

void smbsrv_sessions_close(struct smbsrv_conn *conn)
{
	struct smbsrv_session *sess;

	for (;;) {
		spin_lock(&conn->lock);
		sess = list_first_entry_or_null(&conn->sessions,
						struct smbsrv_session,
						conn_node);
		if (sess)
			smbsrv_session_get(sess);
		spin_unlock(&conn->lock);
		if (!sess)
			break;
		/* The connection went: durable opens outlive it. */
		WRITE_ONCE(sess->disconnecting, true);
		smbsrv_session_end(sess);
		smbsrv_session_put(sess);
	}
}

u32 smbsrv_session_count(void)
{
	return atomic_read(&smbsrv_nr_sessions);
}

struct smbsrv_session *smbsrv_session_next(u64 after)
{
	struct smbsrv_session *sess;
	unsigned long id = (unsigned long)after + 1;

	rcu_read_lock();
	for (;;) {
		sess = xa_find(&smbsrv_sessions, &id, U32_MAX, XA_PRESENT);
		if (!sess || refcount_inc_not_zero(&sess->ref))
			break;
		id++;
	}
	rcu_read_unlock();
	return sess;
}

/* ---- idle connections (the deadtime knob) ------------------------------ */

#define SMBSRV_IDLE_SCAN	(15 * HZ)

static void smbsrv_idle_scan(struct work_struct *work);
static DECLARE_DELAYED_WORK(smbsrv_idle_work, smbsrv_idle_scan);

static bool smbsrv_conn_has_opens(struct smbsrv_conn *conn)
{
	struct smbsrv_session *sess;
	bool any = false;

	spin_lock(&conn->lock);
	list_for_each_entry(sess, &conn->sessions, conn_node) {
		if (atomic_read(&sess->nr_opens)) {
			any = true;
			break;
		}
	}
	spin_unlock(&conn->lock);
	return any;
}

/*
 * Every SMBSRV_IDLE_SCAN, while there are connections: close those that
 * established a session, received nothing for deadtime minutes and have
 * no open file (a pending lock or notify has one), as ksmbd and Samba do.
 * Connections that never logged on are the logon timeout's (conn.c).
 */
static void smbsrv_idle_scan(struct work_struct *work)
{
	u32 deadtime = READ_ONCE(smbsrv_server.knobs.deadtime);
	unsigned long idle = (unsigned long)deadtime * 60 * HZ;
	struct smbsrv_conn *conn;
	u32 after = 0;

	while (deadtime && (conn = smbsrv_conn_next(after))) {
		after = conn->id;
		if (test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags) &&
		    !atomic_read(&conn->inflight) &&
		    time_after(jiffies, READ_ONCE(conn->last_active) + idle) &&
		    !smbsrv_conn_has_opens(conn))
			smbsrv_conn_close_idle(conn);
		smbsrv_conn_put(conn);
	}
	if (smbsrv_conn_count())
		queue_delayed_work(smbsrv_ctl_wq, &smbsrv_idle_work,
				   SMBSRV_IDLE_SCAN);
}

void smbsrv_sessions_idle_watch(void)
{
	queue_delayed_work(smbsrv_ctl_wq, &smbsrv_idle_work, SMBSRV_IDLE_SCAN);
}

void smbsrv_sessions_exit(void)
{
	/* No session is established any more: the scan stops for good. */
	cancel_delayed_work_sync(&smbsrv_idle_work);
	/* Every connection is gone, and with it every session. */
	WARN_ON(!xa_empty(&smbsrv_sessions));
	rcu_barrier();
}

/* ---- tree connects ----------------------------------------------------- */

static void smbsrv_tree_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct smbsrv_tree, rcu));
}

void smbsrv_tree_put(struct smbsrv_tree *tree)
{
	if (!refcount_dec_and_test(&tree->ref))
		return;
	if (tree->root.mnt)
		path_put(&tree->root);
	if (tree->cred)
		put_cred(tree->cred);
	if (tree->use)
		smbsrv_share_use_put(tree->use);
	smbsrv_share_info_put(tree->share);
	smbsrv_session_put(tree->sess);
	call_rcu(&tree->rcu, smbsrv_tree_free_rcu);
}

struct smbsrv_tree *smbsrv_tree_new(struct smbsrv_session *sess,
				    struct smbsrv_share_info *share)
{
	struct smbsrv_tree *tree;
	u32 id;
	int err;

	tree = kzalloc(sizeof(*tree), GFP_KERNEL);
	if (!tree)
		return ERR_PTR(-ENOMEM);
	refcount_set(&tree->ref, 1);
	tree->sess = sess;
	smbsrv_session_get(sess);
	tree->share = smbsrv_share_info_get(share);
	tree->share_flags = share->flags;

	/* GFP_NOWAIT: the state check and the insertion are one step. */
	xa_lock(&sess->trees);
	if (READ_ONCE(sess->state) == SMBSRV_SESSION_EXPIRED)
		err = -ENOENT;
	else
		err = __xa_alloc(&sess->trees, &id, tree,
				 XA_LIMIT(1, U32_MAX - 1), GFP_NOWAIT);
	if (!err) {
		tree->id = id;
		refcount_inc(&tree->ref);	/* the table's */
	}
	xa_unlock(&sess->trees);
	if (err) {
		smbsrv_tree_put(tree);
		return ERR_PTR(err);
	}
	return tree;
}

struct smbsrv_tree *smbsrv_tree_lookup(struct smbsrv_session *sess, u32 id)
{
	struct smbsrv_tree *tree;

	rcu_read_lock();
	tree = xa_load(&sess->trees, id);
	if (tree && (READ_ONCE(tree->gone) ||
		     !refcount_inc_not_zero(&tree->ref)))
		tree = NULL;
	rcu_read_unlock();
	return tree;
}

void smbsrv_tree_end(struct smbsrv_tree *tree)
{
	struct smbsrv_session *sess = tree->sess;
	struct smbsrv_open *op;
	unsigned long id;

	if (xa_cmpxchg(&sess->trees, tree->id, tree, NULL, 0) != tree)
		return;
	/* Under the open table's lock: no open is added after this. */
	xa_lock(&sess->opens);
	WRITE_ONCE(tree->gone, true);
	xa_unlock(&sess->opens);
	xa_for_each(&sess->opens, id, op)
		if (op->tree == tree)
			smbsrv_open_end(op);
	smbsrv_tree_put(tree);
}

u32 smbsrv_tree_count(struct smbsrv_session *sess)
{
	struct smbsrv_tree *tree;
	unsigned long id;
	u32 n = 0;

	rcu_read_lock();
	xa_for_each(&sess->trees, id, tree)
		n++;
	rcu_read_unlock();
	return n;
}

/* ---- open files -------------------------------------------------------- */

static void smbsrv_open_free_rcu(struct rcu_head *head)
{
	struct smbsrv_open *op = container_of(head, struct smbsrv_open, rcu);

	op->ops->free(op);
}

void smbsrv_open_put(struct smbsrv_open *op)
{
	might_sleep();
	if (!refcount_dec_and_test(&op->ref))
		return;
	if (op->ops->release)
		op->ops->release(op);
	if (op->tree)
		smbsrv_tree_put(op->tree);
	call_rcu(&op->rcu, smbsrv_open_free_rcu);
}

/* Count one more open of @sess; false (nothing counted) past max open files. */
static bool smbsrv_session_charge_open(struct smbsrv_session *sess)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.max_open_files);

	if (max && atomic_inc_return(&sess->nr_opens) > max) {
		atomic_dec(&sess->nr_opens);
		return false;
	}
	if (!max)
		atomic_inc(&sess->nr_opens);
	return true;
}

int smbsrv_open_insert(struct smbsrv_tree *tree, struct smbsrv_open *op,
		       const struct smbsrv_open_ops *ops)
{
	struct smbsrv_session *sess = tree->sess;
	u32 id;
	int err;

	if (!smbsrv_session_charge_open(sess))
		return -EMFILE;
	refcount_set(&op->ref, 2);	/* the table's and the caller's */
	op->ops = ops;
	op->tree = tree;
	op->gone = false;
	xa_lock(&sess->opens);
	if (READ_ONCE(tree->gone))
		err = -ENOENT;
	else
		err = __xa_alloc(&sess->opens, &id, op,
				 XA_LIMIT(1, U32_MAX - 1), GFP_NOWAIT);
	if (!err) {
		op->id_volatile = id;
		op->id_persistent = id;
		refcount_inc(&tree->ref);
	}
	xa_unlock(&sess->opens);
	if (err)
		atomic_dec(&sess->nr_opens);
	return err;
}

struct smbsrv_open *smbsrv_open_lookup(struct smbsrv_session *sess,
				       struct smbsrv_tree *tree,
				       u64 persistent, u64 volatile_id)
{
	struct smbsrv_open *op;

	if (!volatile_id || volatile_id > U32_MAX)
		return NULL;
	rcu_read_lock();
	op = xa_load(&sess->opens, volatile_id);
	if (op && (op->id_persistent != persistent ||
		   (tree && op->tree != tree) ||
		   READ_ONCE(op->gone) || !refcount_inc_not_zero(&op->ref)))
		op = NULL;
	rcu_read_unlock();
	return op;
}

void smbsrv_open_end(struct smbsrv_open *op)
{
	struct smbsrv_session *sess = op->tree->sess;

	if (xa_cmpxchg(&sess->opens, op->id_volatile, op, NULL, 0) != op)
		return;
	WRITE_ONCE(op->gone, true);
	atomic_dec(&sess->nr_opens);
	/* A durable open outlives its connection, holding the reference. */
	if (READ_ONCE(sess->disconnecting) && op->ops->detach &&
	    op->ops->detach(op))
		return;
	op->ops->close(op);
	smbsrv_open_put(op);
}

int smbsrv_open_attach(struct smbsrv_tree *tree, struct smbsrv_open *op)
{
	struct smbsrv_session *sess = tree->sess;
	struct smbsrv_tree *old;
	u32 id;
	int err;

	if (!smbsrv_session_charge_open(sess))
		return -EMFILE;
	xa_lock(&sess->opens);
	if (READ_ONCE(tree->gone))
		err = -ENOENT;
	else
		err = __xa_alloc(&sess->opens, &id, op,
				 XA_LIMIT(1, U32_MAX - 1), GFP_NOWAIT);
	if (!err) {
		/* The old tree stays valid for whoever still looked it up. */
		old = op->tree;
		op->id_volatile = id;
		refcount_inc(&tree->ref);
		WRITE_ONCE(op->tree, tree);
		WRITE_ONCE(op->gone, false);
	}
	xa_unlock(&sess->opens);
	if (err) {
		atomic_dec(&sess->nr_opens);
		return err;
	}
	if (old)
		smbsrv_tree_put(old);
	return 0;
}
