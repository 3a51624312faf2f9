package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
)

// receiptKey names a shard on a relay in the receipts file.
func receiptKey(r cbfs.RelayID, h cbfs.ShardHash) string {
	return hex.EncodeToString(r[:]) + ":" + hex.EncodeToString(h[:])
}

// volumeAuditCmd audits every file of a volume, keeps the relays' custody
// receipts in NAME.receipts.json beside the volume file, and with
// --challenge takes the receipt of every shard that failed to the chain
// (Relay Registry "challenge"): the relay must answer or be slashed.
func (a *app) volumeAuditCmd() *cobra.Command {
	var tf txFlags
	var challenge bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:     "audit NAME",
		Example: "  cowboy volume audit logs --from dev0\n  cowboy volume audit logs --challenge --every 1h --from dev0",
		Short:   "Challenge every shard of a volume; keep custody receipts; take failures to the chain",
		Args:    args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, v, err := a.loadVolume(argv[0])
			if err != nil {
				return err
			}
			key, err := a.localKey(tf.from, tf.passFile)
			if err != nil {
				return err
			}
			cl, err := a.openCluster(c, key)
			if err != nil {
				return err
			}
			defer cl.Close()
			dir, err := a.volumesDir()
			if err != nil {
				return err
			}
			file := filepath.Join(dir, c.Name+".receipts.json")
			pass := func() error {
				kept := map[string]string{}
				if b, err := os.ReadFile(file); err == nil {
					if err := json.Unmarshal(b, &kept); err != nil {
						return fmt.Errorf("read %s: %w", file, err)
					}
				} else if !errors.Is(err, os.ErrNotExist) {
					return err
				}
				// One probe a pass marks the relays that are gone down, so
				// their challenges fail at once instead of each waiting
				// out a timeout; the listing needs all relays but M.
				cl.Probe(cmd.Context())
				ents, err := cl.List(cmd.Context(), v)
				if err != nil {
					return err
				}
				var failed, challenged int
				for _, e := range ents {
					m, err := cl.Manifest(cmd.Context(), v, e.Path)
					if err != nil {
						return err
					}
					bad, rcs, err := cl.AuditReceipts(cmd.Context(), v, e.Path, uint64(time.Now().UnixNano()))
					if err != nil {
						return err
					}
					for _, r := range rcs {
						b, err := cbfs.Marshal(r)
						if err != nil {
							return err
						}
						kept[receiptKey(r.Relay, r.Hash)] = hex.EncodeToString(b)
					}
					for _, bs := range bad {
						failed++
						rid, h := m.Segments[bs.Segment].Relays[bs.Shard], m.Segments[bs.Segment].Hashes[bs.Shard]
						fmt.Fprintf(a.stdout, "%s segment %d shard %d on 0x%x: %v\n", e.Path, bs.Segment, bs.Shard, rid, bs.Err)
						rc, ok := kept[receiptKey(rid, h)]
						if !challenge || !ok {
							continue
						}
						rb, _ := hex.DecodeString(rc)
						to := storage.RegistryAddress
						storageCycles(&tf)
						_, rcpt, err := a.sendTx(cmd.Context(), &tf, &to, nil, storage.Payload("challenge", rb), nil)
						if err == nil && rcpt != nil {
							err = failedErr(rcpt)
						}
						if err != nil {
							fmt.Fprintf(a.stdout, "  challenge on chain failed: %v\n", err)
							continue
						}
						challenged++
						fmt.Fprintf(a.stdout, "  challenged on chain with its custody receipt\n")
					}
				}
				b, err := json.MarshalIndent(kept, "", " ")
				if err != nil {
					return err
				}
				if err := os.WriteFile(file, b, 0o600); err != nil {
					return fmt.Errorf("write %s: %w", file, err)
				}
				fmt.Fprintf(a.stdout, "%d files audited, %d shards failed, %d challenged; %d custody receipts kept\n", len(ents), failed, challenged, len(kept))
				return nil
			}
			if every <= 0 {
				return pass()
			}
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				if err := pass(); err != nil {
					fmt.Fprintf(a.stderr, "audit pass: %v\n", err)
				}
				select {
				case <-cmd.Context().Done():
					return nil
				case <-t.C:
				}
			}
		},
	}
	tf.register(cmd.Flags())
	cmd.Flags().BoolVar(&challenge, "challenge", false, "send a 0x0B challenge with the kept custody receipt of every shard that fails")
	cmd.Flags().DurationVar(&every, "every", 0, "audit again each `INTERVAL` until Ctrl-C")
	return cmd
}
