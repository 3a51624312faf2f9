package cbfs

import (
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
)

func mustKey(t *testing.T) *crypto.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestTokens(t *testing.T) {
	owner, alice, bob, mallory := mustKey(t), mustKey(t), mustKey(t), mustKey(t)
	key, _ := NewVolumeKey()
	vol := &Volume{ID: DeriveVolumeID(owner.Address(), "logs"), Key: key}
	reports, _ := vol.PrefixTags("reports/")
	reports26, _ := vol.PrefixTags("reports/2026/")
	fileTags, _ := vol.PathTags("reports/2026/q3.pdf")
	otherTags, _ := vol.PathTags("secrets/key")
	const now, exp = 1000, 2000
	root, err := Grant(owner, "logs", reports, PermRead|PermWrite, exp, alice.Address(), [8]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := root.Delegate(alice, reports26, PermRead, exp-1, bob.Address(), [8]byte{2})
	if err != nil {
		t.Fatal(err)
	}
	rootID, _ := root.Links[0].ID()
	var revokedSet = map[[32]byte]bool{}
	revoked := func(_ VolumeID, id [32]byte) bool { return revokedSet[id] }

	type tc struct {
		name    string
		tok     func() *Token
		now     uint64
		vol     VolumeID
		tags    []Tag
		perm    Perm
		who     [20]byte
		wantErr error
	}
	otherVol := DeriveVolumeID(owner.Address(), "other")
	cases := []tc{
		{"owner grant read", func() *Token { return root }, now, vol.ID, fileTags, PermRead, alice.Address(), nil},
		{"owner grant write", func() *Token { return root }, now, vol.ID, fileTags, PermWrite, alice.Address(), nil},
		{"delegated read", func() *Token { return narrow }, now, vol.ID, fileTags, PermRead, bob.Address(), nil},
		{"delegated write refused", func() *Token { return narrow }, now, vol.ID, fileTags, PermWrite, bob.Address(), ErrNotPermitted},
		{"outside prefix", func() *Token { return root }, now, vol.ID, otherTags, PermRead, alice.Address(), ErrNotPermitted},
		{"the prefix itself is no object", func() *Token { return root }, now, vol.ID, reports, PermRead, alice.Address(), ErrNotPermitted},
		{"another volume", func() *Token { return root }, now, otherVol, fileTags, PermRead, alice.Address(), ErrWrongVolume},
		{"another volume's token", func() *Token {
			t2, _ := Grant(owner, "other", nil, PermRead, exp, alice.Address(), [8]byte{})
			return t2
		}, now, vol.ID, fileTags, PermRead, alice.Address(), ErrWrongVolume},
		{"expired", func() *Token { return root }, exp, vol.ID, fileTags, PermRead, alice.Address(), ErrExpired},
		{"expired delegation", func() *Token { return narrow }, exp - 1, vol.ID, fileTags, PermRead, bob.Address(), ErrExpired},
		{"wrong holder", func() *Token { return root }, now, vol.ID, fileTags, PermRead, bob.Address(), ErrWrongHolder},
		{"widened prefix", func() *Token {
			w, _ := root.Delegate(alice, nil, PermRead, exp, bob.Address(), [8]byte{})
			return w
		}, now, vol.ID, otherTags, PermRead, bob.Address(), ErrWidened},
		{"widened perms", func() *Token {
			w, _ := narrow.Delegate(bob, reports26, PermRead|PermWrite, exp-1, mallory.Address(), [8]byte{})
			return w
		}, now, vol.ID, fileTags, PermRead, mallory.Address(), ErrWidened},
		{"widened expiry", func() *Token {
			w, _ := root.Delegate(alice, reports26, PermRead, exp+100, bob.Address(), [8]byte{})
			return w
		}, now, vol.ID, fileTags, PermRead, bob.Address(), ErrWidened},
		{"delegation of a bearer link", func() *Token {
			b, _ := Grant(owner, "logs", reports, PermRead, exp, [20]byte{}, [8]byte{})
			w, _ := b.Delegate(mallory, reports26, PermRead, exp, mallory.Address(), [8]byte{})
			return w
		}, now, vol.ID, fileTags, PermRead, mallory.Address(), ErrWidened},
		{"forged: signed by a non-owner", func() *Token {
			// Mallory writes a whole-volume grant for the owner's volume
			// and signs it herself.
			l := Link{Volume: vol.ID, Perms: PermRead | PermWrite, Expiry: exp, Holder: mallory.Address()}
			if err := l.sign(mallory); err != nil {
				t.Fatal(err)
			}
			return &Token{Owner: owner.Address(), Name: "logs", Links: []Link{l}}
		}, now, vol.ID, fileTags, PermRead, mallory.Address(), ErrForged},
		{"forged: scope edited after signing", func() *Token {
			f := *root
			f.Links = append([]Link(nil), root.Links...)
			f.Links[0].Prefix = nil
			return &f
		}, now, vol.ID, otherTags, PermRead, alice.Address(), ErrForged},
		{"forged: delegation signed by someone else", func() *Token {
			w, _ := root.Delegate(mallory, reports26, PermRead, exp, mallory.Address(), [8]byte{})
			return w
		}, now, vol.ID, fileTags, PermRead, mallory.Address(), ErrForged},
		{"forged: garbage signature", func() *Token {
			f := *root
			f.Links = append([]Link(nil), root.Links...)
			f.Links[0].Sig = make([]byte, 65)
			return &f
		}, now, vol.ID, fileTags, PermRead, alice.Address(), ErrForged},
	}
	check := func(t *testing.T, c tc) {
		t.Helper()
		tok := c.tok()
		// Through the printable form, as a CLI user hands it over.
		s, err := tok.Encode()
		if err != nil {
			t.Fatal(err)
		}
		tok, err = ParseToken(s)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tok.Verify(c.now, revoked)
		if err == nil {
			err = v.Allows(c.vol, c.tags, c.perm, c.who)
		}
		if c.wantErr == nil && err != nil || c.wantErr != nil && !errors.Is(err, c.wantErr) {
			t.Fatalf("got %v, want %v", err, c.wantErr)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, c) })
	}

	// Revoking the owner's link kills it and everything delegated from it.
	r, err := Revoke(owner, "logs", rootID, exp)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := r.Verify()
	if err != nil || rv != vol.ID {
		t.Fatalf("revocation verify: %v", err)
	}
	revokedSet[r.Link] = true
	check(t, tc{"revoked", func() *Token { return root }, now, vol.ID, fileTags, PermRead, alice.Address(), ErrRevoked})
	check(t, tc{"below a revoked link", func() *Token { return narrow }, now, vol.ID, fileTags, PermRead, bob.Address(), ErrRevoked})

	// Only the owner can revoke.
	fake, _ := Revoke(mallory, "logs", rootID, exp)
	fake.Owner = owner.Address()
	if _, err := fake.Verify(); !errors.Is(err, ErrForged) {
		t.Fatalf("revocation by a non-owner: %v", err)
	}
	for _, s := range []string{"", "cbfs1.", "cbfs1.!!!", "xyz", "cbfs1.oA"} {
		if tok, err := ParseToken(s); err == nil {
			if _, err := tok.Verify(now, nil); err == nil {
				t.Fatalf("garbage token %q verified", s)
			}
		}
	}
}
