// Package simplex is Cowboy's consensus core (technical-spec-v2 §6.1): a
// Simplex-style BFT protocol with stake-weighted quorums, BLS-aggregated
// quorum certificates and two-chain finality, written as a pure state
// machine in the manner of go.etcd.io/raft.
//
// A Node never does I/O, never reads a clock, never starts a goroutine and
// never lets map iteration order reach its outputs. Everything enters
// through a method (Step for messages, Tick for time, Propose and Verdict
// for the application's answers) and everything that must happen outside
// comes back from Ready: messages to send, a request for a block payload,
// payloads to validate, state to persist, blocks certified and blocks
// finalized. The same inputs in the same order give the same outputs, which
// is what lets the tests run whole clusters on a simulated network from a
// seed.
//
// The voting, locking and finality rules and the safety argument are in
// docs/consensus.md. In short: a validator votes at most once per round, and
// only for a proposal whose justifying certificate is at least as recent as
// its lock; a block is final once its direct child, proposed in the very
// next round, is certified.
//
// The package must never import the network, a clock, a database or the
// node.
package simplex
