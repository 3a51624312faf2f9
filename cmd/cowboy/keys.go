package main

import (
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/keystore"
)

func (a *app) keysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Create, list, show, import and export keys in the keystore",
		Long: `Keys live in the keystore directory (--keystore, else $COWBOY_KEYSTORE,
else ~/.cowboy/keys), one file per key, the private key encrypted with your
passphrase (scrypt + AES-256-GCM). The passphrase is asked on the terminal
without echo; scripts give it with --password-file FILE (first line).

Names are 1 to 64 letters, digits, '_' or '-'. dev0 … dev9 are reserved: they
are the devnet's dev accounts and work without a keystore.`,
		Example: `  cowboy keys new alice
  cowboy keys list
  cowboy keys show alice`,
		RunE: groupRun,
	}
	cmd.AddCommand(a.keysNewCmd(), a.keysListCmd(), a.keysShowCmd(), a.keysImportCmd(), a.keysExportCmd())
	return cmd
}

// keyView is a key in --json output.
type keyView struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	File    string `json:"file,omitempty"`
	Error   string `json:"error,omitempty"`
}

func (a *app) printNewKey(verb, name string, addr types.Address, ks *keystore.Store) error {
	file := filepath.Join(ks.Dir(), name+".json")
	if a.jsonOut {
		return a.printJSON(keyView{Name: name, Address: addr.Hex(), File: file})
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s key\t%s\n", verb, name)
	fmt.Fprintf(tw, "Address\t%s\n", addr)
	fmt.Fprintf(tw, "File\t%s\n", file)
	if err := tw.Flush(); err != nil {
		return err
	}
	if verb == "Created" {
		fmt.Fprintf(a.stdout, "Back it up with `cowboy keys export %s`: without the file and its passphrase the key is lost.\n", name)
	}
	return nil
}

func (a *app) keysNewCmd() *cobra.Command {
	var passFile string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Create a new random key named NAME",
		Long: `Create a fresh random secp256k1 key, encrypt it with a passphrase (asked
twice on the terminal, or the first line of --password-file) and store it as
NAME in the keystore. Prints the new key's address. An existing key is never
overwritten.`,
		Example: `  cowboy keys new alice
  cowboy keys new ci-bot --password-file ./pw.txt --json`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name := argv[0]
			ks, err := a.keystore()
			if err != nil {
				return err
			}
			if err := checkNewName(ks, name); err != nil {
				return err
			}
			pass, err := a.passphrase(passFile, name, true)
			if err != nil {
				return err
			}
			addr, err := ks.New(name, pass)
			if err != nil {
				return err
			}
			return a.printNewKey("Created", name, addr, ks)
		},
	}
	cmd.Flags().StringVar(&passFile, "password-file", "", "read the passphrase from the first line of `FILE` instead of the terminal")
	return cmd
}

// checkNewName refuses a bad, reserved or taken name before the user is
// asked for a passphrase they would then type for nothing.
func checkNewName(ks *keystore.Store, name string) error {
	if err := keystore.ValidName(name); err != nil {
		return err
	}
	if keystore.IsReserved(name) {
		return fmt.Errorf("%w %q: dev0…dev9 name the devnet's dev accounts; choose another name", keystore.ErrReservedName, name)
	}
	if _, err := ks.Show(name); err == nil {
		return fmt.Errorf("%w: %s in %s", keystore.ErrExists, name, ks.Dir())
	}
	return nil
}

func (a *app) keysListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the keys in the keystore with their addresses",
		Long: `List every key in the keystore, sorted by name, with its address. No
passphrase is needed: addresses are stored in the clear. A damaged key file
is listed with the reason. The devnet accounts dev0 … dev9 are not listed;
see docs/devnet.md.`,
		Example: `  cowboy keys list
  cowboy keys list --json --keystore ./keys`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ks, err := a.keystore()
			if err != nil {
				return err
			}
			entries, err := ks.List()
			if err != nil {
				return err
			}
			if a.jsonOut {
				out := make([]keyView, 0, len(entries))
				for _, e := range entries {
					v := keyView{Name: e.Name}
					if e.Err != nil {
						v.Error = e.Err.Error()
					} else {
						v.Address = e.Address.Hex()
					}
					out = append(out, v)
				}
				return a.printJSON(out)
			}
			if len(entries) == 0 {
				fmt.Fprintf(a.stdout, "No keys in %s. Create one with `cowboy keys new NAME`.\n", ks.Dir())
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tADDRESS")
			for _, e := range entries {
				if e.Err != nil {
					fmt.Fprintf(tw, "%s\t(unreadable: %s)\n", e.Name, oneLine(e.Err.Error()))
				} else {
					fmt.Fprintf(tw, "%s\t%s\n", e.Name, e.Address)
				}
			}
			return tw.Flush()
		},
	}
}

func (a *app) keysShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print the address of key NAME",
		Long: `Print the address of a key in the keystore, or of a devnet account dev0 …
dev9. No passphrase is needed.`,
		Example: `  cowboy keys show alice
  cowboy keys show dev0 --json`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name := argv[0]
			var addr types.Address
			if i, ok := devIndex(name); ok {
				var err error
				if addr, err = genesis.DevAddress(i); err != nil {
					return err
				}
			} else {
				ks, err := a.keystore()
				if err != nil {
					return err
				}
				if addr, err = ks.Show(name); err != nil {
					return err
				}
			}
			if a.jsonOut {
				return a.printJSON(keyView{Name: name, Address: addr.Hex()})
			}
			fmt.Fprintln(a.stdout, addr)
			return nil
		},
	}
}

func (a *app) keysImportCmd() *cobra.Command {
	var passFile, keyFile string
	cmd := &cobra.Command{
		Use:   "import NAME",
		Short: "Store an existing private key as NAME",
		Long: `Import a private key (64 hex digits, 0x prefix allowed) into the keystore
as NAME, encrypted with a passphrase. The key is read from --private-key-file
FILE, else from stdin: typed without echo on a terminal, or the first line of
a pipe. Never pass a private key as an argument: it would stay in your shell
history.`,
		Example: `  cowboy keys import alice                      # paste the key, then the passphrase twice
  cowboy keys import bot --private-key-file bot.hex --password-file pw.txt
  pass show cowboy/bot | cowboy keys import bot --password-file pw.txt`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name := argv[0]
			ks, err := a.keystore()
			if err != nil {
				return err
			}
			if err := checkNewName(ks, name); err != nil {
				return err
			}
			text, err := a.readPrivateKeyInput(keyFile)
			if err != nil {
				return err
			}
			if _, err := keystore.ParsePrivateKey(text); err != nil {
				return err
			}
			pass, err := a.passphrase(passFile, name, true)
			if err != nil {
				return err
			}
			addr, err := ks.Import(name, text, pass)
			if err != nil {
				return err
			}
			return a.printNewKey("Imported", name, addr, ks)
		},
	}
	cmd.Flags().StringVar(&passFile, "password-file", "", "read the passphrase from the first line of `FILE` instead of the terminal")
	cmd.Flags().StringVar(&keyFile, "private-key-file", "", "read the private key (hex) from `FILE` instead of stdin")
	return cmd
}

func (a *app) keysExportCmd() *cobra.Command {
	var passFile string
	cmd := &cobra.Command{
		Use:   "export NAME",
		Short: "Print the private key of NAME (hex) after asking its passphrase",
		Long: `Decrypt key NAME with its passphrase and print its private key as 64 hex
digits on stdout, to back it up or move it to another wallet. Anyone who sees
it controls the account: redirect it to a safe place. This is the only command
that prints a private key. dev0 … dev9 print the devnet's public dev keys.`,
		Example: `  cowboy keys export alice > alice.hex
  cowboy keys export ci-bot --password-file pw.txt --json`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name := argv[0]
			var privHex string
			var addr types.Address
			if i, ok := devIndex(name); ok {
				k, err := genesis.DevKey(i)
				if err != nil {
					return err
				}
				privHex = fmt.Sprintf("%x", k.Bytes())
				addr = types.Address(k.Address())
			} else {
				ks, err := a.keystore()
				if err != nil {
					return err
				}
				if addr, err = ks.Show(name); err != nil {
					return err
				}
				pass, err := a.passphrase(passFile, name, false)
				if err != nil {
					return err
				}
				if privHex, err = ks.Export(name, pass); err != nil {
					return err
				}
			}
			if a.jsonOut {
				return a.printJSON(struct {
					Name       string `json:"name"`
					Address    string `json:"address"`
					PrivateKey string `json:"privateKey"`
				}{name, addr.Hex(), privHex})
			}
			fmt.Fprintln(a.stdout, privHex)
			return nil
		},
	}
	cmd.Flags().StringVar(&passFile, "password-file", "", "read the passphrase from the first line of `FILE` instead of the terminal")
	return cmd
}
