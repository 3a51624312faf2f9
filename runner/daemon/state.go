package daemon

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/internal/pebblelog"
)

// jobState is what the daemon keeps of one job it sits on, so a restart
// (even kill -9 between commit and reveal) reveals exactly what it
// committed: the result is written before the commit is sent.
type jobState struct {
	Status     uint8  `json:"status"`
	Output     []byte `json:"output"`
	Usage      uint64 `json:"usage"`
	Sig        []byte `json:"sig"`
	Commitment []byte `json:"commitment"`
	Frozen     bool   `json:"frozen,omitempty"` // the timeout fault: never act
	CommitAt   uint64 `json:"commit_at,omitempty"`
	Pushed     bool   `json:"pushed,omitempty"`
	RevealAt   uint64 `json:"reveal_at,omitempty"`
}

// pushed is a committee peer's result pushed to the aggregator (§5.3
// Collect), authenticated by its signature.
type pushed struct {
	JobID  uint64 `json:"job_id"`
	Member string `json:"member"`
	Status uint8  `json:"status"`
	Output []byte `json:"output"`
	Usage  uint64 `json:"usage"`
	Sig    []byte `json:"sig"`
}

type store struct{ db *pebble.DB }

func openStore(dir string) (*store, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: pebblelog.Quiet{}})
	if err != nil {
		return nil, fmt.Errorf("open runner state %s: %w", dir, err)
	}
	return &store{db: db}, nil
}

func jobKey(id uint64) []byte { return []byte(fmt.Sprintf("job/%020d", id)) }

func pushKey(id uint64, member string) []byte {
	return []byte(fmt.Sprintf("push/%020d/%s", id, member))
}

func (s *store) get(k []byte, v any) (bool, error) {
	b, c, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", k, err)
	}
	defer c.Close()
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("decode %s: %w", k, err)
	}
	return true, nil
}

func (s *store) put(k []byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := s.db.Set(k, b, pebble.Sync); err != nil {
		return fmt.Errorf("write %s: %w", k, err)
	}
	return nil
}

// pushes lists the results pushed for job id.
func (s *store) pushes(id uint64) ([]pushed, error) {
	prefix := []byte(fmt.Sprintf("push/%020d/", id))
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: append(append([]byte{}, prefix[:len(prefix)-1]...), '0')})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []pushed
	for it.First(); it.Valid(); it.Next() {
		var p pushed
		if err := json.Unmarshal(it.Value(), &p); err != nil {
			return nil, fmt.Errorf("decode %s: %w", it.Key(), err)
		}
		out = append(out, p)
	}
	return out, it.Error()
}
