package simplex

import "testing"

// TestQCRandomness checks what a certificate says about its block's
// randomness: none without a certificate or without σ, and
// BeaconOutput(σ) with one.
func TestQCRandomness(t *testing.T) {
	sigma := []byte{1, 2, 3}
	for _, c := range []struct {
		name string
		qc   *QC
		ok   bool
	}{
		{"no certificate", nil, false},
		{"no beacon", &QC{}, false},
		{"an empty beacon", &QC{Beacon: []byte{}}, false},
		{"a beacon", &QC{Beacon: sigma}, true},
	} {
		r, ok := c.qc.Randomness()
		if ok != c.ok {
			t.Errorf("%s: ok = %v", c.name, ok)
		}
		want := [32]byte{}
		if c.ok {
			want = BeaconOutput(sigma)
		}
		if r != want {
			t.Errorf("%s: randomness %x, want %x", c.name, r, want)
		}
	}
}
