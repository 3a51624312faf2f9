// Package timers is Cowboy's native timer scheduler (v2 "Native Timers and
// the Actor Scheduler", §3.3, scheduler-dos-protection): the three-tier
// calendar queue, the anti-DoS charges of scheduling, and the Gas Bidding
// Agent (GBA) auction that orders due timers inside the timer lane budget.
//
// Every record lives in the authenticated state (kind 0x04 keys, written
// through chain/state), so the queue is in the state root, provable with
// `cowboy state proof`, and survives a crash with the block that wrote it.
//
// The queue has three tiers, chosen by how far ahead a timer is due when it
// is enqueued at block h (epoch E = h / 256):
//
//	Tier 1  ring of 256 slots, slot = due mod 256, for due epochs E and E+1
//	Tier 2  epoch buckets of 256 blocks, for due epochs E+2 … E+257
//	Tier 3  overflow set keyed by epoch, for everything further
//
// Enqueue is O(1) records in every tier (the overflow set is ordered by
// epoch through its keys; the authenticated tree insert is O(log n)).
// Maintenance at block h moves ceil(remaining / blocks left in the epoch)
// entries of bucket E+1 into the ring and of overflow epoch E+257 into its
// bucket, so the work per block is the size of one epoch's arrivals spread
// over 256 blocks, independent of how many timers are pending in total.
//
// Delivery (the "Deliver Timers" step of the state transition) is split in
// two: Due collects the candidates of a block (this height's ring slot
// behind the backlog of rolled-over timers, at most MaxDueScan of them), the
// executor bids, orders (Order) and runs them, and Settle re-queues what
// did not run. The package never runs Python and never reads a clock: it is
// state in, decisions out.
package timers
