package rpc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// BlockRef names a block by height or by the tags "latest" and "earliest",
// as the first parameter of cowboy_getBlockByNumber.
type BlockRef struct {
	tag    string // "latest", "earliest", or "" for a height
	height uint64
}

// The two block tags.
var (
	LatestBlock   = BlockRef{tag: "latest"}
	EarliestBlock = BlockRef{tag: "earliest"}
)

// BlockAt names the block at height.
func BlockAt(height uint64) BlockRef { return BlockRef{height: height} }

// ParseBlockRef reads what a user types: "latest", "earliest", a decimal
// height, or a 0x-hex quantity.
func ParseBlockRef(s string) (BlockRef, error) {
	switch s {
	case "latest", "":
		return LatestBlock, nil
	case "earliest":
		return EarliestBlock, nil
	}
	if strings.HasPrefix(s, "0x") {
		var q Quantity
		if err := q.UnmarshalText([]byte(s)); err != nil {
			return BlockRef{}, fmt.Errorf("block %q: %w", s, err)
		}
		return BlockAt(uint64(q)), nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return BlockRef{}, fmt.Errorf("block %q: want a height, latest or earliest", s)
	}
	return BlockAt(n), nil
}

// Height returns the height and true, or false for a tag.
func (r BlockRef) Height() (uint64, bool) { return r.height, r.tag == "" }

// String is the wire form: the tag, or the height as a quantity.
func (r BlockRef) String() string {
	if r.tag != "" {
		return r.tag
	}
	return Quantity(r.height).String()
}

// MarshalJSON writes the wire form as a JSON string.
func (r BlockRef) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// UnmarshalJSON accepts "latest", "earliest" or a quantity; "pending" is
// refused because there is no pending block.
func (r *BlockRef) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want \"latest\", \"earliest\" or a 0x-hex height: %w", err)
	}
	switch s {
	case "latest":
		*r = LatestBlock
		return nil
	case "earliest":
		*r = EarliestBlock
		return nil
	}
	var q Quantity
	if err := q.UnmarshalText([]byte(s)); err != nil {
		return fmt.Errorf("want \"latest\", \"earliest\" or a 0x-hex height: %w", err)
	}
	*r = BlockAt(uint64(q))
	return nil
}
