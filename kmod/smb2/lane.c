// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: a connection's lane, where work that a client's state causes
 * but nobody's request is waiting on runs one item at a time: the break
 * notifications it is sent, its CREATEs run again once the breaks they
 * waited for were answered.  One work per connection drains the lane, an
 * item per run, then queues itself again behind everything else:
 * a thousand breaks timing out at once for one client cost that client's
 * lane the time to run them, while every other connection's requests
 * are interleaved with them, not queued behind them.
 */
#include <linux/workqueue.h>

#include "../conn.h"
#include "../sched.h"
#include "smb2.h"

/*
 * Items a lane runs before it queues itself again: one, so that a request
 * of another client waits for at most one item per busy lane.
 */
#define SMBSRV_LANE_BATCH	1

static void smbsrv_lane_work(struct work_struct *work)
{
	struct smbsrv_conn *conn = container_of(work, struct smbsrv_conn,
						lane_work);
	struct smbsrv_lane_item *it;
	unsigned int n;

	for (n = 0; n < SMBSRV_LANE_BATCH; n++) {
		spin_lock(&conn->lock);
		it = list_first_entry_or_null(&conn->lane,
					      struct smbsrv_lane_item, node);
		if (!it) {
			conn->lane_busy = false;
			spin_unlock(&conn->lock);
			/* The reference the lane's first item took. */
			smbsrv_conn_put(conn);
			return;
		}
		list_del_init(&it->node);
		spin_unlock(&conn->lock);
		it->run(it);		/* may free it */
	}
	smbsrv_sched_other(&conn->lane_work);
}

void smbsrv_lane_add(struct smbsrv_conn *conn, struct smbsrv_lane_item *it)
{
	bool start;

	spin_lock(&conn->lock);
	list_add_tail(&it->node, &conn->lane);
	start = !conn->lane_busy;
	conn->lane_busy = true;
	spin_unlock(&conn->lock);
	if (start) {
		smbsrv_conn_get(conn);
		smbsrv_sched_other(&conn->lane_work);
	}
}

void smbsrv_lane_init(struct smbsrv_conn *conn)
{
	INIT_LIST_HEAD(&conn->lane);
	INIT_WORK(&conn->lane_work, smbsrv_lane_work);
}
