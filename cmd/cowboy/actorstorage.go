package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/rpc"
)

// storageEntryView is one entry of `cowboy actor storage --json`: key and
// value as JSON where they decode (else their hex as a string), and the
// raw hex always.
type storageEntryView struct {
	Namespace uint64          `json:"namespace"`
	Key       json.RawMessage `json:"key"`
	Value     json.RawMessage `json:"value"`
	KeyHex    string          `json:"keyHex"`
	ValueHex  string          `json:"valueHex"`
}

// storageView is `cowboy actor storage --json`.
type storageView struct {
	Entries []storageEntryView `json:"entries"`
	Next    *string            `json:"next"` // pass as --cursor for the rest; null when all were listed
}

// orHex is j, or hex b as a JSON string when j is nil.
func orHex(j json.RawMessage, b rpc.Bytes) json.RawMessage {
	if j != nil {
		return j
	}
	s, _ := json.Marshal(b.String())
	return s
}

func (a *app) actorStorageCmd() *cobra.Command {
	var limit, cursor string
	cmd := &cobra.Command{
		Use:   "storage ADDR",
		Short: "List every entry of an actor's storage",
		Long: `List the storage entries of the actor at ADDR at the latest block
(cowboy_listActorStorage), one "KEY = VALUE" line each, keys and values as
JSON. Entries come in the order the chain keeps them (namespace, then
keccak256 of the key), not the order they were written. Namespace 0 is
self.storage; entries of namespace 1 (a plain class Actor's attributes,
key "__dict__") and 2 (inline blobs, under their multihash) are marked.

All entries are listed unless --limit is given; then, if more follow, the
cursor to pass as --cursor for the rest is printed on stderr (with --json,
as "next").`,
		Example: `  cowboy actor storage 0xADDR
  cowboy actor storage 0xADDR --limit 100 --json`,
		Args: args("ADDR"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return fmt.Errorf("ADDR: %w", err)
			}
			var max uint64
			if err := optUint(&max, "limit", limit); err != nil {
				return err
			}
			if limit != "" && max == 0 {
				return fmt.Errorf("--limit 0: want at least 1 (leave it out to list everything)")
			}
			var cur []byte
			if cursor != "" {
				var b rpc.Bytes
				if err := b.UnmarshalText([]byte(cursor)); err != nil {
					return fmt.Errorf("--cursor: %w", err)
				}
				if _, err := rpc.ParseStorageCursor(b); err != nil {
					return fmt.Errorf("--cursor: %w", err)
				}
				cur = b
			}
			view := storageView{Entries: []storageEntryView{}}
			for {
				page := uint64(rpc.MaxStorageLimit)
				if max != 0 {
					page = min(page, max-uint64(len(view.Entries)))
				}
				res, err := a.client().ListActorStorage(cmd.Context(), addr, cur, page)
				if err != nil {
					return err
				}
				for _, e := range res.Entries {
					key := e.KeyJSON
					if e.Namespace == 1 && utf8.Valid(e.Key) { // "__dict__", a text key
						key, _ = json.Marshal(string(e.Key))
					}
					view.Entries = append(view.Entries, storageEntryView{Namespace: uint64(e.Namespace),
						Key: orHex(key, e.Key), Value: orHex(e.JSON, e.Value), KeyHex: e.Key.String(), ValueHex: e.Value.String()})
				}
				if res.Next == nil {
					break
				}
				cur = *res.Next
				if max != 0 && uint64(len(view.Entries)) >= max {
					next := res.Next.String()
					view.Next = &next
					break
				}
			}
			if a.jsonOut {
				return a.printJSON(view)
			}
			for _, e := range view.Entries {
				mark := ""
				switch e.Namespace {
				case 0:
				case 1:
					mark = "[attributes] "
				case 2:
					mark = "[blob] "
				default:
					mark = "[namespace " + strconv.FormatUint(e.Namespace, 10) + "] "
				}
				fmt.Fprintf(a.stdout, "%s%s = %s\n", mark, e.Key, e.Value)
			}
			if view.Next != nil {
				fmt.Fprintf(a.stderr, "(more entries follow: --cursor %s)\n", *view.Next)
			} else if len(view.Entries) == 0 {
				fmt.Fprintln(a.stderr, "(no storage)")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&limit, "limit", "", "list at most `N` entries")
	cmd.Flags().StringVar(&cursor, "cursor", "", "start after the entry `C` (a cursor printed by --limit)")
	return cmd
}
