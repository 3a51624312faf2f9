package dkg

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// Errors callers can test for.
var (
	ErrBadDealing   = errors.New("dkg: malformed dealing")
	ErrBadComplaint = errors.New("dkg: unfounded complaint")
	ErrNotQualified = errors.New("dkg: qualified dealers hold no quorum")
)

// Config is one DKG instance: the epoch it keys, the members' public keys
// (their consensus BLS keys, proof of possession checked by the registry)
// and stakes in member index order, and the share allocation derived from
// the stakes.
type Config struct {
	Epoch   uint64
	Members []*bls.PublicKey
	Stakes  []uint64
	Alloc   *Allocation
}

// NewConfig derives the allocation from the stakes.
func NewConfig(epoch uint64, members []*bls.PublicKey, stakes []uint64) (*Config, error) {
	if len(members) != len(stakes) {
		return nil, fmt.Errorf("dkg config: %d keys for %d stakes", len(members), len(stakes))
	}
	a, err := Allocate(stakes)
	if err != nil {
		return nil, fmt.Errorf("dkg config: %w", err)
	}
	return &Config{Epoch: epoch, Members: members, Stakes: stakes, Alloc: a}, nil
}

// Dealing is one dealer's contribution: Feldman commitments to the
// coefficients of its random polynomial f (C_k = a_k·G1, k < threshold),
// an ephemeral key E = e·G1, and for every share index x the scalar f(x)
// encrypted to the member owning x: f(x) XOR BLAKE3(tag ‖ epoch ‖ dealer ‖ x
// ‖ e·PK_owner). Everything is public, so dealings can be posted on chain
// and complaints judged by anyone.
type Dealing struct {
	Dealer      int
	Commitments [][]byte // threshold × 48
	Ephemeral   []byte   // 48
	Ciphertexts [][]byte // Total × 32, index x−1
}

// Deal makes member dealer's dealing with randomness from r (crypto/rand
// when nil). The dealer keeps no secret: its own shares come back to it
// through its own dealing, like everyone's.
func (c *Config) Deal(dealer int, r io.Reader) (*Dealing, error) {
	if dealer < 0 || dealer >= len(c.Members) {
		return nil, fmt.Errorf("deal: no member %d", dealer)
	}
	if r == nil {
		r = rand.Reader
	}
	t := c.Alloc.Threshold
	coeffs := make([]*big.Int, t)
	d := &Dealing{Dealer: dealer, Commitments: make([][]byte, t), Ciphertexts: make([][]byte, c.Alloc.Total)}
	for k := range coeffs {
		sk, err := randomKey(r)
		if err != nil {
			return nil, fmt.Errorf("deal: %w", err)
		}
		coeffs[k] = sk.Scalar()
		d.Commitments[k] = sk.PublicKey().Bytes()
	}
	e, err := randomKey(r)
	if err != nil {
		return nil, fmt.Errorf("deal: %w", err)
	}
	d.Ephemeral = e.PublicKey().Bytes()
	for i, xs := range c.Alloc.Shares {
		if len(xs) == 0 {
			continue
		}
		shared, err := e.SharedKey(c.Members[i])
		if err != nil {
			return nil, fmt.Errorf("deal to member %d: %w", i, err)
		}
		for _, x := range xs {
			d.Ciphertexts[x-1] = seal(c.Epoch, dealer, x, shared, evalPoly(coeffs, x))
		}
	}
	return d, nil
}

func randomKey(r io.Reader) (*bls.SecretKey, error) {
	var seed [bls.MinSeedSize]byte
	if _, err := io.ReadFull(r, seed[:]); err != nil {
		return nil, fmt.Errorf("read randomness: %w", err)
	}
	return bls.GenerateKey(seed[:])
}

// evalPoly is f(x) mod r (Horner).
func evalPoly(coeffs []*big.Int, x uint64) *big.Int {
	acc := new(big.Int)
	bx := new(big.Int).SetUint64(x)
	for k := len(coeffs) - 1; k >= 0; k-- {
		acc.Mul(acc, bx).Add(acc, coeffs[k]).Mod(acc, bls.Order)
	}
	return acc
}

// pad is the one-time key that encrypts share x of a dealing.
func pad(epoch uint64, dealer int, x uint64, shared []byte) [32]byte {
	var b [20]byte
	binary.BigEndian.PutUint64(b[0:], epoch)
	binary.BigEndian.PutUint32(b[8:], uint32(dealer))
	binary.BigEndian.PutUint64(b[12:], x)
	return crypto.Blake3([]byte("cowboy/dkg/share/v1"), b[:], shared)
}

func seal(epoch uint64, dealer int, x uint64, shared []byte, s *big.Int) []byte {
	p := pad(epoch, dealer, x, shared)
	out := make([]byte, 32)
	s.FillBytes(out)
	for i := range out {
		out[i] ^= p[i]
	}
	return out
}

// parsed is a dealing whose points decoded.
type parsed struct {
	commitments []*bls.PublicKey
	ephemeral   *bls.PublicKey
}

// check decodes a dealing and checks its shape; a dealing that fails is
// the dealer's fault (it disqualifies the dealer, no complaint needed).
func (c *Config) check(d *Dealing) (*parsed, error) {
	if d == nil || d.Dealer < 0 || d.Dealer >= len(c.Members) {
		return nil, fmt.Errorf("%w: no such dealer", ErrBadDealing)
	}
	if len(d.Commitments) != c.Alloc.Threshold || len(d.Ciphertexts) != c.Alloc.Total {
		return nil, fmt.Errorf("%w: %d commitments and %d ciphertexts, want %d and %d", ErrBadDealing,
			len(d.Commitments), len(d.Ciphertexts), c.Alloc.Threshold, c.Alloc.Total)
	}
	p := &parsed{commitments: make([]*bls.PublicKey, len(d.Commitments))}
	for k, b := range d.Commitments {
		pk, err := bls.PublicKeyFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%w: commitment %d: %v", ErrBadDealing, k, err)
		}
		p.commitments[k] = pk
	}
	e, err := bls.PublicKeyFromBytes(d.Ephemeral)
	if err != nil {
		return nil, fmt.Errorf("%w: ephemeral key: %v", ErrBadDealing, err)
	}
	p.ephemeral = e
	for x, ct := range d.Ciphertexts {
		if len(ct) != 32 {
			return nil, fmt.Errorf("%w: ciphertext %d has %d bytes", ErrBadDealing, x+1, len(ct))
		}
	}
	return p, nil
}

// CheckDealing reports whether a dealing is well formed (points decode,
// sizes match); one that is not disqualifies its dealer outright.
func (c *Config) CheckDealing(d *Dealing) error {
	_, err := c.check(d)
	return err
}

// openShare decrypts share x with the shared key and checks it against the
// dealer's commitments.
func (c *Config) openShare(d *Dealing, p *parsed, x uint64, shared []byte) (*big.Int, bool) {
	pd := pad(c.Epoch, d.Dealer, x, shared)
	var b [32]byte
	for i := range b {
		b[i] = d.Ciphertexts[x-1][i] ^ pd[i]
	}
	s := new(big.Int).SetBytes(b[:])
	if s.Cmp(bls.Order) >= 0 || s.Sign() == 0 {
		return nil, false
	}
	sk, err := bls.SecretKeyFromScalar(s)
	if err != nil {
		return nil, false
	}
	want, err := bls.EvalCommitments(p.commitments, x)
	if err != nil || !sk.PublicKey().Equal(want) {
		return nil, false
	}
	return s, true
}

// Complaint accuses a dealer of sending member Complainer a share that
// does not match its commitments. It reveals the shared key K = sk·E
// with a proof that it is correct (log_G PK = log_E K), so anyone can
// decrypt the share and judge: the dealer is disqualified if the share is
// bad, and an unfounded complaint changes nothing.
type Complaint struct {
	Dealer     int
	Complainer int
	SharedKey  []byte // 48
	Proof      []byte // DLEQ proof, 64
}

// Receive opens member me's shares of a dealing. It returns the shares
// (by share index) when all are correct, or a complaint when any is not.
// A malformed dealing returns an error and no complaint: everyone sees it.
func (c *Config) Receive(me int, sk *bls.SecretKey, d *Dealing) (map[uint64]*big.Int, *Complaint, error) {
	p, err := c.check(d)
	if err != nil {
		return nil, nil, err
	}
	if me < 0 || me >= len(c.Members) {
		return nil, nil, fmt.Errorf("receive: no member %d", me)
	}
	shared, err := sk.SharedKey(p.ephemeral)
	if err != nil {
		return nil, nil, fmt.Errorf("receive from dealer %d: %w", d.Dealer, err)
	}
	out := make(map[uint64]*big.Int, len(c.Alloc.Shares[me]))
	for _, x := range c.Alloc.Shares[me] {
		s, ok := c.openShare(d, p, x, shared)
		if !ok {
			proof, err := proveDLEQ(sk, p.ephemeral, shared)
			if err != nil {
				return nil, nil, fmt.Errorf("complain about dealer %d: %w", d.Dealer, err)
			}
			return nil, &Complaint{Dealer: d.Dealer, Complainer: me, SharedKey: shared, Proof: proof}, nil
		}
		out[x] = s
	}
	return out, nil, nil
}

// Judge decides a complaint against its dealing: nil when the dealer is
// guilty (the revealed key is proven and some share of the complainer is
// bad), ErrBadComplaint otherwise.
func (c *Config) Judge(d *Dealing, cp *Complaint) error {
	p, err := c.check(d)
	if err != nil {
		return nil // a malformed dealing is guilty without a complaint
	}
	if cp == nil || cp.Dealer != d.Dealer || cp.Complainer < 0 || cp.Complainer >= len(c.Members) {
		return fmt.Errorf("%w: names another dealing or no member", ErrBadComplaint)
	}
	k, err := bls.PublicKeyFromBytes(cp.SharedKey)
	if err != nil {
		return fmt.Errorf("%w: shared key: %v", ErrBadComplaint, err)
	}
	if !verifyDLEQ(c.Members[cp.Complainer], p.ephemeral, k, cp.Proof) {
		return fmt.Errorf("%w: shared key proof does not verify", ErrBadComplaint)
	}
	for _, x := range c.Alloc.Shares[cp.Complainer] {
		if _, ok := c.openShare(d, p, x, cp.SharedKey); !ok {
			return nil
		}
	}
	return fmt.Errorf("%w: every share of member %d is correct", ErrBadComplaint, cp.Complainer)
}

// Result is the public outcome of a DKG: the qualified dealers, the group
// key and the public key of every share index (PublicShares[x−1]), which
// is what goes on chain with the epoch.
type Result struct {
	Qualified    []int
	GroupKey     *bls.PublicKey
	PublicShares []*bls.PublicKey
}

// Qualify decides the qualified set from the dealings received by the
// deadline (indexed by dealer; nil = silent) and the complaints: a dealer
// is out if silent, malformed, or proven guilty by a complaint. The DKG
// fails (ErrNotQualified) unless the qualified dealers hold a quorum of
// stake, so that more than 1/3 of them are honest and the secret is random
// and unknown to any coalition below the Byzantine bound.
func (c *Config) Qualify(dealings []*Dealing, complaints []*Complaint) ([]int, error) {
	if len(dealings) != len(c.Members) {
		return nil, fmt.Errorf("qualify: %d dealing slots for %d members", len(dealings), len(c.Members))
	}
	out := make([]bool, len(c.Members))
	for i, d := range dealings {
		if d == nil || d.Dealer != i || c.CheckDealing(d) != nil {
			out[i] = true
		}
	}
	for _, cp := range complaints {
		if cp == nil || cp.Dealer < 0 || cp.Dealer >= len(c.Members) || out[cp.Dealer] {
			continue
		}
		if c.Judge(dealings[cp.Dealer], cp) == nil {
			out[cp.Dealer] = true
		}
	}
	var q []int
	qStake, total := new(big.Int), new(big.Int)
	for i, s := range c.Stakes {
		total.Add(total, new(big.Int).SetUint64(s))
		if !out[i] {
			q = append(q, i)
			qStake.Add(qStake, new(big.Int).SetUint64(s))
		}
	}
	if new(big.Int).Mul(qStake, big.NewInt(3)).Cmp(new(big.Int).Lsh(total, 1)) <= 0 {
		return q, fmt.Errorf("%w: %d of %d dealers qualified", ErrNotQualified, len(q), len(c.Members))
	}
	return q, nil
}

// Finish computes the public result from the qualified dealings: the
// group key Σ C_{d,0} and each share's public key, from the summed
// commitment polynomial Σ_d C_{d,k} evaluated at the share index.
func (c *Config) Finish(dealings []*Dealing, qualified []int) (*Result, error) {
	if len(qualified) == 0 {
		return nil, ErrNotQualified
	}
	rows := make([][]*bls.PublicKey, 0, len(qualified))
	for _, i := range qualified {
		p, err := c.check(dealings[i])
		if err != nil {
			return nil, fmt.Errorf("finish: dealer %d: %w", i, err)
		}
		rows = append(rows, p.commitments)
	}
	sum, err := bls.SumColumns(rows)
	if err != nil {
		return nil, fmt.Errorf("finish: commitments: %w", err)
	}
	shares, err := bls.EvalCommitmentsUpTo(sum, c.Alloc.Total)
	if err != nil {
		return nil, fmt.Errorf("finish: public shares: %w", err)
	}
	return &Result{Qualified: qualified, GroupKey: sum[0], PublicShares: shares}, nil
}

// QualifyStored is Qualify (without complaints: a disqualified dealer's
// slot is nil) and Finish for dealings that passed CheckDealing when they
// were stored, as the validator registry's are: each dealing is decoded
// once, and without the subgroup checks CheckDealing made already
// (bls.PublicKeyFromCheckedBytes), which were most of the cost at the
// epoch boundary (docs/benchmarks.md "DKG boundary").
func (c *Config) QualifyStored(dealings []*Dealing) (*Result, error) {
	if len(dealings) != len(c.Members) {
		return nil, fmt.Errorf("qualify: %d dealing slots for %d members", len(dealings), len(c.Members))
	}
	t := c.Alloc.Threshold
	var rows [][]*bls.PublicKey
	var q []int
	qStake, total := new(big.Int), new(big.Int)
	for i, d := range dealings {
		total.Add(total, new(big.Int).SetUint64(c.Stakes[i]))
		if d == nil || d.Dealer != i || len(d.Commitments) != t || len(d.Ciphertexts) != c.Alloc.Total {
			continue
		}
		cs := make([]*bls.PublicKey, t)
		ok := true
		for k, b := range d.Commitments {
			var err error
			if cs[k], err = bls.PublicKeyFromCheckedBytes(b); err != nil {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		rows = append(rows, cs)
		q = append(q, i)
		qStake.Add(qStake, new(big.Int).SetUint64(c.Stakes[i]))
	}
	if new(big.Int).Mul(qStake, big.NewInt(3)).Cmp(new(big.Int).Lsh(total, 1)) <= 0 {
		return nil, fmt.Errorf("%w: %d of %d dealers qualified", ErrNotQualified, len(q), len(c.Members))
	}
	sum, err := bls.SumColumns(rows)
	if err != nil {
		return nil, fmt.Errorf("qualify: commitments: %w", err)
	}
	shares, err := bls.EvalCommitmentsUpTo(sum, c.Alloc.Total)
	if err != nil {
		return nil, fmt.Errorf("finish: public shares: %w", err)
	}
	return &Result{Qualified: q, GroupKey: sum[0], PublicShares: shares}, nil
}

// SecretShares adds up member me's shares from the qualified dealers
// (received[dealer][x], as Receive returned them) into its share keys, by
// share index.
func (c *Config) SecretShares(me int, received map[int]map[uint64]*big.Int, qualified []int) (map[uint64]*bls.SecretKey, error) {
	if me < 0 || me >= len(c.Members) {
		return nil, fmt.Errorf("secret shares: no member %d", me)
	}
	out := make(map[uint64]*bls.SecretKey, len(c.Alloc.Shares[me]))
	for _, x := range c.Alloc.Shares[me] {
		acc := new(big.Int)
		for _, d := range qualified {
			s, ok := received[d][x]
			if !ok {
				return nil, fmt.Errorf("secret shares: no share %d from qualified dealer %d", x, d)
			}
			acc.Add(acc, s)
		}
		sk, err := bls.SecretKeyFromScalar(acc)
		if err != nil {
			return nil, fmt.Errorf("secret share %d: %w", x, err)
		}
		out[x] = sk
	}
	return out, nil
}

// OpenStored is Receive for every qualified dealing of a finished DKG
// followed by SecretShares, for dealings that passed CheckDealing when
// they were stored and whose result (public shares, share x at x−1) is
// known: what a member does to rebuild its share keys from the chain. It
// decrypts and sums the shares first and checks each sum once against its
// public share, instead of each dealer's share against that dealer's
// commitments (a multi-scalar multiplication per dealer and share). When
// a sum does not match, Receive per dealer names the dealer at fault.
func (c *Config) OpenStored(me int, sk *bls.SecretKey, dealings []*Dealing, public []*bls.PublicKey) (map[uint64]*bls.SecretKey, error) {
	if me < 0 || me >= len(c.Members) {
		return nil, fmt.Errorf("open shares: no member %d", me)
	}
	if len(public) != c.Alloc.Total {
		return nil, fmt.Errorf("open shares: %d public shares, the allocation has %d", len(public), c.Alloc.Total)
	}
	sums := make(map[uint64]*big.Int, len(c.Alloc.Shares[me]))
	for _, x := range c.Alloc.Shares[me] {
		sums[x] = new(big.Int)
	}
	for _, d := range dealings {
		if d == nil || d.Dealer < 0 || d.Dealer >= len(c.Members) || len(d.Ciphertexts) != c.Alloc.Total {
			return nil, fmt.Errorf("open shares: %w: not a stored dealing", ErrBadDealing)
		}
		e, err := bls.PublicKeyFromCheckedBytes(d.Ephemeral)
		if err != nil {
			return nil, fmt.Errorf("open shares from dealer %d: %w", d.Dealer, err)
		}
		shared, err := sk.SharedKey(e)
		if err != nil {
			return nil, fmt.Errorf("open shares from dealer %d: %w", d.Dealer, err)
		}
		for _, x := range c.Alloc.Shares[me] {
			if len(d.Ciphertexts[x-1]) != 32 {
				return nil, fmt.Errorf("open shares from dealer %d: %w: ciphertext %d", d.Dealer, ErrBadDealing, x)
			}
			pd := pad(c.Epoch, d.Dealer, x, shared)
			var b [32]byte
			for i := range b {
				b[i] = d.Ciphertexts[x-1][i] ^ pd[i]
			}
			sums[x].Add(sums[x], new(big.Int).SetBytes(b[:]))
		}
	}
	out := make(map[uint64]*bls.SecretKey, len(sums))
	for _, x := range c.Alloc.Shares[me] {
		k, err := bls.SecretKeyFromScalar(sums[x])
		if err != nil || !k.PublicKey().Equal(public[x-1]) {
			for _, d := range dealings {
				if _, cp, err := c.Receive(me, sk, d); err != nil || cp != nil {
					return nil, fmt.Errorf("open shares: dealer %d sent member %d a bad share (%v)", d.Dealer, me, err)
				}
			}
			return nil, fmt.Errorf("open shares: share %d does not match its public share", x)
		}
		out[x] = k
	}
	return out, nil
}

// RunLocal runs the whole protocol with every member's key at hand (sks
// in member order): every member deals, opens and complains, and the
// result is qualified and finished. It is the honest protocol on one
// machine, hence a trusted setup: for genesis files one operator writes
// and for tests. It returns the public result and each member's share
// keys in share order.
func (c *Config) RunLocal(sks []*bls.SecretKey, r io.Reader) (*Result, [][]*bls.SecretKey, error) {
	if len(sks) != len(c.Members) {
		return nil, nil, fmt.Errorf("run dkg: %d keys for %d members", len(sks), len(c.Members))
	}
	dealings := make([]*Dealing, len(c.Members))
	for i := range dealings {
		d, err := c.Deal(i, r)
		if err != nil {
			return nil, nil, fmt.Errorf("run dkg: %w", err)
		}
		dealings[i] = d
	}
	received := make([]map[int]map[uint64]*big.Int, len(c.Members))
	var complaints []*Complaint
	for i, sk := range sks {
		received[i] = map[int]map[uint64]*big.Int{}
		for _, d := range dealings {
			shares, cp, err := c.Receive(i, sk, d)
			if err != nil {
				return nil, nil, fmt.Errorf("run dkg: member %d: %w", i, err)
			}
			if cp != nil {
				complaints = append(complaints, cp)
				continue
			}
			received[i][d.Dealer] = shares
		}
	}
	q, err := c.Qualify(dealings, complaints)
	if err != nil {
		return nil, nil, fmt.Errorf("run dkg: %w", err)
	}
	res, err := c.Finish(dealings, q)
	if err != nil {
		return nil, nil, fmt.Errorf("run dkg: %w", err)
	}
	out := make([][]*bls.SecretKey, len(c.Members))
	for i := range sks {
		m, err := c.SecretShares(i, received[i], q)
		if err != nil {
			return nil, nil, fmt.Errorf("run dkg: %w", err)
		}
		for _, x := range c.Alloc.Shares[i] {
			out[i] = append(out[i], m[x])
		}
	}
	return res, out, nil
}
