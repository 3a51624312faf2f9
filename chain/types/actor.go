package types

import (
	"bytes"
	"unicode/utf8"

	"fmt"
	"golang.org/x/text/unicode/norm"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/crypto"
)

// DeployPayload is the payload of an actor-creating transaction (to = null):
// the canonical CBOR array [code, salt, args].
type DeployPayload struct {
	_ struct{} `cbor:",toarray"`
	// Code is the Python source; it is canonicalised (UTF-8, NFC, LF, no
	// BOM: §1.2) before hashing and storing, so the sender may send it as
	// written.
	Code string
	// Salt is 32 bytes chosen by the deployer (§1.2 CREATE2-style).
	Salt []byte
	// Args is the canonical CBOR array of __init__'s positional arguments.
	Args cbor.RawMessage
}

// CallPayload is the payload of a transaction to an actor: the canonical
// CBOR array [method, args].
type CallPayload struct {
	_      struct{} `cbor:",toarray"`
	Method string
	Args   cbor.RawMessage
}

// SaltSize is the length of a deployment salt.
const SaltSize = 32

// EmptyArgs is the canonical CBOR of an empty argument list.
var EmptyArgs = []byte{0x80}

// Encode serialises the payload canonically.
func (p *DeployPayload) Encode() ([]byte, error) {
	if p.Args == nil {
		p.Args = EmptyArgs
	}
	return Marshal(p)
}

// Encode serialises the payload canonically.
func (p *CallPayload) Encode() ([]byte, error) {
	if p.Args == nil {
		p.Args = EmptyArgs
	}
	return Marshal(p)
}

// DecodeDeployPayload parses a deployment payload strictly.
func DecodeDeployPayload(b []byte) (*DeployPayload, error) {
	p := new(DeployPayload)
	if err := Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("deploy payload [code, salt, args]: %w", err)
	}
	if len(p.Salt) != SaltSize {
		return nil, fmt.Errorf("deploy payload: salt is %d bytes, want %d", len(p.Salt), SaltSize)
	}
	if err := checkArgs(p.Args); err != nil {
		return nil, fmt.Errorf("deploy payload: %w", err)
	}
	return p, nil
}

// DecodeCallPayload parses an actor call payload strictly.
func DecodeCallPayload(b []byte) (*CallPayload, error) {
	p := new(CallPayload)
	if err := Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("call payload [method, args]: %w", err)
	}
	if p.Method == "" {
		return nil, fmt.Errorf("call payload: empty method name")
	}
	if err := checkArgs(p.Args); err != nil {
		return nil, fmt.Errorf("call payload: %w", err)
	}
	return p, nil
}

func checkArgs(a cbor.RawMessage) error {
	if len(a) == 0 || a[0]>>5 != 4 {
		return fmt.Errorf("args must be a CBOR array")
	}
	return nil
}

// ActorAddress derives a new actor's address (§1.2):
// last_20_bytes(keccak256(creator || salt || code_hash)).
func ActorAddress(creator Address, salt []byte, codeHash Hash) Address {
	h := crypto.Keccak256(creator[:], salt, codeHash[:])
	var a Address
	copy(a[:], h[12:])
	return a
}

// CanonicalSource is the form of actor source that is hashed and stored
// (§1.2): valid UTF-8, without a byte-order mark, with LF line endings
// (CRLF and lone CR become LF), NFC-normalised.
func CanonicalSource(src []byte) ([]byte, error) {
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("actor source is not valid UTF-8")
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	return norm.NFC.Bytes(src), nil
}
