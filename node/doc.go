// Package node assembles a Cowboy node: the store, the mempool, the block
// executor and the JSON-RPC server, and drives block production.
//
// It owns all I/O of the chain: the home directory and its lock, the
// database, the clock that stamps blocks, goroutines. The packages below it
// (chain/..., mempool) are pure.
//
// Persistence: each block is committed with one atomic store commit holding
// the state writes, the tx index and receipts (authenticated databases) and
// the block itself (raw keys below, all defined in rawkeys.go), so after a crash the node reopens at
// exactly the last committed block.
//
//	raw "blk/h/" || be64(height) -> block hash (32 bytes)
//	raw "blk/b/" || hash         -> block (types.Block CBOR)
//	raw "meta/chain_id"          -> be64(chain id), checked on every open
//
// A devnet also keeps, with the blocks its controls made (dev.go):
//
//	raw "dev/set/" || be64(height) -> the balance change made before the block's transactions
//	raw "dev/clk/" || be64(height) -> be64(clock offset in seconds), when not zero
//	raw "dev/imp/" || tx hash      -> the sender dev_impersonate sent the transaction as
//
// A multi-validator node (Config.Network, validator.go) also keeps:
//
//	raw "meta/genesis_hash"      -> genesis hash (32 bytes), checked on every open
//	raw "sx/hs"                  -> simplex HardState, written synced before sending
//	raw "sx/c/" || be64(height)  -> finalized simplex block and its QC (simplex.EncodeCertified),
//	                                in the same commit as the chain block of that height
//	raw "sx/b/" || simplex hash  -> be64(height)
//	raw "sx/e/" || be64(epoch)   -> proof that the epoch's last block is final
//	raw "sx/a/" || be64(epoch)   -> the epoch root's header and proofs of its registry
//	                                records (certificate.go), written on entering the epoch
//	tx_index  key(KindTxIndex, 0, 0, tx hash) -> CBOR [height, index]
//	tx_receipts key(KindReceipt, 0, 0, tx hash) -> receipt CBOR
package node
