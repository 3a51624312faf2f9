package keystore

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/crypto/scrypt"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Version is the file format this package writes and reads.
const Version = 1

// EnvDir names the environment variable that moves the default keystore.
const EnvDir = "COWBOY_KEYSTORE"

// Scrypt parameters for real keys: 2^15 × 8 × 128 bytes = 32 MiB of memory
// per derivation, slow enough to make guessing a passphrase expensive.
const (
	DefaultScryptN = 1 << 15
	DefaultScryptR = 8
	DefaultScryptP = 1
)

// Bounds on what a key file may ask for, so that opening a hostile file
// cannot take unbounded memory (128·N·r bytes) or time.
const (
	maxScryptN      = 1 << 20
	maxScryptR      = 32
	maxScryptP      = 16
	maxScryptMemory = 1 << 30 // bytes
	maxFileSize     = 64 << 10
)

const (
	keyLen    = 32 // AES-256 key and secp256k1 scalar, bytes
	saltLen   = 32
	nonceLen  = 12
	tagLen    = 16
	kdfName   = "scrypt"
	cipherAES = "aes-256-gcm"
	domain    = "cowboy-keystore-v1"
)

// Errors a caller can test with errors.Is; the error itself names the key.
var (
	ErrNotFound        = errors.New("no such key")
	ErrExists          = errors.New("key already exists")
	ErrWrongPassphrase = errors.New("wrong passphrase")
	ErrInvalidName     = errors.New("invalid key name")
	ErrReservedName    = errors.New("reserved key name")
	ErrDamaged         = errors.New("key file is damaged")
	ErrEmptyPassphrase = errors.New("empty passphrase")
	ErrInvalidKey      = errors.New("invalid private key")
)

var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// IsReserved reports whether name is one of dev0…dev9, the devnet's
// well-known keys: the CLI resolves those names itself, so a keystore key
// of the same name could never be reached and is refused.
func IsReserved(name string) bool {
	return len(name) == 4 && strings.HasPrefix(name, "dev") && name[3] >= '0' && name[3] <= '9'
}

// ValidName checks the name pattern [a-zA-Z0-9_-]{1,64}, which also keeps
// names from escaping the keystore directory.
func ValidName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%w %q: use 1 to 64 letters, digits, '_' or '-'", ErrInvalidName, name)
	}
	return nil
}

// DefaultDir is $COWBOY_KEYSTORE if set, else ~/.cowboy/keys.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("keystore: find home directory (set $%s or --keystore): %w", EnvDir, err)
	}
	return filepath.Join(home, ".cowboy", "keys"), nil
}

// Store is a keystore directory. It holds no keys in memory; every call
// reads or writes the directory.
type Store struct {
	dir     string
	n, r, p int
}

// Option changes how a Store writes new keys.
type Option func(*Store)

// WithScryptParams sets the scrypt cost of keys written from now on. Tests
// use a small N to stay fast; real keys keep the defaults. Reading always
// uses the parameters stored in each file.
func WithScryptParams(n, r, p int) Option {
	return func(s *Store) { s.n, s.r, s.p = n, r, p }
}

// Open returns the keystore in dir. The directory is created (0700) on
// the first write, not here, so reading a keystore never changes the disk.
func Open(dir string, opts ...Option) (*Store, error) {
	if dir == "" {
		return nil, errors.New("keystore: empty directory name")
	}
	s := &Store{dir: dir, n: DefaultScryptN, r: DefaultScryptR, p: DefaultScryptP}
	for _, o := range opts {
		o(s)
	}
	if err := checkScrypt(s.n, s.r, s.p); err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	return s, nil
}

// Dir is the keystore's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(name string) string { return filepath.Join(s.dir, name+".json") }

// Entry is one key as List reports it. Err is set when the file exists but
// cannot be read, so one damaged file does not hide the others.
type Entry struct {
	Name    string
	Address types.Address
	Err     error
}

// List returns every key in the keystore, sorted by name. A keystore
// directory that does not exist yet is empty.
func (s *Store) List() ([]Entry, error) {
	des, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("keystore: list %s: %w", s.dir, err)
	}
	var out []Entry
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || de.IsDir() || ValidName(name) != nil {
			continue
		}
		e := Entry{Name: name}
		e.Address, e.Err = s.Show(name)
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Show returns a key's address without asking for its passphrase.
func (s *Store) Show(name string) (types.Address, error) {
	f, err := s.read(name)
	if err != nil {
		return types.Address{}, err
	}
	return f.addr, nil
}

// New makes a fresh random key named name, encrypts it with pass, and
// returns its address.
func (s *Store) New(name, pass string) (types.Address, error) {
	if err := s.checkNew(name, pass); err != nil {
		return types.Address{}, err
	}
	k, err := crypto.GenerateKey()
	if err != nil {
		return types.Address{}, fmt.Errorf("keystore: new key %s: %w", name, err)
	}
	return s.store(name, k, pass)
}

// Import stores an existing private key given as 64 hex digits (an 0x
// prefix and surrounding white space are allowed) and returns its address.
// Its errors never quote the key.
func (s *Store) Import(name, privHex, pass string) (types.Address, error) {
	if err := s.checkNew(name, pass); err != nil {
		return types.Address{}, err
	}
	k, err := ParsePrivateKey(privHex)
	if err != nil {
		return types.Address{}, fmt.Errorf("keystore: import %s: %w", name, err)
	}
	return s.store(name, k, pass)
}

// ParsePrivateKey reads a private key as 64 hex digits, with an optional
// 0x prefix and surrounding white space. Its errors never quote the input,
// which is a secret.
func ParsePrivateKey(text string) (*crypto.PrivateKey, error) {
	h := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(h, "0x"); ok {
		h = rest
	} else if rest, ok := strings.CutPrefix(h, "0X"); ok {
		h = rest
	}
	if len(h) != 2*keyLen {
		return nil, fmt.Errorf("%w: want 64 hex digits, got %d characters", ErrInvalidKey, len(h))
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, fmt.Errorf("%w: not hexadecimal", ErrInvalidKey)
	}
	defer clear(b)
	k, err := crypto.PrivateKeyFromBytes(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	return k, nil
}

// Export decrypts a key and returns its private key as 64 lowercase hex
// digits, for backing it up or moving it to another wallet.
func (s *Store) Export(name, pass string) (string, error) {
	k, err := s.Load(name, pass)
	if err != nil {
		return "", err
	}
	b := k.Bytes()
	defer clear(b)
	return hex.EncodeToString(b), nil
}

// Load decrypts a key for signing. A wrong passphrase is an error wrapping
// ErrWrongPassphrase that says "wrong passphrase for key NAME"; a file that
// was damaged or edited wraps ErrDamaged.
func (s *Store) Load(name, pass string) (*crypto.PrivateKey, error) {
	f, err := s.read(name)
	if err != nil {
		return nil, err
	}
	aesKey, err := scrypt.Key([]byte(pass), f.salt, f.n, f.r, f.p, keyLen)
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s: derive key: %w", name, err)
	}
	defer clear(aesKey)
	gcm, err := newGCM(aesKey)
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s: %w", name, err)
	}
	plain, err := gcm.Open(nil, f.nonce, f.ciphertext, aad(f.addr))
	if err != nil {
		// The checksum matched, so the file is as written: only the
		// passphrase can be wrong.
		return nil, fmt.Errorf("%w for key %s", ErrWrongPassphrase, name)
	}
	defer clear(plain)
	k, err := crypto.PrivateKeyFromBytes(plain)
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s: %w: decrypted key is invalid", name, ErrDamaged)
	}
	if types.Address(k.Address()) != f.addr {
		return nil, fmt.Errorf("keystore: key %s: %w: key does not match its address %s", name, ErrDamaged, f.addr)
	}
	return k, nil
}

func (s *Store) checkNew(name, pass string) error {
	if err := ValidName(name); err != nil {
		return fmt.Errorf("keystore: %w", err)
	}
	if IsReserved(name) {
		return fmt.Errorf("keystore: %w %q: dev0…dev9 name the devnet's well-known keys", ErrReservedName, name)
	}
	if pass == "" {
		return fmt.Errorf("keystore: key %s: %w: choose a passphrase to encrypt it", name, ErrEmptyPassphrase)
	}
	if _, err := os.Lstat(s.path(name)); err == nil {
		return fmt.Errorf("keystore: %w: %s in %s", ErrExists, name, s.dir)
	}
	return nil
}

// fileJSON is the on-disk form documented in doc.go.
type fileJSON struct {
	Version  int        `json:"version"`
	Address  string     `json:"address"`
	KDF      kdfJSON    `json:"kdf"`
	Cipher   cipherJSON `json:"cipher"`
	Checksum string     `json:"checksum"`
}

type kdfJSON struct {
	Name string `json:"name"`
	N    int    `json:"n"`
	R    int    `json:"r"`
	P    int    `json:"p"`
	Salt string `json:"salt"`
}

type cipherJSON struct {
	Name       string `json:"name"`
	Nonce      string `json:"nonce"`
	Ciphertext string `json:"ciphertext"`
}

// keyFile is a parsed, checked key file.
type keyFile struct {
	addr                    types.Address
	n, r, p                 int
	salt, nonce, ciphertext []byte
}

func (s *Store) store(name string, k *crypto.PrivateKey, pass string) (types.Address, error) {
	f := keyFile{addr: types.Address(k.Address()), n: s.n, r: s.r, p: s.p,
		salt: make([]byte, saltLen), nonce: make([]byte, nonceLen)}
	if _, err := rand.Read(f.salt); err != nil {
		return types.Address{}, fmt.Errorf("keystore: key %s: salt: %w", name, err)
	}
	if _, err := rand.Read(f.nonce); err != nil {
		return types.Address{}, fmt.Errorf("keystore: key %s: nonce: %w", name, err)
	}
	aesKey, err := scrypt.Key([]byte(pass), f.salt, f.n, f.r, f.p, keyLen)
	if err != nil {
		return types.Address{}, fmt.Errorf("keystore: key %s: derive key: %w", name, err)
	}
	defer clear(aesKey)
	gcm, err := newGCM(aesKey)
	if err != nil {
		return types.Address{}, fmt.Errorf("keystore: key %s: %w", name, err)
	}
	plain := k.Bytes()
	f.ciphertext = gcm.Seal(nil, f.nonce, plain, aad(f.addr))
	clear(plain)
	data, err := json.MarshalIndent(fileJSON{
		Version: Version,
		Address: f.addr.Hex(),
		KDF:     kdfJSON{Name: kdfName, N: f.n, R: f.r, P: f.p, Salt: hex.EncodeToString(f.salt)},
		Cipher: cipherJSON{Name: cipherAES, Nonce: hex.EncodeToString(f.nonce),
			Ciphertext: hex.EncodeToString(f.ciphertext)},
		Checksum: hex.EncodeToString(f.checksum()),
	}, "", "  ")
	if err != nil {
		return types.Address{}, fmt.Errorf("keystore: key %s: encode: %w", name, err)
	}
	if err := s.writeNew(name, append(data, '\n')); err != nil {
		return types.Address{}, err
	}
	return f.addr, nil
}

// writeNew writes the file for name atomically and without replacing an
// existing one: temp file, fsync, hard link into place (which fails if the
// name is taken), then fsync of the directory.
func (s *Store) writeNew(name string, data []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("keystore: create %s: %w", s.dir, err)
	}
	tmp, err := os.CreateTemp(s.dir, "."+name+"-*.tmp")
	if err != nil {
		return fmt.Errorf("keystore: key %s: %w", name, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // after a successful link, only the temp name goes
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("keystore: key %s: %w", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("keystore: key %s: write: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("keystore: key %s: sync: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("keystore: key %s: %w", name, err)
	}
	final := s.path(name)
	if err := os.Link(tmpName, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("keystore: %w: %s in %s", ErrExists, name, s.dir)
		}
		// A file system without hard links: rename, after checking the
		// name is still free (a race here can only lose to another
		// writer of the same name, never half-write a file).
		if _, serr := os.Lstat(final); serr == nil {
			return fmt.Errorf("keystore: %w: %s in %s", ErrExists, name, s.dir)
		}
		if rerr := os.Rename(tmpName, final); rerr != nil {
			return fmt.Errorf("keystore: key %s: %w", name, rerr)
		}
	}
	return syncDir(s.dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("keystore: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("keystore: sync %s: %w", dir, err)
	}
	return nil
}

// read loads and checks a key file without decrypting it.
func (s *Store) read(name string) (*keyFile, error) {
	if err := ValidName(name); err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	fh, err := os.Open(s.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("keystore: %w named %s in %s", ErrNotFound, name, s.dir)
	}
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s: %w", name, err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s: %w", name, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("keystore: key %s: %w: file larger than %d bytes", name, ErrDamaged, maxFileSize)
	}
	f, err := parseFile(data)
	if err != nil {
		return nil, fmt.Errorf("keystore: key %s (%s): %w: %v", name, s.path(name), ErrDamaged, err)
	}
	return f, nil
}

func parseFile(data []byte) (*keyFile, error) {
	var j fileJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a key file: %v", err)
	}
	if j.Version != Version {
		return nil, fmt.Errorf("version %d, this cowboy reads version %d", j.Version, Version)
	}
	if j.KDF.Name != kdfName {
		return nil, fmt.Errorf("kdf %q, want %q", j.KDF.Name, kdfName)
	}
	if j.Cipher.Name != cipherAES {
		return nil, fmt.Errorf("cipher %q, want %q", j.Cipher.Name, cipherAES)
	}
	addr, err := types.ParseAddress(j.Address)
	if err != nil {
		return nil, err
	}
	if err := checkScrypt(j.KDF.N, j.KDF.R, j.KDF.P); err != nil {
		return nil, err
	}
	f := &keyFile{addr: addr, n: j.KDF.N, r: j.KDF.R, p: j.KDF.P}
	for _, field := range []struct {
		name string
		text string
		dst  *[]byte
		size int
	}{
		{"salt", j.KDF.Salt, &f.salt, saltLen},
		{"nonce", j.Cipher.Nonce, &f.nonce, nonceLen},
		{"ciphertext", j.Cipher.Ciphertext, &f.ciphertext, keyLen + tagLen},
	} {
		b, err := hex.DecodeString(field.text)
		if err != nil || len(b) != field.size {
			return nil, fmt.Errorf("%s: want %d bytes in hex", field.name, field.size)
		}
		*field.dst = b
	}
	sum, err := hex.DecodeString(j.Checksum)
	if err != nil || !bytes.Equal(sum, f.checksum()) {
		return nil, errors.New("checksum mismatch: the file was modified or corrupted")
	}
	return f, nil
}

func (f *keyFile) checksum() []byte {
	h := sha256.New()
	h.Write([]byte(domain))
	h.Write([]byte{0})
	h.Write(f.addr[:])
	var u [4]byte
	for _, v := range []int{f.n, f.r, f.p} {
		binary.BigEndian.PutUint32(u[:], uint32(v))
		h.Write(u[:])
	}
	h.Write(f.salt)
	h.Write(f.nonce)
	h.Write(f.ciphertext)
	return h.Sum(nil)
}

func aad(addr types.Address) []byte { return append([]byte(domain), addr[:]...) }

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("aes: %w", err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("gcm: %w", err)
	}
	return gcm, nil
}

func checkScrypt(n, r, p int) error {
	switch {
	case n < 2 || n > maxScryptN || n&(n-1) != 0:
		return fmt.Errorf("scrypt n %d: want a power of two from 2 to %d", n, maxScryptN)
	case r < 1 || r > maxScryptR:
		return fmt.Errorf("scrypt r %d: want 1 to %d", r, maxScryptR)
	case p < 1 || p > maxScryptP:
		return fmt.Errorf("scrypt p %d: want 1 to %d", p, maxScryptP)
	case 128*n*r > maxScryptMemory:
		return fmt.Errorf("scrypt n %d, r %d need more than %d bytes", n, r, maxScryptMemory)
	}
	return nil
}
