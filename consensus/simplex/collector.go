package simplex

// collector buffers signatures on one message until their signers hold a
// quorum, then verifies them all at once as an aggregate (§6.1: "signatures
// are buffered and batch-verified at quorum"). Only when the aggregate
// fails does it fall back to checking each signature, dropping the bad
// ones, so an honest round costs one pairing check instead of one per vote.
type collector struct {
	signers Bitmap
	bad     Bitmap
	sigs    [][]byte   // by validator index
	parts   [][][]byte // beacon partials by validator index (votes only)
}

func newCollector(n int) *collector {
	return &collector{signers: NewBitmap(n), bad: NewBitmap(n), sigs: make([][]byte, n), parts: make([][][]byte, n)}
}

// add records i's signature and beacon partials; the first one from each
// signer counts.
func (c *collector) add(i int, sig []byte, partials [][]byte) {
	if c.signers.Has(i) || c.bad.Has(i) {
		return
	}
	c.signers.Set(i)
	c.sigs[i] = sig
	c.parts[i] = partials
}

// beacon interpolates σ on msg from the partials of the verified signers
// once they hold the threshold. Like quorum, it checks the result once
// and only on failure checks each signer's partials, dropping the bad
// ones (the signer's vote still counts for the certificate).
func (c *collector) beacon(b BeaconScheme, msg []byte) ([]byte, bool) {
	for {
		have := 0
		ps := make([][][]byte, len(c.parts))
		for i := range c.parts {
			if c.signers.Has(i) && len(c.parts[i]) == b.Shares(i) && len(c.parts[i]) > 0 {
				ps[i] = c.parts[i]
				have += len(c.parts[i])
			}
		}
		if have < b.Threshold() {
			return nil, false
		}
		sigma, err := b.Combine(ps)
		if err == nil && b.Verify(msg, sigma) {
			return sigma, true
		}
		dropped := false
		for i, p := range ps {
			if p != nil && !b.VerifyPartials(i, msg, p) {
				c.parts[i] = nil
				dropped = true
			}
		}
		if !dropped {
			return nil, false
		}
	}
}

// quorum returns the signer bitmap and aggregate signature once the
// verified signers hold a quorum.
func (c *collector) quorum(set *ValidatorSet, s Scheme, msg []byte) (Bitmap, []byte, bool) {
	for set.IsQuorum(c.signers) {
		idx := c.signers.Indices()
		sigs := make([][]byte, len(idx))
		for k, i := range idx {
			sigs[k] = c.sigs[i]
		}
		agg, err := s.Aggregate(sigs)
		if err == nil && s.VerifyAggregate(idx, msg, agg) {
			out := NewBitmap(set.Len())
			copy(out, c.signers)
			return out, agg, true
		}
		// Find and drop the bad signatures, then try again.
		dropped := false
		for _, i := range idx {
			if !s.Verify(i, msg, c.sigs[i]) {
				c.signers[i/8] &^= 1 << (i % 8)
				c.bad.Set(i)
				c.sigs[i] = nil
				dropped = true
			}
		}
		if !dropped {
			return nil, nil, false // aggregation failed for no signer's fault
		}
	}
	return nil, nil, false
}
