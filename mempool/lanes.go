package mempool

import "github.com/cowboy-chain/cowboy/chain/fees"

// laneSelect is Select's share of the §17.9 lanes (§6.4: "within each
// lane, proposers select transactions by highest effective fee up to lane
// capacity"). A transaction of a reserved lane (system, runner) ranks ahead
// of every user transaction while the cycle limits selected from its lane
// fit the lane's budget, so a flood of user transactions with higher tips
// cannot crowd it out of a block's count bound; past the budget it competes
// with the user lane by fee. The proposer does not execute (execute after
// finality), so it counts limits; execution.Build meters what is used and
// defers what does not fit.
type laneSelect struct {
	used [fees.LaneUser + 1]uint64
}

// Ranks of a heap item: reservedRank goes before userRank.
const (
	reservedRank uint8 = 0
	userRank     uint8 = 1
)

func (s *laneSelect) fits(e *entry) bool {
	return e.lane != fees.LaneUser && e.tx.CyclesLimit <= fees.LaneCycleBudget[e.lane]-s.used[e.lane]
}

func (s *laneSelect) rank(e *entry) uint8 {
	if s.fits(e) {
		return reservedRank
	}
	return userRank
}

// take reports whether the best item it can leave the heap now, charging
// its lane; an item ranked reserved whose lane filled since it was ranked
// is re-ranked as user and stays.
func (s *laneSelect) take(it *heapItem) bool {
	if it.rank != reservedRank {
		return true
	}
	if !s.fits(it.e) {
		it.rank = userRank
		return false
	}
	s.used[it.e.lane] += it.e.tx.CyclesLimit
	return true
}
