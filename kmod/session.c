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

#include "budget.h"
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
	WARN_ON(!list_empty(&sess->channels));
	/* Its opens closed (their locks went) or left with their count. */
	WARN_ON(atomic_read(&sess->nr_locks));
	xa_destroy(&sess->trees);
	xa_destroy(&sess->opens);
	smbsrv_session_free_keys(sess);
	if (sess->cred)
		put_cred(sess->cred);
	kfree(sess->user);
	kfree(sess->domain);
	kfree(sess->principal);
	smbsrv_sids_put(sess->sids);
	smbsrv_conn_put(sess->conn);
	call_rcu(&sess->rcu, smbsrv_session_free_rcu);
}

/* ---- channels ---------------------------------------------------------- */

void smbsrv_channel_put(struct smbsrv_channel *ch)
{
	if (!refcount_dec_and_test(&ch->ref))
		return;
	if (ch->signer)
		smbsrv_signer_free(ch->signer);
	smbsrv_conn_put(ch->conn);
	kfree(ch);
}

/* A channel of @sess on @conn, not listed yet: the lists' reference. */
static struct smbsrv_channel *smbsrv_channel_alloc(struct smbsrv_session *sess,
						   struct smbsrv_conn *conn)
{
	struct smbsrv_channel *ch = kzalloc(sizeof(*ch), GFP_KERNEL);

	if (!ch)
		return NULL;
	refcount_set(&ch->ref, 1);
	ch->sess = sess;
	ch->conn = conn;
	smbsrv_conn_get(conn);
	INIT_LIST_HEAD(&ch->sess_node);
	INIT_LIST_HEAD(&ch->conn_node);
	return ch;
}

/*
 * Onto the session's list and its connection's, under both locks (the
 * session's first): a channel is on both lists or on neither.  The lists'
 * reference is the one it was allocated with.
 */
static int smbsrv_channel_link(struct smbsrv_channel *ch)
{
	struct smbsrv_session *sess = ch->sess;
	struct smbsrv_conn *conn = ch->conn;
	int err = 0;

	spin_lock(&sess->chan_lock);
	spin_lock(&conn->lock);
	if (smbsrv_conn_closing(conn)) {
		err = -ENOTCONN;
	} else {
		list_add_tail(&ch->conn_node, &conn->channels);
		conn->nr_sessions++;
		list_add_tail(&ch->sess_node, &sess->channels);
		sess->nr_channels++;
	}
	spin_unlock(&conn->lock);
	spin_unlock(&sess->chan_lock);
	return err;
}

/*
 * Off both lists; true when it was listed: the caller then owns the
 * lists' reference and drops it.  *@valid_left: whether a bound channel
 * is left to the session.
 */
static bool smbsrv_channel_unlink(struct smbsrv_channel *ch, bool *valid_left)
{
	struct smbsrv_session *sess = ch->sess;
	struct smbsrv_conn *conn = ch->conn;
	struct smbsrv_channel *other;
	bool listed, left = false;

	spin_lock(&sess->chan_lock);
	listed = !list_empty(&ch->sess_node);
	if (listed) {
		spin_lock(&conn->lock);
		list_del_init(&ch->conn_node);
		conn->nr_sessions--;
		spin_unlock(&conn->lock);
		list_del_init(&ch->sess_node);
		sess->nr_channels--;
	}
	list_for_each_entry(other, &sess->channels, sess_node)
		left |= other->valid;
	spin_unlock(&sess->chan_lock);
	*valid_left = left;
	return listed;
}

/* @sess's channel on @conn, under chan_lock; NULL when there is none. */
static struct smbsrv_channel *smbsrv_channel_find(struct smbsrv_session *sess,
						  struct smbsrv_conn *conn)
{
	struct smbsrv_channel *ch;

	lockdep_assert_held(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, sess_node)
		if (ch->conn == conn)
			return ch;
	return NULL;
}

struct smbsrv_channel *smbsrv_session_channel(struct smbsrv_session *sess,
					      struct smbsrv_conn *conn)
{
	struct smbsrv_channel *ch;

	spin_lock(&sess->chan_lock);
	ch = smbsrv_channel_find(sess, conn);
	if (ch && ch->valid)
		refcount_inc(&ch->ref);
	else
		ch = NULL;
	spin_unlock(&sess->chan_lock);
	return ch;
}

struct smbsrv_conn *smbsrv_session_live_conn(struct smbsrv_session *sess)
{
	struct smbsrv_channel *ch;
	struct smbsrv_conn *conn = NULL;

	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, sess_node) {
		if (ch->valid && !smbsrv_conn_closing(ch->conn)) {
			conn = ch->conn;
			smbsrv_conn_get(conn);
			break;
		}
	}
	spin_unlock(&sess->chan_lock);
	return conn;
}

bool smbsrv_session_connected(struct smbsrv_session *sess)
{
	struct smbsrv_channel *ch;
	bool any = false;

	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, sess_node)
		any |= ch->valid && !smbsrv_conn_closing(ch->conn);
	spin_unlock(&sess->chan_lock);
	return any;
}

struct smbsrv_channel *smbsrv_channel_begin(struct smbsrv_session *sess,
					    struct smbsrv_conn *conn,
					    bool *fresh)
{
	struct smbsrv_channel *ch;
	u32 n;
	int err;

	lockdep_assert_held(&sess->setup_lock);
	*fresh = false;
	spin_lock(&sess->chan_lock);
	ch = smbsrv_channel_find(sess, conn);
	if (ch && !ch->valid)
		refcount_inc(&ch->ref);
	n = sess->nr_channels;
	spin_unlock(&sess->chan_lock);
	/* valid is only written under the setup lock, which we hold. */
	if (ch)
		return ch->valid ? ERR_PTR(-EBUSY) : ch;
	if (n >= SMBSRV_MAX_CHANNELS)
		return ERR_PTR(-EUSERS);
	ch = smbsrv_channel_alloc(sess, conn);
	if (!ch)
		return ERR_PTR(-ENOMEM);
	err = smbsrv_channel_link(ch);
	if (err) {
		smbsrv_channel_put(ch);
		return ERR_PTR(err);
	}
	refcount_inc(&ch->ref);		/* the caller's */
	*fresh = true;
	return ch;
}

void smbsrv_channel_bound(struct smbsrv_channel *ch)
{
	struct smbsrv_session *sess = ch->sess;

	lockdep_assert_held(&sess->setup_lock);
	spin_lock(&sess->chan_lock);
	ch->valid = true;
	spin_unlock(&sess->chan_lock);
}

bool smbsrv_channel_remove(struct smbsrv_channel *ch)
{
	struct smbsrv_session *sess = ch->sess;
	bool valid_left;

	lockdep_assert_held(&sess->setup_lock);
	if (!smbsrv_channel_unlink(ch, &valid_left))
		return false;
	smbsrv_channel_put(ch);
	if (valid_left || sess->state == SMBSRV_SESSION_EXPIRED)
		return false;
	/* Its last connection went: durable opens outlive it. */
	WRITE_ONCE(sess->disconnecting, true);
	smbsrv_session_end_unlock(sess);
	return true;
}

/* ---- sessions, continued ----------------------------------------------- */

struct smbsrv_session *smbsrv_session_new(struct smbsrv_conn *conn)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.max_sessions);
	struct smbsrv_channel *ch;
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
	spin_lock_init(&sess->chan_lock);
	INIT_LIST_HEAD(&sess->channels);
	sess->state = SMBSRV_SESSION_IN_PROGRESS;
	sess->conn = conn;
	xa_init_flags(&sess->trees, XA_FLAGS_ALLOC1);
	xa_init_flags(&sess->opens, XA_FLAGS_ALLOC1);
	smbsrv_conn_get(conn);
	ch = smbsrv_channel_alloc(sess, conn);
	if (!ch)
		goto err_free;
	/* The first channel signs with the session's own key (3.3.5.5.3). */
	ch->valid = true;

	if (xa_alloc_cyclic(&smbsrv_sessions, &id, sess, XA_LIMIT(1, U32_MAX),
			    &smbsrv_session_next_id, GFP_KERNEL) < 0)
		goto err_chan;
	sess->id = id;
	if (smbsrv_channel_link(ch)) {
		xa_erase(&smbsrv_sessions, id);
		goto err_chan;
	}
	return sess;

err_chan:
	smbsrv_channel_put(ch);
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
	struct smbsrv_channel *ch;

	if (!sess)
		return NULL;
	spin_lock(&sess->chan_lock);
	ch = smbsrv_channel_find(sess, conn);
	spin_unlock(&sess->chan_lock);
	/* A channel being bound is not one yet. */
	if (!ch || !ch->valid) {
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
	struct smbsrv_channel *ch;
	struct smbsrv_tree *tree;
	struct smbsrv_open *op;
	unsigned long id;
	bool valid_left;

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
	/* Every channel (LOGOFF ends it for all): the setup lock keeps them. */
	for (;;) {
		spin_lock(&sess->chan_lock);
		ch = list_first_entry_or_null(&sess->channels,
					      struct smbsrv_channel, sess_node);
		spin_unlock(&sess->chan_lock);
		if (!ch)
			break;
		if (smbsrv_channel_unlink(ch, &valid_left))
			smbsrv_channel_put(ch);
	}
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
	struct smbsrv_channel *ch;

	for (;;) {
		spin_lock(&conn->lock);
		ch = list_first_entry_or_null(&conn->channels,
					      struct smbsrv_channel, conn_node);
		if (ch) {
			/* Listed: its session is alive. */
			sess = ch->sess;
			smbsrv_session_get(sess);
			refcount_inc(&ch->ref);
		}
		spin_unlock(&conn->lock);
		if (!ch)
			break;
		/*
		 * Only this channel goes; the session ends with its last one
		 * (and the connection went: durable opens outlive it).
		 */
		mutex_lock(&sess->setup_lock);
		if (!smbsrv_channel_remove(ch))
			mutex_unlock(&sess->setup_lock);
		smbsrv_channel_put(ch);
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
	struct smbsrv_channel *ch;
	bool any = false;

	spin_lock(&conn->lock);
	list_for_each_entry(ch, &conn->channels, conn_node) {
		if (atomic_read(&ch->sess->nr_opens)) {
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
	smbsrv_sids_put(tree->sids);
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
	if (op->budget)
		smbsrv_budget_uncharge(op->budget);
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

	err = smbsrv_budget_charge(sess->cred->uid, &op->budget);
	if (err)
		return err;
	if (!smbsrv_session_charge_open(sess)) {
		smbsrv_budget_uncharge(op->budget);
		op->budget = NULL;
		return -EMFILE;
	}
	refcount_set(&op->ref, 2);	/* the table's and the caller's */
	spin_lock_init(&op->lock);
	smb2_chseq_init(&op->chseq, 0);
	op->replayable = false;
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
	if (err) {
		atomic_dec(&sess->nr_opens);
		smbsrv_budget_uncharge(op->budget);
		op->budget = NULL;
	}
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

void smbsrv_open_chseq_init(struct smbsrv_open *op, u16 seq, bool replayable)
{
	spin_lock(&op->lock);
	smb2_chseq_init(&op->chseq, seq);
	op->replayable = replayable;
	spin_unlock(&op->lock);
}

enum smb2_chseq_verdict smbsrv_open_chseq_admit(struct smbsrv_open *op,
						u16 csn, bool replay)
{
	enum smb2_chseq_verdict v;

	spin_lock(&op->lock);
	v = smb2_chseq_admit(&op->chseq, csn, replay);
	op->replayable = false;
	spin_unlock(&op->lock);
	return v;
}

void smbsrv_open_chseq_done(struct smbsrv_open *op, u16 csn)
{
	spin_lock(&op->lock);
	smb2_chseq_done(&op->chseq, csn);
	spin_unlock(&op->lock);
}
