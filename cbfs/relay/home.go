package relay

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cowboy-chain/cowboy/crypto"
)

// LoadOrCreateKey reads a relay's node key from DIR/relay.key (hex) or
// creates one there (mode 0600): the relay's identity across restarts.
func LoadOrCreateKey(home string) (*crypto.PrivateKey, error) {
	if home == "" {
		return nil, errors.New("relay: no home directory")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("relay: home %s: %w", home, err)
	}
	path := filepath.Join(home, "relay.key")
	b, err := os.ReadFile(path)
	if err == nil {
		raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("relay: %s is not a hex key: %w", path, err)
		}
		return crypto.PrivateKeyFromBytes(raw)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("relay: read %s: %w", path, err)
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(key.Bytes())+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("relay: write %s: %w", path, err)
	}
	return key, nil
}
