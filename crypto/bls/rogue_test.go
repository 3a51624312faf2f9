package bls

import blst "github.com/supranational/blst/bindings/go"

// subtract returns a − b, used only to build a rogue key in tests.
func subtract(a, b *PublicKey) *PublicKey {
	var pa blst.P1
	pa.FromAffine(&a.p)
	diff := pa.Sub(&b.p)
	return &PublicKey{p: *diff.ToAffine()}
}
