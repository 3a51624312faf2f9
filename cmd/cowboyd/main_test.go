package main

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
)

func TestDevnetFlagsAndErrors(t *testing.T) {
	busy := t.TempDir()
	n, err := node.Open(node.Config{Home: busy, Genesis: genesis.Devnet(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"help explains the dev accounts", []string{"devnet", "--help"}, "test test test test test test test test test test test junk"},
		{"negative block time", []string{"devnet", "--home", t.TempDir(), "--block-time", "-1s"}, "--block-time must not be negative"},
		{"bad log level", []string{"devnet", "--home", t.TempDir(), "--log-level", "loud"}, "--log-level"},
		{"no provable heights", []string{"devnet", "--home", t.TempDir(), "--retain-heights", "0"}, "--retain-heights 0: must be at least 1"},
		{"home in use", []string{"devnet", "--home", busy, "--rpc", "127.0.0.1:0"}, "home directory is in use"},
		{"unknown command", []string{"mainnet"}, "unknown command"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		root := newRoot(&out, &errb)
		root.SetArgs(tt.args)
		err := root.Execute()
		got := out.String() + errb.String()
		if err != nil {
			got += err.Error()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: output %q does not mention %q", tt.name, got, tt.want)
		}
	}
	// The busy home still works for its owner.
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
}
