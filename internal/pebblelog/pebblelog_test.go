package pebblelog

import (
	"strings"
	"testing"
)

func TestQuiet(t *testing.T) {
	var q Quiet
	q.Infof("x %d", 1)
	q.Errorf("x %d", 1)
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || !strings.Contains(s, "pebble: disk 7 gone") {
			t.Fatalf("Fatalf panicked with %v, want the formatted message", r)
		}
	}()
	q.Fatalf("disk %d gone", 7)
	t.Fatal("Fatalf returned")
}
