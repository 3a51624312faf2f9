package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// quietBackend is the smallest Backend: an empty chain of one block.
type quietBackend struct{ rpc.Backend }

func (quietBackend) ChainID() uint64      { return 7777 }
func (quietBackend) LatestHeight() uint64 { return 0 }
func (quietBackend) Basefees() (uint64, uint64, uint64) {
	return 1, 1, 1
}
func (quietBackend) Receipt(h types.Hash) (*types.Receipt, *rpc.TxLocation, error) {
	return nil, nil, fmt.Errorf("receipt %s: %w", h, rpc.ErrNotFound)
}

// A client asks a node for its chain id and basefees; a receipt that does
// not exist is rpc.ErrNotFound, and an unknown method an *rpc.Error.
func ExampleClient() {
	srv := httptest.NewServer(rpc.NewServer(quietBackend{}, rpc.Options{}))
	defer srv.Close()
	c := rpc.Dial(srv.URL)
	ctx := context.Background()

	id, _ := c.ChainID(ctx)
	fmt.Println("chain id:", id)
	bf, _ := c.Basefees(ctx)
	fmt.Printf("next block %d charges %d per cycle, %d per cell\n", bf.Height, bf.Cycle, bf.Cell)

	_, err := c.Receipt(ctx, types.Hash{1})
	fmt.Println("missing receipt is ErrNotFound:", errors.Is(err, rpc.ErrNotFound))

	var rpcErr *rpc.Error
	err = c.Call(ctx, nil, "cowboy_teleport")
	if errors.As(err, &rpcErr) {
		fmt.Println(rpcErr.Code, rpcErr.Message)
	}
	// Output:
	// chain id: 7777
	// next block 1 charges 1 per cycle, 1 per cell
	// missing receipt is ErrNotFound: true
	// -32601 method "cowboy_teleport" not found
}
