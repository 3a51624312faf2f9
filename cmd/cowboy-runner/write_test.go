package main

import (
	"os"
	"testing"
)

// mustWrite writes a test input and stops the test if it cannot: a test
// that goes on without its input checks nothing.
func mustWrite(t testing.TB, path string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, data, perm); err != nil {
		t.Fatalf("write test input: %v", err)
	}
}
