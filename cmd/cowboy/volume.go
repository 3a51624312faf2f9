package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// envVolumes names the directory of local volume configurations.
const envVolumes = "COWBOY_VOLUMES"

// envRelays names the default relay list file for `volume create|open`.
const envRelays = "COWBOY_RELAYS"

// volumeConfig is what this machine knows of one volume: its identity, its
// secret key (so the file is written 0600), the erasure shape, the relays
// and, for a grantee, the token it was given.
type volumeConfig struct {
	Name     string              `json:"name"`
	Owner    string              `json:"owner"`
	ID       string              `json:"id"`
	Key      string              `json:"key"`
	K        int                 `json:"k"`
	M        int                 `json:"m"`
	SegSize  int                 `json:"segment_size"`
	Relays   []cluster.RelayInfo `json:"relays"`
	Token    string              `json:"token,omitempty"`
	Holder   string              `json:"holder,omitempty"`
	TokenExp uint64              `json:"token_expiry,omitempty"`
}

func (a *app) volumesDir() (string, error) {
	if d := os.Getenv(envVolumes); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the home directory for ~/.cowboy/volumes: %w (set $%s)", err, envVolumes)
	}
	return filepath.Join(home, ".cowboy", "volumes"), nil
}

func (a *app) loadVolume(name string) (*volumeConfig, *cbfs.Volume, error) {
	if err := cbfs.ValidVolumeName(name); err != nil {
		return nil, nil, err
	}
	dir, err := a.volumesDir()
	if err != nil {
		return nil, nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("no volume %q in %s: create it with `cowboy volume create %s`, or `cowboy volume open` a shared one", name, dir, name)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read volume %q: %w", name, err)
	}
	var c volumeConfig
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, nil, fmt.Errorf("volume %q: %w", name, err)
	}
	id, err := cbfs.ParseVolumeID(c.ID)
	if err != nil {
		return nil, nil, err
	}
	kb, err := hex.DecodeString(c.Key)
	if err != nil || len(kb) != 32 {
		return nil, nil, fmt.Errorf("volume %q: bad key", name)
	}
	v := &cbfs.Volume{ID: id}
	copy(v.Key[:], kb)
	return &c, v, nil
}

func (a *app) saveVolume(c *volumeConfig, overwrite bool) (string, error) {
	dir, err := a.volumesDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, c.Name+".json")
	if _, err := os.Stat(path); err == nil && !overwrite {
		return "", fmt.Errorf("volume %q already exists in %s", c.Name, dir)
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, os.Rename(tmp, path)
}

// localKey finds --from without a node: a dev account (dev0…dev9, whose
// keys are public: fine on a devnet's local relays, never elsewhere) or a
// keystore key (passphrase asked).
func (a *app) localKey(from, passFile string) (*crypto.PrivateKey, error) {
	if from == "" {
		return nil, errors.New("--from KEY is required: a keystore key name, an address in the keystore, or dev0…dev9 on a devnet")
	}
	if i, ok := devIndex(from); ok {
		return genesis.DevKey(i)
	}
	ks, err := a.keystore()
	if err != nil {
		return nil, err
	}
	name := from
	if strings.HasPrefix(from, "0x") || strings.HasPrefix(from, "0X") {
		addr, err := types.ParseAddress(from)
		if err != nil {
			return nil, err
		}
		if name, err = findByAddress(ks, addr); err != nil {
			return nil, err
		}
	} else if _, err := ks.Show(name); err != nil {
		return nil, err
	}
	pass, err := a.passphrase(passFile, name, false)
	if err != nil {
		return nil, err
	}
	return ks.Load(name, pass)
}

// sessionTTL is the life of the token an owner issues itself per command.
const sessionTTL = time.Hour

// openCluster connects to the volume's relays as key: the owner with a
// fresh self-issued token, a grantee with the token it was given.
// openVolume is what every reading or writing volume command does first:
// load the volume's local config, unlock the caller's key and connect to
// the volume's relays. The caller closes the cluster.
func (a *app) openVolume(name string, kf keyFlags) (*volumeConfig, *cbfs.Volume, *cluster.Cluster, error) {
	c, v, err := a.loadVolume(name)
	if err != nil {
		return nil, nil, nil, err
	}
	key, err := a.localKey(kf.from, kf.passFile)
	if err != nil {
		return nil, nil, nil, err
	}
	cl, err := a.openCluster(c, key)
	if err != nil {
		return nil, nil, nil, err
	}
	return c, v, cl, nil
}

func (a *app) openCluster(c *volumeConfig, key *crypto.PrivateKey) (*cluster.Cluster, error) {
	var tok *cbfs.Token
	owner := fmt.Sprintf("0x%x", key.Address())
	if strings.EqualFold(owner, c.Owner) {
		var nonce [8]byte
		t, err := cbfs.Grant(key, c.Name, nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(sessionTTL).Unix()), key.Address(), nonce)
		if err != nil {
			return nil, err
		}
		tok = t
	} else {
		if c.Token == "" {
			return nil, fmt.Errorf("%s is not the owner of volume %q (%s) and the volume has no token for it", owner, c.Name, c.Owner)
		}
		t, err := cbfs.ParseToken(c.Token)
		if err != nil {
			return nil, err
		}
		tok = t
	}
	cl, err := cluster.New(c.Relays, key, tok)
	if err != nil {
		return nil, err
	}
	// Listings, and repair's probe, answer once all relays but M have: a
	// relay that died without closing its connection holds nothing up.
	cl.Tolerate = c.M
	return cl, nil
}

func (a *app) relayList(file string) ([]cluster.RelayInfo, error) {
	if file == "" {
		file = os.Getenv(envRelays)
	}
	if file == "" {
		return nil, fmt.Errorf("--relays FILE is required (or $%s): a list of 0xID@ip:port lines, as `cowboyd devnet --relays N` writes, or \"chain\" for the Relay Registry", envRelays)
	}
	if file == relaysFromChain {
		return a.chainRelays()
	}
	return cluster.LoadRelays(file)
}

// relaysFromChain as --relays reads the relay list from the Relay Registry
// 0x0B (cowboy_getRelays) instead of a file.
const relaysFromChain = "chain"

// chainRelays is the registry's relays that are not exiting, in its order.
func (a *app) chainRelays() ([]cluster.RelayInfo, error) {
	rs, err := a.client().Relays(context.Background())
	if err != nil {
		return nil, fmt.Errorf("read the relay registry (0x0B): %w", err)
	}
	var out []cluster.RelayInfo
	for _, r := range rs {
		if !r.Exiting {
			out = append(out, cluster.RelayInfo{ID: cbfs.RelayID(r.Address), Addr: r.Addr})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the relay registry (0x0B) has no active relay: register one with `cowboy relay register`")
	}
	return out, nil
}

func (a *app) volumeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "volume",
		Example: "  cowboy volume create logs --from dev0\n  cowboy volume put logs ./audit.jsonl --from dev0",
		Short:   "Encrypted, erasure-coded storage volumes on CBFS relays",
		Long: `A volume is a set of files kept encrypted on CBFS relays: each file is cut
into segments, sealed with AES-256-GCM under keys derived from the volume
key, and spread as K data + M parity shards over distinct relays, so any K
of them rebuild it. Relays never see file contents or names.

The volume key and settings live in ~/.cowboy/volumes/NAME.json (or
$` + envVolumes + `), readable only by you. See docs/cbfs.md.`,
	}
	cmd.AddCommand(a.volumeCreateCmd(), a.volumeOpenCmd(), a.volumePutCmd(), a.volumeGetCmd(), a.volumeLsCmd(),
		a.volumeRmCmd(), a.volumeMvCmd(), a.volumeGrantCmd(), a.volumeRevokeCmd(), a.volumeRepairCmd(), a.volumeMountCmd(), a.volumeAuditCmd())
	return cmd
}

type keyFlags struct{ from, passFile string }

func (f *keyFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.from, "from", "", "your key: keystore name or address, or dev0…dev9 on a devnet")
	cmd.Flags().StringVar(&f.passFile, "password-file", "", "read the key's passphrase from `FILE`")
}

func (a *app) volumeCreateCmd() *cobra.Command {
	var tf txFlags
	var k, m int
	var seg, relays, deposit string
	cmd := &cobra.Command{
		Use:     "create NAME",
		Example: "  cowboy volume create logs --k 4 --m 2 --from dev0\n  cowboy volume create logs --from dev0 --deposit 1cby --relays ~/.cowboy/devnet/relays.txt",
		Short:   "Create a volume: a fresh volume key, its shape and its relays",
		Args:    args("NAME"),
		RunE: func(cmd *cobra.Command, as []string) error {
			name := as[0]
			if err := cbfs.ValidVolumeName(name); err != nil {
				return err
			}
			segSize, err := parseByteSize(seg)
			if err != nil {
				return err
			}
			p := cbfs.Params{K: k, M: m, SegmentSize: int(segSize)}
			if err := p.Validate(); err != nil {
				return err
			}
			rs, err := a.relayList(relays)
			if err != nil {
				return err
			}
			if len(rs) < k+m {
				return fmt.Errorf("k+m = %d shards need at least as many relays, the list has %d", k+m, len(rs))
			}
			key, err := a.localKey(tf.from, tf.passFile)
			if err != nil {
				return err
			}
			var dep *big.Int
			if deposit != "" {
				if dep, err = parseValue(deposit); err != nil {
					return err
				}
			}
			vk, err := cbfs.NewVolumeKey()
			if err != nil {
				return err
			}
			id := cbfs.DeriveVolumeID(key.Address(), name)
			c := &volumeConfig{Name: name, Owner: fmt.Sprintf("0x%x", key.Address()), ID: id.String(), Key: hex.EncodeToString(vk[:]),
				K: k, M: m, SegSize: int(segSize), Relays: rs}
			dir, err := a.volumesDir()
			if err != nil {
				return err
			}
			if _, err := os.Stat(filepath.Join(dir, name+".json")); err == nil {
				return fmt.Errorf("volume %q already exists in %s", name, dir)
			}
			if dep != nil {
				// Register on chain first (§9 0x0A): a volume the chain
				// refuses is not kept locally either.
				to := storage.ManagerAddress
				storageCycles(&tf)
				_, rc, err := a.sendTx(cmd.Context(), &tf, &to, dep, storage.Payload("create_volume", name, uint64(k), uint64(m)), nil)
				if err != nil {
					return err
				}
				if rc != nil {
					if err := failedErr(rc); err != nil {
						return err
					}
				}
			}
			path, err := a.saveVolume(c, false)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(map[string]any{"name": name, "id": c.ID, "owner": c.Owner, "k": k, "m": m, "config": path, "on_chain": dep != nil})
			}
			if dep != nil {
				fmt.Fprintf(a.stdout, "registered on chain with 0x0A (deposit %s base units)\n", dep)
			}
			fmt.Fprintf(a.stdout, "volume %s created\n  id      %s\n  owner   %s\n  shape   k=%d m=%d, %d-byte segments, %d relays\n  config  %s (holds the volume key: keep it safe)\n",
				name, c.ID, c.Owner, k, m, segSize, len(rs), path)
			return nil
		},
	}
	tf.register(cmd.Flags())
	cmd.Flags().StringVar(&deposit, "deposit", "", "register the volume on chain (Storage Manager 0x0A) with this prepaid rent, e.g. 1cby; without it the volume is local only")
	cmd.Flags().IntVar(&k, "k", 4, "data shards per segment: any K shards rebuild it")
	cmd.Flags().IntVar(&m, "m", 2, "parity shards per segment: up to M relays may be lost")
	cmd.Flags().StringVar(&seg, "segment-size", "8MiB", "plaintext bytes per segment")
	cmd.Flags().StringVar(&relays, "relays", "", "relay list `FILE` (default $"+envRelays+"), or \"chain\": the Relay Registry 0x0B")
	return cmd
}

func (a *app) volumeOpenCmd() *cobra.Command {
	var key, tok, relays string
	var k, m int
	var seg string
	cmd := &cobra.Command{
		Use:     "open NAME",
		Example: "  cowboy volume open logs --token cbfs1.… --key 3fa0… --relays relays.txt",
		Short:   "Use a volume someone shared with you (their token and volume key)",
		Args:    args("NAME"),
		RunE: func(cmd *cobra.Command, as []string) error {
			name := as[0]
			t, err := cbfs.ParseToken(tok)
			if err != nil {
				return err
			}
			if t.Name != name {
				return fmt.Errorf("the token is for volume %q, not %q", t.Name, name)
			}
			kb, err := hex.DecodeString(strings.TrimPrefix(key, "0x"))
			if err != nil || len(kb) != 32 {
				return errors.New("--key must be the 32-byte volume key in hex")
			}
			rs, err := a.relayList(relays)
			if err != nil {
				return err
			}
			segSize, err := parseByteSize(seg)
			if err != nil {
				return err
			}
			last := t.Links[len(t.Links)-1]
			c := &volumeConfig{Name: name, Owner: fmt.Sprintf("0x%x", t.Owner), ID: cbfs.DeriveVolumeID(t.Owner, name).String(),
				Key: hex.EncodeToString(kb), K: k, M: m, SegSize: int(segSize), Relays: rs, Token: tok,
				Holder: fmt.Sprintf("0x%x", last.Holder), TokenExp: last.Expiry}
			path, err := a.saveVolume(c, true)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "volume %s of %s opened (token valid until %s) in %s\n", name, c.Owner, time.Unix(int64(last.Expiry), 0).UTC().Format(time.RFC3339), path)
			return nil
		},
	}
	cmd.Flags().StringVar(&tok, "token", "", "the capability token you were given (cbfs1.…)")
	cmd.Flags().StringVar(&key, "key", "", "the volume key in hex, from the owner")
	cmd.Flags().StringVar(&relays, "relays", "", "relay list `FILE` (default $"+envRelays+"), or \"chain\": the Relay Registry 0x0B")
	cmd.Flags().IntVar(&k, "k", 4, "data shards per segment for files you write")
	cmd.Flags().IntVar(&m, "m", 2, "parity shards per segment for files you write")
	cmd.Flags().StringVar(&seg, "segment-size", "8MiB", "plaintext bytes per segment for files you write")
	cmd.MarkFlagRequired("token")
	cmd.MarkFlagRequired("key")
	return cmd
}

func (a *app) bar(total int64, what string) *progressbar.ProgressBar {
	if a.jsonOut {
		return nil
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(a.stderr) }),
		progressbar.OptionSetWidth(30))
}

func progressOf(b *progressbar.ProgressBar) cluster.Progress {
	if b == nil {
		return nil
	}
	return func(done int64) { b.Set64(done) }
}

func (a *app) volumePutCmd() *cobra.Command {
	var tf txFlags
	var as string
	var commit bool
	cmd := &cobra.Command{
		Use:     "put NAME FILE",
		Example: "  cowboy volume put logs ./audit.jsonl --from dev0\n  cowboy volume put logs ./q3.jsonl --as reports/q3.jsonl --from dev0 --commit",
		Short:   "Encrypt, erasure-code and upload a file (FILE - reads stdin)",
		Args:    args("NAME", "FILE"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, v, err := a.loadVolume(argv[0])
			if err != nil {
				return err
			}
			var r io.Reader
			var size int64 = -1
			path := as
			if argv[1] == "-" {
				r = a.stdin
				if path == "" {
					return errors.New("reading stdin needs --as PATH")
				}
			} else {
				f, err := os.Open(argv[1])
				if err != nil {
					return err
				}
				defer f.Close()
				if st, err := f.Stat(); err == nil {
					size = st.Size()
				}
				r = f
				if path == "" {
					path = filepath.Base(argv[1])
				}
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
			b := a.bar(size, "put "+path)
			m, err := cl.Put(cmd.Context(), v, path, cbfs.Params{K: c.K, M: c.M, SegmentSize: c.SegSize}, r, progressOf(b))
			if b != nil {
				b.Finish()
			}
			if err != nil {
				return err
			}
			com := m.Commitment()
			if commit {
				tags, _ := v.PathTags(m.Path)
				pid := tags[len(tags)-1]
				to := storage.ManagerAddress
				storageCycles(&tf)
				_, rc, err := a.sendTx(cmd.Context(), &tf, &to, nil, storage.Payload("commit", v.ID[:], pid[:], com.Bytes()), nil)
				if err != nil {
					return fmt.Errorf("stored, but the commitment was not recorded on chain: %w", err)
				}
				if rc != nil {
					if err := failedErr(rc); err != nil {
						return fmt.Errorf("stored, but the commitment was not recorded on chain: %w", err)
					}
				}
			}
			if a.jsonOut {
				return a.printJSON(map[string]any{"path": m.Path, "size": m.Size, "segments": len(m.Segments), "commitment": "0x" + hex.EncodeToString(com.Bytes())})
			}
			fmt.Fprintf(a.stdout, "stored %s: %d bytes in %d segments (k=%d m=%d)\ncommitment 0x%x\n", m.Path, m.Size, len(m.Segments), m.K, m.M, com.Bytes())
			return nil
		},
	}
	tf.register(cmd.Flags())
	cmd.Flags().StringVar(&as, "as", "", "path in the volume (default: the file's base name)")
	cmd.Flags().BoolVar(&commit, "commit", false, "also record the file's 64-byte StorageCommitment on chain (0x0A; the volume must be registered)")
	return cmd
}

func (a *app) volumeGetCmd() *cobra.Command {
	var kf keyFlags
	var out string
	cmd := &cobra.Command{
		Use:     "get NAME PATH",
		Example: "  cowboy volume get logs audit.jsonl -o out.jsonl --from dev0",
		Short:   "Download, verify and decrypt a file (-o FILE, default stdout)",
		Args:    args("NAME", "PATH"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			_, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			m, err := cl.Manifest(cmd.Context(), v, argv[1])
			if err != nil {
				return err
			}
			var w io.Writer = a.stdout
			var f *os.File
			if out != "" && out != "-" {
				// Write beside the target and rename, so a failed read
				// never leaves a partial file under the final name.
				f, err = os.CreateTemp(filepath.Dir(out), ".cbfs-get-*")
				if err != nil {
					return err
				}
				defer os.Remove(f.Name())
				defer f.Close()
				w = f
			}
			var b *progressbar.ProgressBar
			if f != nil {
				b = a.bar(int64(m.Size), "get "+m.Path)
			}
			_, err = cl.Get(cmd.Context(), v, argv[1], w, progressOf(b))
			if b != nil {
				b.Finish()
			}
			if err != nil {
				return err
			}
			if f != nil {
				if err := f.Close(); err != nil {
					return err
				}
				if err := os.Rename(f.Name(), out); err != nil {
					return err
				}
				if !a.jsonOut {
					fmt.Fprintf(a.stdout, "wrote %s (%d bytes, every shard verified)\n", out, m.Size)
				}
			}
			return nil
		},
	}
	kf.add(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to `FILE` instead of stdout")
	return cmd
}

func (a *app) volumeLsCmd() *cobra.Command {
	var kf keyFlags
	cmd := &cobra.Command{
		Use:     "ls NAME",
		Example: "  cowboy volume ls logs --from dev0",
		Short:   "List the files of a volume you can read",
		Args:    args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			_, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			ents, err := cl.List(cmd.Context(), v)
			if err != nil {
				return err
			}
			if a.jsonOut {
				out := make([]map[string]any, len(ents))
				for i, e := range ents {
					out[i] = map[string]any{"path": e.Path, "size": e.Size, "seq": e.Seq, "commitment": "0x" + hex.EncodeToString(e.Commitment.Bytes())}
					if e.Dir {
						out[i] = map[string]any{"path": e.Path, "dir": true, "seq": e.Seq}
					}
				}
				return a.printJSON(out)
			}
			for _, e := range ents {
				if e.Dir { // a directory the mount keeps attributes of
					fmt.Fprintf(a.stdout, "%12s  %s/\n", "-", e.Path)
					continue
				}
				fmt.Fprintf(a.stdout, "%12d  %s  root 0x%x…\n", e.Size, e.Path, e.Commitment.Root[:8])
			}
			return nil
		},
	}
	kf.add(cmd)
	return cmd
}

func (a *app) volumeRmCmd() *cobra.Command {
	var kf keyFlags
	cmd := &cobra.Command{
		Use:     "rm NAME PATH",
		Example: "  cowboy volume rm logs audit.jsonl --from dev0",
		Short:   "Delete a file from every relay",
		Args:    args("NAME", "PATH"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			_, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			if err := cl.Delete(cmd.Context(), v, argv[1]); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "deleted %s\n", argv[1])
			return nil
		},
	}
	kf.add(cmd)
	return cmd
}

func (a *app) volumeMvCmd() *cobra.Command {
	var kf keyFlags
	cmd := &cobra.Command{
		Use:     "mv NAME SRC DST",
		Example: "  cowboy volume mv logs audit.jsonl archive/audit.jsonl --from dev0",
		Short:   "Rename a file without moving its shards",
		Long: `Renames SRC to DST (replacing a file at DST). No shard is uploaded or
encrypted again: each relay holding a shard links it under the new path
(it needs read on SRC and write on DST), the manifest is stored under DST,
then SRC is deleted. A crash part way leaves the file under SRC, or under
both paths. See docs/cbfs.md, "Rename".`,
		Args: args("NAME", "SRC", "DST"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			_, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			m, err := cl.Rename(cmd.Context(), v, argv[1], argv[2])
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(map[string]any{"from": argv[1], "path": m.Path, "size": m.Size, "seq": m.Seq, "commitment": "0x" + hex.EncodeToString(m.Commitment().Bytes())})
			}
			root := m.Root()
			fmt.Fprintf(a.stdout, "renamed %s to %s (%d bytes, root 0x%x…)\n", argv[1], m.Path, m.Size, root[:8])
			return nil
		},
	}
	kf.add(cmd)
	return cmd
}

func (a *app) volumeGrantCmd() *cobra.Command {
	var kf keyFlags
	var to, prefix string
	var read, write bool
	var ttl time.Duration
	cmd := &cobra.Command{
		Use:     "grant NAME --to ADDR",
		Example: "  cowboy volume grant logs --to dev1 --read --prefix reports/ --ttl 1h --from dev0",
		Short:   "Issue a capability token (scoped to a prefix, read and/or write, with an expiry)",
		Long: `grant prints a capability token for ADDR. The holder presents it to relays
with its own key; relays check it without asking the chain. If you hold a
token yourself (a volume you opened), grant delegates from it and can only
narrow it. The holder also needs the volume key (the "key" field of
~/.cowboy/volumes/NAME.json, handed over separately) to decrypt what it
reads; it opens both with ` + "`cowboy volume open`" + `.`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, v, err := a.loadVolume(argv[0])
			if err != nil {
				return err
			}
			if !read && !write {
				return errors.New("say what the token allows: --read, --write or both")
			}
			var perms cbfs.Perm
			if read {
				perms |= cbfs.PermRead
			}
			if write {
				perms |= cbfs.PermWrite
			}
			holder, err := a.resolveAddress(to)
			if err != nil {
				return err
			}
			tags, err := v.PrefixTags(prefix)
			if err != nil {
				return err
			}
			if ttl <= 0 {
				return errors.New("--ttl must be positive")
			}
			key, err := a.localKey(kf.from, kf.passFile)
			if err != nil {
				return err
			}
			var nonce [8]byte
			if _, err := randRead(nonce[:]); err != nil {
				return err
			}
			exp := uint64(time.Now().Add(ttl).Unix())
			var tok *cbfs.Token
			if strings.EqualFold(fmt.Sprintf("0x%x", key.Address()), c.Owner) {
				tok, err = cbfs.Grant(key, c.Name, tags, perms, exp, holder, nonce)
			} else {
				parent, perr := cbfs.ParseToken(c.Token)
				if perr != nil {
					return fmt.Errorf("you do not own volume %q and hold no token to delegate: %w", c.Name, perr)
				}
				tok, err = parent.Delegate(key, tags, perms, exp, holder, nonce)
				if err == nil {
					_, err = tok.Verify(uint64(time.Now().Unix()), nil)
				}
			}
			if err != nil {
				return err
			}
			s, err := tok.Encode()
			if err != nil {
				return err
			}
			id, _ := tok.Links[len(tok.Links)-1].ID()
			if a.jsonOut {
				return a.printJSON(map[string]any{"token": s, "id": fmt.Sprintf("0x%x", id), "expiry": exp})
			}
			fmt.Fprintf(a.stdout, "token id 0x%x (expires %s)\n%s\n", id, time.Unix(int64(exp), 0).UTC().Format(time.RFC3339), s)
			fmt.Fprintf(a.stderr, "the holder opens it with: cowboy volume open %s --token <token> --key <volume key> --relays <list>\n", c.Name)
			return nil
		},
	}
	kf.add(cmd)
	cmd.Flags().StringVar(&to, "to", "", "holder: an address, a keystore name or dev0…dev9")
	cmd.Flags().StringVar(&prefix, "prefix", "", "path prefix the token is limited to, e.g. reports/ (default: the whole volume)")
	cmd.Flags().BoolVar(&read, "read", false, "allow reading")
	cmd.Flags().BoolVar(&write, "write", false, "allow writing and deleting")
	cmd.Flags().DurationVar(&ttl, "ttl", time.Hour, "how long the token lasts")
	cmd.MarkFlagRequired("to")
	return cmd
}

func (a *app) volumeRevokeCmd() *cobra.Command {
	var tf txFlags
	var onChain bool
	cmd := &cobra.Command{
		Use:     "revoke NAME TOKEN|TOKEN_ID",
		Example: "  cowboy volume revoke logs 0x0f41…39d5 --from dev0\n  cowboy volume revoke logs 0x0f41…39d5 --chain --from dev0",
		Short:   "Withdraw a token (and every delegation below it) on all relays",
		Args:    args("NAME", "TOKEN"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, _, err := a.loadVolume(argv[0])
			if err != nil {
				return err
			}
			var id [32]byte
			exp := uint64(time.Now().Add(365 * 24 * time.Hour).Unix())
			if t, err := cbfs.ParseToken(argv[1]); err == nil {
				id, err = t.Links[len(t.Links)-1].ID()
				if err != nil {
					return err
				}
				exp = t.Links[len(t.Links)-1].Expiry
			} else {
				b, err := hex.DecodeString(strings.TrimPrefix(argv[1], "0x"))
				if err != nil || len(b) != 32 {
					return fmt.Errorf("%q is neither a token nor a 32-byte token id", argv[1])
				}
				copy(id[:], b)
			}
			key, err := a.localKey(tf.from, tf.passFile)
			if err != nil {
				return err
			}
			rev, err := cbfs.Revoke(key, c.Name, id, exp)
			if err != nil {
				return err
			}
			if _, err := rev.Verify(); err != nil || !strings.EqualFold(fmt.Sprintf("0x%x", key.Address()), c.Owner) {
				return fmt.Errorf("only the owner %s can revoke tokens of %q", c.Owner, c.Name)
			}
			if onChain {
				to := storage.ManagerAddress
				storageCycles(&tf)
				vid := cbfs.DeriveVolumeID(key.Address(), c.Name)
				_, rc, err := a.sendTx(cmd.Context(), &tf, &to, nil, storage.Payload("revoke", vid[:], id[:], exp), nil)
				if err == nil && rc != nil {
					err = failedErr(rc)
				}
				if err != nil {
					return fmt.Errorf("revoke on chain: %w", err)
				}
				fmt.Fprintf(a.stdout, "revoked 0x%x on chain (0x0A)\n", id)
			}
			cl, err := a.openCluster(c, key)
			if err != nil {
				return err
			}
			defer cl.Close()
			n, err := cl.Revoke(cmd.Context(), rev)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "revoked 0x%x on %d of %d relays\n", id, n, len(c.Relays))
			return nil
		},
	}
	tf.register(cmd.Flags())
	cmd.Flags().BoolVar(&onChain, "chain", false, "also record the revocation in the Storage Manager 0x0A; relays that follow the chain apply it even if they were down")
	return cmd
}

func (a *app) volumeRepairCmd() *cobra.Command {
	var kf keyFlags
	var threshold int
	var every time.Duration
	cmd := &cobra.Command{
		Use:     "repair NAME [PATH]",
		Example: "  cowboy volume repair logs audit.jsonl --from dev0\n  cowboy volume repair logs --every 10m --from dev0   # every file, in the background until Ctrl-C",
		Short:   "Rebuild lost shards of a file (or every file) and place them on live relays",
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			if len(argv) == 1 {
				if every <= 0 {
					sum, err := cl.RepairVolume(cmd.Context(), v, threshold)
					a.printVolumeRepair(sum)
					return err
				}
				cl.RepairDaemon(cmd.Context(), v, threshold, every, func(sum cluster.VolumeRepair, err error) {
					if err != nil {
						fmt.Fprintf(a.stderr, "%s repair pass: %v\n", time.Now().Format(time.RFC3339), err)
						return
					}
					fmt.Fprintf(a.stdout, "%s ", time.Now().Format(time.RFC3339))
					a.printVolumeRepair(sum)
				})
				return nil
			}
			if every > 0 {
				return fmt.Errorf("--every repairs the whole volume: give NAME without PATH")
			}
			if threshold < 0 {
				threshold = c.M
			}
			rep, err := cl.Repair(cmd.Context(), v, argv[1], threshold)
			if rep != nil {
				fmt.Fprintf(a.stdout, "%d segments checked, %d degraded, %d shards rebuilt, %d lost; manifest seq %d\n",
					rep.Segments, rep.Degraded, rep.Rebuilt, rep.Lost, rep.Seq)
			}
			return err
		},
	}
	kf.add(cmd)
	cmd.Flags().IntVar(&threshold, "threshold", -1, "repair segments with fewer than K+threshold healthy shards (default M: any loss)")
	cmd.Flags().DurationVar(&every, "every", 0, "without PATH: repair every file again each `INTERVAL` until Ctrl-C (a background repair daemon)")
	return cmd
}

func (a *app) printVolumeRepair(sum cluster.VolumeRepair) {
	fmt.Fprintf(a.stdout, "%d files, %d segments degraded, %d shards rebuilt, %d segments lost\n", sum.Files, sum.Degraded, sum.Rebuilt, sum.Lost)
	paths := make([]string, 0, len(sum.Failed))
	for p := range sum.Failed {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(a.stdout, "  %s: %s\n", p, sum.Failed[p])
	}
}

// storageCycles sets a cycles limit for a call of the native storage
// actors when the user gave none: the node's estimate simulates actor and
// validator-registry calls only, and would offer just the intrinsic cost.
// Unused cycles are refunded, so the margin costs nothing.
func storageCycles(tf *txFlags) {
	if tf.cyclesLimit == "" {
		tf.cyclesLimit = "50000"
	}
}

// parseByteSize reads "8MiB", "4096", "1GiB".
func parseByteSize(s string) (uint64, error) {
	mult := uint64(1)
	for _, u := range []struct {
		suf string
		m   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if t, ok := strings.CutSuffix(s, u.suf); ok {
			s, mult = t, u.m
			break
		}
	}
	var n uint64
	if _, err := fmt.Sscan(s, &n); err != nil || n == 0 || n > 1<<40/mult {
		return 0, fmt.Errorf("size %q: want a positive number with an optional KiB/MiB/GiB suffix", s)
	}
	return n * mult, nil
}

// randRead fills b from the system random source.
func randRead(b []byte) (int, error) { return rand.Read(b) }
