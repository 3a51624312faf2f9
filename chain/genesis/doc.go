// Package genesis describes the first state of a chain: its chain id, the
// funded accounts and the genesis basefees. The devnet's genesis is fixed
// and documented (docs/devnet.md) so every developer's devnet starts equal.
package genesis
