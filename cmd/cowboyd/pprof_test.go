package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestPprof: --pprof serves the profile index and nothing else on its
// address, and a bad address is an error naming the flag.
func TestPprof(t *testing.T) {
	a, err := startPprof("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/debug/pprof/", http.StatusOK},
		{"/debug/pprof/goroutine?debug=1", http.StatusOK},
		{"/", http.StatusNotFound},
	} {
		resp, err := http.Get("http://" + a.String() + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s: HTTP %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
	}
	if _, err := startPprof("256.0.0.1:x"); err == nil || !strings.Contains(err.Error(), "--pprof") {
		t.Fatalf("bad address: %v", err)
	}
}
