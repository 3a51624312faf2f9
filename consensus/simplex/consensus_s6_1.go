package simplex

import "github.com/cowboy-chain/cowboy/chain/types"

// Constants of the consensus protocol (technical-spec-v2 §6.1, §13
// "Consensus"). Changing any of them forks the chain.

// Domain tags of the signed messages. A vote is signed over exactly
// block_hash || height || round (48 bytes, §6.1); every other signed
// message starts with one of these tags and has a different length, so no
// signature can be replayed as another kind of message.
const (
	// tagNewView prefixes the NEW_VIEW statement "I give up round r".
	tagNewView = "cowboy/simplex/newview/v1"
	// tagLeader prefixes the per-round proposer draw from the epoch seed.
	tagLeader = "cowboy/simplex/leader/v1"
	// tagBeacon prefixes σ when it is hashed into the block randomness R.
	tagBeacon = "cowboy/beacon/v1"
)

// Quorum rules (§6.1: fault tolerance f < n/3 by stake; "2f+1").
const (
	// quorumNum/quorumDen: a certificate needs signers holding strictly
	// more than 2/3 of the total stake.
	quorumNum = 2
	quorumDen = 3
)

// Sizes of the encoded pieces, in bytes.
const (
	// VoteMessageSize is len(block_hash || height || round).
	VoteMessageSize = types.VoteMessageSize
)

// MaxFetchBlocks is the most blocks one FETCH may ask for and one BLOCK
// reply may carry: a node that fell behind pulls the chain it missed in
// batches of this many.
const MaxFetchBlocks = 64

// Defaults of Config, in ticks. The node decides how long a tick is; at the
// spec's 1 s block time (§13) a tick of 100 ms gives a 2 s round timeout.
const (
	// DefaultTimeoutTicks is how long a round may go without a certificate
	// before the node sends NEW_VIEW.
	DefaultTimeoutTicks = 20
	// DefaultMaxRoundsAhead bounds how far beyond the current round votes
	// and proposals are buffered, so a peer cannot make a node store
	// messages for arbitrarily many future rounds.
	DefaultMaxRoundsAhead = 16
	// DefaultKeepFinalized is how many finalized blocks below the newest
	// one stay in memory to answer FETCH from peers that fell behind.
	DefaultKeepFinalized = 256
	// UnreachableGraceTicks is how long a round whose leader is reported
	// unreachable still waits for its proposal (LeaderUnreachable).
	UnreachableGraceTicks = 3
)
