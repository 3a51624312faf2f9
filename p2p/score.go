package p2p

import (
	"math"
	"sync"
	"time"
)

// Penalties subtracted from a peer's score. A wrong network is not malice
// but will never heal, so it bans at once; one malformed or oversized frame
// costs less than a ban, so a single corrupted packet does not exile a
// validator, but repeated garbage does.
const (
	penaltyBadFrame  = 40  // undecodable frame, unknown kind or topic
	penaltyOversize  = 40  // frame longer than its cap
	penaltyRateLimit = 25  // over the message or byte budget
	penaltyBadHello  = 40  // missing, malformed or lying Hello
	penaltyWrongNet  = 100 // other chain id, genesis or protocol version
)

// scoreboard keeps scores and bans by PeerID across connections. Entries
// are dropped once their score has recovered to 0 and any ban has passed,
// so its size is bounded by recent misbehaviour.
type scoreboard struct {
	mu      sync.Mutex
	lim     *Limits
	entries map[PeerID]*scoreEntry
}

type scoreEntry struct {
	score       float64
	updated     time.Time
	bannedUntil time.Time
}

func newScoreboard(lim *Limits) *scoreboard {
	return &scoreboard{lim: lim, entries: make(map[PeerID]*scoreEntry)}
}

// recover moves e's score toward 0 for the time since it was last updated.
func (s *scoreboard) recover(e *scoreEntry, now time.Time) {
	if dt := now.Sub(e.updated); dt > 0 {
		e.score = min(0, e.score+dt.Minutes()*s.lim.ScoreRecoveryPerMin)
		e.updated = now
	}
}

// penalize lowers id's score and reports whether it is now banned.
func (s *scoreboard) penalize(id PeerID, penalty int, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[id]
	if e == nil {
		e = &scoreEntry{updated: now}
		s.entries[id] = e
	}
	s.recover(e, now)
	e.score -= float64(penalty)
	if e.score <= float64(s.lim.BanScore) {
		e.bannedUntil = now.Add(s.lim.BanDuration)
		// The ban is the punishment; afterwards the peer starts again
		// just above the threshold, so one more offence bans it again.
		e.score = float64(s.lim.BanScore) / 2
	}
	return now.Before(e.bannedUntil)
}

// banned reports whether id may not connect now.
func (s *scoreboard) banned(id PeerID, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[id]
	return e != nil && now.Before(e.bannedUntil)
}

// score is id's current score (0 for a peer never penalised).
func (s *scoreboard) score(id PeerID, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[id]
	if e == nil {
		return 0
	}
	s.recover(e, now)
	return int(math.Round(e.score))
}

// prune drops entries with nothing left to remember.
func (s *scoreboard) prune(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range s.entries {
		s.recover(e, now)
		if e.score >= 0 && !now.Before(e.bannedUntil) {
			delete(s.entries, id)
		}
	}
}
