// Package rpc is Cowboy's JSON-RPC 2.0 interface over HTTP: the server that
// a node mounts, the Backend interface the node implements for it, the JSON
// shapes of blocks, transactions and receipts, and the typed Client that the
// cowboy CLI and the tests use. docs/rpc.md documents every method.
//
// Numbers follow Ethereum's JSON-RPC (spec/README.md "JSON-RPC numbers"):
// quantities are 0x-prefixed hex without leading zeros, byte strings are
// 0x-prefixed hex, addresses are printed with the EIP-55 checksum.
//
// rpc must never import node: the node imports rpc and implements Backend.
// The server holds no chain state of its own; every answer comes from the
// Backend, so the server can be tested against an in-memory fake.
package rpc
