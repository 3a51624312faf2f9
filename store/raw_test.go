package store

import (
	"bytes"
	"errors"
	"testing"
)

func TestPutRawSurvivesReopenAndKeepsHeight(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutRaw([]RawWrite{{Key: []byte("k"), Value: []byte("v")}, {Key: []byte("gone"), Value: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRaw([]RawWrite{{Key: []byte("gone")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.LastCommitted(); ok {
		t.Fatal("PutRaw committed a height")
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.GetRaw([]byte("k")); err != nil || !bytes.Equal(v, []byte("v")) {
		t.Fatalf("k = %q, %v", v, err)
	}
	if _, err := s.GetRaw([]byte("gone")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted key: %v", err)
	}
}
