// Command cowboy is the user's command line for a Cowboy chain: it keeps
// account keys in an encrypted keystore, signs and sends transfers, and
// reads balances, transactions, blocks and basefees from a node over
// JSON-RPC (--rpc, $COWBOY_RPC, default http://127.0.0.1:8645).
//
//	cowboy keys new|list|show|import|export
//	cowboy balance WHO
//	cowboy transfer --from K --to WHO --value V
//	cowboy tx get HASH
//	cowboy block [N|latest]
//	cowboy fees
//
// docs/cli.md documents every command. This package is wiring: amounts are
// parsed in chain/types, keys kept in keystore, the node spoken to through
// rpc.Client.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, newApp(os.Stdin, os.Stdout, os.Stderr), os.Args[1:])
	stop()
	os.Exit(code)
}
