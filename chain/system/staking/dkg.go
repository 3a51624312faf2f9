package staking

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
)

// The epoch beacon's distributed key generation on chain (v2 §3.4, §12.4;
// docs/decisions.md "DKG at epoch boundaries"). The registry is the DKG's
// broadcast channel: every dealing and complaint is a transaction, so
// every node judges the same transcript and computes the same group key.
//
//   - DKG(k+1) opens at the end of epoch k−1's last block (at genesis for
//     DKG(1)), with the validators eligible at that moment, in address
//     order. EpochSet(k+1) is exactly these members: registry changes after
//     the DKG opened (joins, exits, jailing) take effect one epoch later.
//   - A member deals (MethodDeal) in the first DealBlocks(E) blocks of epoch
//     k; each member may deal once and a malformed dealing is refused.
//   - A member complains (MethodComplain) about a dealing whose share to it
//     is bad, any time in epoch k; the registry judges the complaint from
//     the revealed Diffie-Hellman key and its proof, and a proven dealer is
//     disqualified. An unfounded complaint is refused.
//   - At the end of epoch k's last block the registry qualifies the
//     dealers (dealt, not disqualified) and writes EpochBeacon(k+1): the
//     group key and public shares when the qualified dealers hold more than
//     2/3 of the members' weight; otherwise the fallback: epoch k's key
//     carries over when EpochSet(k+1) has the same members and weights as
//     EpochSet(k), and else the epoch has no key (R_n is the proposer's VRF
//     output). Every node computes the same fallback from the same state.
//
// Only a chain whose genesis has a beacon key runs the DKG (InitBeacon).

// The DKG's registry methods.
const (
	MethodDeal     = "dkg_deal"     // [ "dkg_deal", epoch, dealing ], from a member of DKG(epoch)
	MethodComplain = "dkg_complain" // [ "dkg_complain", epoch, complaint ], from a member of DKG(epoch)
)

// Cycle costs of the DKG methods: decoding a dealing's points and judging
// a complaint (a DLEQ check and the complainer's shares against the
// commitments) are a few BLS operations each per commitment.
const (
	DealCycles     = 4 * BLSVerifyCycles
	ComplainCycles = 16 * BLSVerifyCycles
)

// Beacon key sources, as EpochBeacon.Source says.
const (
	BeaconGenesis = "genesis" // the genesis file's key (epoch 0)
	BeaconDKG     = "dkg"     // DKG(epoch) succeeded
	BeaconCarried = "carried" // DKG(epoch) failed; the previous epoch's key carries over
	BeaconNone    = "none"    // DKG(epoch) failed and the set changed: no key
)

const (
	nsDKG    byte = 5 // DKG(epoch) records: members, dealings, disqualifications
	nsBeacon byte = 6 // one EpochBeacon per epoch
)

const (
	dkgMembers byte = 0
	dkgDealing byte = 1
	dkgOut     byte = 2
)

func dkgKey(epoch uint64, kind byte, i uint32) state.Key {
	var slot [32]byte
	binary.BigEndian.PutUint64(slot[19:], epoch)
	slot[27] = kind
	binary.BigEndian.PutUint32(slot[28:], i)
	return key(nsDKG, slot)
}

func beaconKey(epoch uint64) state.Key {
	var slot [32]byte
	binary.BigEndian.PutUint64(slot[24:], epoch)
	return key(nsBeacon, slot)
}

// DealBlocks is how many blocks at the start of an epoch take dealings for
// the next epoch's DKG: the first half, so that the second half is left
// for complaints about the last dealings.
func DealBlocks(epochLength uint64) uint64 { return max(1, epochLength/2) }

// EpochBeacon is the registry's record of an epoch's beacon key (v2 §3.4:
// the group public key and each member's public share in the epoch
// record), or of why the epoch has none.
type EpochBeacon struct {
	_      struct{} `cbor:",toarray"`
	Epoch  uint64
	Source string // BeaconGenesis, BeaconDKG, BeaconCarried or BeaconNone
	// KeyEpoch is the epoch whose DKG made the key (0: genesis).
	KeyEpoch     uint64
	Group        []byte   // 48 bytes; empty for BeaconNone
	PublicShares [][]byte // share x at x−1
	// Qualified are the DKG(KeyEpoch) member indices whose dealings sum
	// to the key (what a member adds up its shares from).
	Qualified []uint64
	// Note says what happened to DKG(Epoch) when it did not make the key.
	Note string
}

// ReadEpochBeacon returns epoch's beacon record, nil when there is none (a
// chain without a genesis beacon key, or an epoch not reached).
func ReadEpochBeacon(st *state.StateDB, epoch uint64) (*EpochBeacon, error) {
	raw := st.Get(beaconKey(epoch))
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read epoch %d beacon: %w", epoch, err)
	}
	if raw == nil {
		return nil, nil
	}
	var b EpochBeacon
	if err := types.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("decode epoch %d beacon: %w", epoch, err)
	}
	return &b, nil
}

func writeEpochBeacon(st *state.StateDB, b *EpochBeacon) error {
	raw, err := types.Marshal(b)
	if err != nil {
		return fmt.Errorf("encode epoch %d beacon: %w", b.Epoch, err)
	}
	st.Set(beaconKey(b.Epoch), raw)
	return nil
}

// InitBeacon records the genesis beacon key as epoch 0's and opens DKG(1)
// with the genesis validators: a chain whose genesis has a beacon key
// renews it by DKG every epoch. Call it after InitGenesis.
func InitBeacon(st *state.StateDB, group []byte, shares [][]byte) error {
	if err := writeEpochBeacon(st, &EpochBeacon{Epoch: 0, Source: BeaconGenesis, Group: group, PublicShares: shares}); err != nil {
		return err
	}
	p, err := ReadParams(st)
	if err != nil {
		return err
	}
	if err := openDKG(st, p, 1); err != nil {
		return err
	}
	return st.Err()
}

// DKGRound is an open DKG as the registry holds it.
type DKGRound struct {
	Epoch   uint64
	Members []Member // address order: EpochSet(Epoch)'s order
	// Dealings by member index (nil: none yet); Out marks the dealers a
	// complaint proved wrong.
	Dealings []*dkg.Dealing
	Out      []bool
}

// Config is the crypto/dkg instance of the round: members' BLS keys and
// weights in member order.
func (r *DKGRound) Config() (*dkg.Config, error) {
	return dkgConfig(r.Epoch, r.Members)
}

func dkgConfig(epoch uint64, members []Member) (*dkg.Config, error) {
	keys := make([]*bls.PublicKey, len(members))
	stakes := make([]uint64, len(members))
	for i, m := range members {
		pk, err := bls.PublicKeyFromBytes(m.BLSPublicKey)
		if err != nil {
			return nil, fmt.Errorf("dkg %d member %s: %w", epoch, m.Address, err)
		}
		keys[i], stakes[i] = pk, m.Weight
	}
	return dkg.NewConfig(epoch, keys, stakes)
}

// Index is the member index of a, or −1.
func (r *DKGRound) Index(a types.Address) int {
	for i, m := range r.Members {
		if m.Address == a {
			return i
		}
	}
	return -1
}

// storedDealing is a dealing's record: [commitments, ephemeral,
// ciphertexts] (the dealer is the key's index).
type storedDealing struct {
	_           struct{} `cbor:",toarray"`
	Commitments [][]byte
	Ephemeral   []byte
	Ciphertexts [][]byte
}

// DealPayload is the registry call that posts a dealing for DKG(epoch).
func DealPayload(epoch uint64, d *dkg.Dealing) []byte {
	return mustMarshal([]any{MethodDeal, epoch, storedDealing{Commitments: d.Commitments, Ephemeral: d.Ephemeral, Ciphertexts: d.Ciphertexts}})
}

// storedComplaint is a complaint's call argument: [dealer, shared_key,
// proof] (the complainer is the sender).
type storedComplaint struct {
	_         struct{} `cbor:",toarray"`
	Dealer    uint64
	SharedKey []byte
	Proof     []byte
}

// ComplainPayload is the registry call that posts a complaint in DKG(epoch).
func ComplainPayload(epoch uint64, c *dkg.Complaint) []byte {
	return mustMarshal([]any{MethodComplain, epoch, storedComplaint{Dealer: uint64(c.Dealer), SharedKey: c.SharedKey, Proof: c.Proof}})
}

// ReadDKG returns DKG(epoch) with its dealings so far, nil when it is not
// open (no beacon on this chain, or finished and cleared).
func ReadDKG(st *state.StateDB, epoch uint64) (*DKGRound, error) {
	members, err := readDKGMembers(st, epoch)
	if err != nil || members == nil {
		return nil, err
	}
	r := &DKGRound{Epoch: epoch, Members: members, Dealings: make([]*dkg.Dealing, len(members)), Out: make([]bool, len(members))}
	for i := range members {
		if raw := st.Get(dkgKey(epoch, dkgDealing, uint32(i))); raw != nil {
			var sd storedDealing
			if err := types.Unmarshal(raw, &sd); err != nil {
				return nil, fmt.Errorf("dkg %d dealing %d: %w", epoch, i, err)
			}
			r.Dealings[i] = &dkg.Dealing{Dealer: i, Commitments: sd.Commitments, Ephemeral: sd.Ephemeral, Ciphertexts: sd.Ciphertexts}
		}
		r.Out[i] = st.Get(dkgKey(epoch, dkgOut, uint32(i))) != nil
	}
	return r, st.Err()
}

func readDKGMembers(st *state.StateDB, epoch uint64) ([]Member, error) {
	raw := st.Get(dkgKey(epoch, dkgMembers, 0))
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read dkg %d: %w", epoch, err)
	}
	if raw == nil {
		return nil, nil
	}
	s, err := decodeSet(raw, epoch)
	if err != nil {
		return nil, fmt.Errorf("dkg %d members: %w", epoch, err)
	}
	return s.Members, nil
}

// openDKG opens DKG(epoch) with the validators eligible now.
func openDKG(st *state.StateDB, p Params, epoch uint64) error {
	vals, err := Validators(st) // address order
	if err != nil {
		return err
	}
	s := &EpochSet{Epoch: epoch, Members: []Member{}}
	for _, v := range vals {
		if eligible(v, p) {
			s.Members = append(s.Members, Member{Address: v.Address, BLSPublicKey: v.BLSPublicKey, Stake: new(big.Int).Set(v.Stake)})
		}
	}
	b, err := EncodeDKGMembers(epoch, s.Members)
	if err != nil {
		return err
	}
	st.Set(dkgKey(epoch, dkgMembers, 0), b)
	return nil
}

// clearDKG deletes DKG(epoch)'s records: its key is no longer used (or it
// failed), so no member needs the dealings to rebuild its shares.
func clearDKG(st *state.StateDB, epoch uint64) error {
	members, err := readDKGMembers(st, epoch)
	if err != nil || members == nil {
		return err
	}
	for i := range members {
		for _, kind := range []byte{dkgDealing, dkgOut} {
			if k := dkgKey(epoch, kind, uint32(i)); st.Get(k) != nil {
				st.Set(k, nil)
			}
		}
	}
	st.Set(dkgKey(epoch, dkgMembers, 0), nil)
	return nil
}

// dkgMember checks a DKG call's epoch argument and window, and returns the
// round and the sender's member index.
func dkgMember(st *state.StateDB, p Params, c Call, raw cbor.RawMessage, deal bool) (*DKGRound, int, error) {
	epoch, err := uintArg(raw, "epoch")
	if err != nil {
		return nil, 0, err
	}
	if p.Epoch(c.Height)+1 != epoch {
		return nil, 0, fmt.Errorf("block %d is in epoch %d: it takes DKG messages for epoch %d only, not %d", c.Height, p.Epoch(c.Height), p.Epoch(c.Height)+1, epoch)
	}
	if deal && c.Height-p.Epoch(c.Height)*p.EpochLength >= DealBlocks(p.EpochLength) {
		return nil, 0, fmt.Errorf("dealings for epoch %d closed after block %d", epoch, p.Epoch(c.Height)*p.EpochLength+DealBlocks(p.EpochLength)-1)
	}
	r, err := ReadDKG(st, epoch)
	if err != nil {
		return nil, 0, err
	}
	if r == nil {
		return nil, 0, fmt.Errorf("no DKG is open for epoch %d (a chain without a genesis beacon key runs none)", epoch)
	}
	i := r.Index(c.From)
	if i < 0 {
		return nil, 0, fmt.Errorf("%s is not a member of the epoch %d DKG", c.From, epoch)
	}
	return r, i, nil
}

// deal records a member's dealing: once per member, well formed (its
// points decode and its sizes fit the round's allocation).
func deal(st *state.StateDB, p Params, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 2, `["dkg_deal", epoch, [commitments, ephemeral, ciphertexts]]`); err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	r, i, err := dkgMember(st, p, c, args[0], true)
	if err != nil {
		return nil, err
	}
	if r.Dealings[i] != nil {
		return nil, fmt.Errorf("%s already dealt in the epoch %d DKG", c.From, r.Epoch)
	}
	var sd storedDealing
	if err := types.Unmarshal(args[1], &sd); err != nil {
		return nil, fmt.Errorf("dealing: %w", err)
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	d := &dkg.Dealing{Dealer: i, Commitments: sd.Commitments, Ephemeral: sd.Ephemeral, Ciphertexts: sd.Ciphertexts}
	if err := cfg.CheckDealing(d); err != nil {
		return nil, err
	}
	enc, err := types.Marshal(&sd)
	if err != nil {
		return nil, fmt.Errorf("encode dealing: %w", err)
	}
	st.Set(dkgKey(r.Epoch, dkgDealing, uint32(i)), enc)
	return map[string]any{"epoch": r.Epoch, "dealer": c.From.Hex()}, nil
}

// complain judges a member's complaint against a dealing: a proven
// dealer is disqualified; an unfounded complaint is refused.
func complain(st *state.StateDB, p Params, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 2, `["dkg_complain", epoch, [dealer, shared_key, proof]]`); err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	r, i, err := dkgMember(st, p, c, args[0], false)
	if err != nil {
		return nil, err
	}
	var sc storedComplaint
	if err := types.Unmarshal(args[1], &sc); err != nil {
		return nil, fmt.Errorf("complaint: %w", err)
	}
	if sc.Dealer >= uint64(len(r.Members)) || r.Dealings[sc.Dealer] == nil {
		return nil, fmt.Errorf("complaint: member %d has no dealing in the epoch %d DKG", sc.Dealer, r.Epoch)
	}
	if r.Out[sc.Dealer] {
		return nil, fmt.Errorf("complaint: dealer %d is already disqualified", sc.Dealer)
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	cp := &dkg.Complaint{Dealer: int(sc.Dealer), Complainer: i, SharedKey: sc.SharedKey, Proof: sc.Proof}
	if err := cfg.Judge(r.Dealings[sc.Dealer], cp); err != nil {
		return nil, err
	}
	st.Set(dkgKey(r.Epoch, dkgOut, uint32(sc.Dealer)), []byte{1})
	return map[string]any{"epoch": r.Epoch, "dealer": r.Members[sc.Dealer].Address.Hex(), "complainer": c.From.Hex()}, nil
}

// frozenMembers is EpochSet(epoch)'s membership when DKG(epoch) ran: its
// members as the DKG opened with them.
func frozenMembers(st *state.StateDB, epoch uint64) ([]Member, error) {
	return readDKGMembers(st, epoch)
}

// sameMembers reports whether two member lists have the same addresses,
// keys and weights in the same order (then they share one allocation).
func sameMembers(a, b []Member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Address != b[i].Address || !bytes.Equal(a[i].BLSPublicKey, b[i].BLSPublicKey) || weightOf(a[i]) != weightOf(b[i]) {
			return false
		}
	}
	return true
}

// sameMemberSet is sameMembers in any order: epoch 0's set is in genesis
// file order, later ones in address order; a key's shares follow its
// members, matched by BLS key, whatever their order.
func sameMemberSet(a, b []Member) bool {
	sorted := func(ms []Member) []Member {
		out := slices.Clone(ms)
		slices.SortFunc(out, func(x, y Member) int { return cmpAddr(x.Address, y.Address) })
		return out
	}
	return sameMembers(sorted(a), sorted(b))
}

func weightOf(m Member) uint64 {
	if m.Stake == nil {
		return m.Weight
	}
	return new(big.Int).Quo(m.Stake, BaseUnitsPerCBY).Uint64()
}

// finishDKG writes EpochBeacon(next.Epoch) from DKG(next.Epoch) at the end
// of the epoch before, and opens the DKG after it. cur is the ending
// epoch's set; chains without a beacon record for it run no DKG.
func finishDKG(st *state.StateDB, p Params, cur, next *EpochSet) error {
	prev, err := ReadEpochBeacon(st, cur.Epoch)
	if err != nil || prev == nil {
		return err
	}
	out, err := decideBeacon(st, prev, cur, next)
	if err != nil {
		return err
	}
	if err := writeEpochBeacon(st, out); err != nil {
		return err
	}
	// The transcripts left in use: the new key's (for its members to
	// rebuild their shares after a restart).
	if prev.Source != BeaconNone && prev.KeyEpoch != 0 && (out.Source == BeaconNone || out.KeyEpoch != prev.KeyEpoch) {
		if err := clearDKG(st, prev.KeyEpoch); err != nil {
			return err
		}
	}
	if out.Source != BeaconDKG {
		if err := clearDKG(st, next.Epoch); err != nil {
			return err
		}
	}
	return openDKG(st, p, next.Epoch+1)
}

// decideBeacon is the DKG's outcome for next.Epoch, the same on every
// node: the DKG's key if its qualified dealers hold more than 2/3 of the
// weight, else the previous key if the set did not change, else none.
func decideBeacon(st *state.StateDB, prev *EpochBeacon, cur, next *EpochSet) (*EpochBeacon, error) {
	e := next.Epoch
	var why string
	r, err := ReadDKG(st, e)
	switch {
	case err != nil:
		return nil, err
	case r == nil:
		why = fmt.Sprintf("no DKG ran for epoch %d", e)
	case !sameMembers(r.Members, next.Members):
		why = fmt.Sprintf("epoch %d's set is not the DKG's", e)
	default:
		res, err := qualify(r)
		if err == nil {
			b := &EpochBeacon{Epoch: e, Source: BeaconDKG, KeyEpoch: e, Group: res.GroupKey.Bytes(), PublicShares: make([][]byte, len(res.PublicShares))}
			for x, pk := range res.PublicShares {
				b.PublicShares[x] = pk.Bytes()
			}
			for _, q := range res.Qualified {
				b.Qualified = append(b.Qualified, uint64(q))
			}
			return b, nil
		}
		why = fmt.Sprintf("the epoch %d DKG failed: %v", e, err)
	}
	if prev.Source != BeaconNone && sameMemberSet(cur.Members, next.Members) {
		return &EpochBeacon{Epoch: e, Source: BeaconCarried, KeyEpoch: prev.KeyEpoch, Group: prev.Group,
			PublicShares: prev.PublicShares, Qualified: prev.Qualified, Note: why + "; epoch " + fmt.Sprint(cur.Epoch) + "'s key carries over"}, nil
	}
	return &EpochBeacon{Epoch: e, Source: BeaconNone, KeyEpoch: e, Note: why + "; the set changed, so no earlier key fits: proposer VRF"}, nil
}

// qualify runs crypto/dkg's qualification and result on the round.
func qualify(r *DKGRound) (*dkg.Result, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	dealings := make([]*dkg.Dealing, len(r.Dealings))
	for i, d := range r.Dealings {
		if !r.Out[i] {
			dealings[i] = d
		}
	}
	// Every stored dealing passed CheckDealing in deal(), so the boundary
	// decodes them once and skips the subgroup checks made then; the
	// qualified set and key are what Qualify and Finish would compute.
	res, err := cfg.QualifyStored(dealings)
	if err != nil {
		return nil, err
	}
	if len(res.Qualified) == 0 {
		return nil, errors.New("no qualified dealer")
	}
	return res, nil
}
