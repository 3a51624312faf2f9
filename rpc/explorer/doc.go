// Package explorer is the block explorer every node serves at its RPC
// address (docs/explorer.md): blocks, transactions with their receipts and
// message trees, actors with their source, events and timers, validators,
// the two basefees as charts, search, and new blocks live over the node's
// WebSocket.
//
// Pages are rendered on the server with html/template from the node's
// rpc.Backend (and the optional interfaces it implements), embedded with
// embed: there is no build step and no script from elsewhere. The one
// script, static/app.js, only adds live heads. Every answer carries a
// Content-Security-Policy that allows nothing but this origin.
//
// The explorer only reads: it never sends a transaction or changes the
// node, and a bad path or query is a 400 or 404 page, never a crash.
package explorer
