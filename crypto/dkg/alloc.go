package dkg

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
)

// MaxShares bounds the number of shares an epoch's key is split into: every
// share costs each dealer one encrypted scalar and each voter one partial
// signature per block.
const MaxShares = 1024

// Allocation maps stake weight to shares of the group key.
//
// Member i holds Shares[i], a run of consecutive share indices (1-based,
// in member order); there are Total shares and any Threshold of them
// interpolate the group secret. The numbers are chosen so that:
//
//   - every quorum (members holding strictly more than 2/3 of the stake,
//     Simplex's certificate rule) holds at least Threshold shares, exactly:
//     Threshold = Total − M, where M is the most shares any set holding less
//     than 1/3 of the stake can have (a knapsack over the allocation), and a
//     quorum's complement is such a set;
//   - no set holding less than 1/3 of the stake (the Byzantine bound) holds
//     Threshold shares (Threshold > M);
//   - as far as rounding allows, a set that is not a quorum holds fewer than
//     Threshold shares (NonQuorumMax < Threshold when Exact is true).
//
// Shares are apportioned by largest remainder on stake·Total/total_stake
// (ties to the lower index), trying Total = n, 2n and 4n (at most
// MaxShares) and keeping the first that is Exact, otherwise the smallest
// that keeps the Byzantine bound: every share costs a partial signature
// per vote, so precision is bought only up to 4 shares per member.
type Allocation struct {
	Shares    [][]uint64
	Total     int
	Threshold int
	// NonQuorumMax is the most shares a set with at most 2/3 of the stake
	// holds; Exact reports NonQuorumMax < Threshold, so that reaching the
	// threshold takes a quorum by stake, not just by share count.
	NonQuorumMax int
	Exact        bool
}

// Allocate computes the allocation for members with these stakes (in
// member index order); every stake must be positive.
func Allocate(stakes []uint64) (*Allocation, error) {
	n := len(stakes)
	if n == 0 {
		return nil, errors.New("allocate shares: no members")
	}
	total := new(big.Int)
	for i, s := range stakes {
		if s == 0 {
			return nil, fmt.Errorf("allocate shares: member %d has no stake", i)
		}
		total.Add(total, new(big.Int).SetUint64(s))
	}
	var best *Allocation
	for S := n; S <= 4*n && (S <= MaxShares || S == n); S *= 2 {
		counts := apportion(stakes, total, S)
		m, nq := knapsackBounds(stakes, counts, total, S)
		a := &Allocation{Total: S, Threshold: S - m, NonQuorumMax: nq}
		a.Exact = nq < a.Threshold
		if a.Threshold <= m {
			continue
		}
		a.Shares = indices(counts)
		if best == nil {
			best = a
		}
		if a.Exact {
			best = a
			break
		}
	}
	if best == nil {
		return nil, fmt.Errorf("allocate shares: no share count up to %d keeps a set under 1/3 of the stake below the threshold", MaxShares)
	}
	return best, nil
}

// apportion is the largest-remainder split of S shares by stake.
func apportion(stakes []uint64, total *big.Int, S int) []int {
	type rem struct {
		i int
		r *big.Int
	}
	counts := make([]int, len(stakes))
	rems := make([]rem, len(stakes))
	given := 0
	for i, s := range stakes {
		q, r := new(big.Int).QuoRem(new(big.Int).Mul(new(big.Int).SetUint64(s), big.NewInt(int64(S))), total, new(big.Int))
		counts[i] = int(q.Int64())
		given += counts[i]
		rems[i] = rem{i, r}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r.Cmp(rems[b].r) > 0 })
	for k := 0; given < S; k++ {
		counts[rems[k].i]++
		given++
	}
	return counts
}

// knapsackBounds returns M, the most shares of a set holding strictly less
// than 1/3 of the stake, and NQ, the most shares of a set holding at most
// 2/3 (not a quorum): minStake[s] is the least stake of a set with exactly
// s shares.
func knapsackBounds(stakes []uint64, counts []int, total *big.Int, S int) (m, nq int) {
	minStake := make([]*big.Int, S+1)
	minStake[0] = new(big.Int)
	for i, c := range counts {
		if c == 0 {
			continue
		}
		st := new(big.Int).SetUint64(stakes[i])
		for s := S; s >= c; s-- {
			if minStake[s-c] == nil {
				continue
			}
			cand := new(big.Int).Add(minStake[s-c], st)
			if minStake[s] == nil || cand.Cmp(minStake[s]) < 0 {
				minStake[s] = cand
			}
		}
	}
	twoTotal := new(big.Int).Lsh(total, 1)
	for s, v := range minStake {
		if v == nil {
			continue
		}
		three := new(big.Int).Mul(v, big.NewInt(3))
		if three.Cmp(total) < 0 {
			m = s
		}
		if three.Cmp(twoTotal) <= 0 {
			nq = s
		}
	}
	return m, nq
}

func indices(counts []int) [][]uint64 {
	out := make([][]uint64, len(counts))
	next := uint64(1)
	for i, c := range counts {
		for k := 0; k < c; k++ {
			out[i] = append(out[i], next)
			next++
		}
	}
	return out
}

// Owner returns the member holding share index x, or −1.
func (a *Allocation) Owner(x uint64) int {
	for i, xs := range a.Shares {
		if len(xs) > 0 && x >= xs[0] && x <= xs[len(xs)-1] {
			return i
		}
	}
	return -1
}
