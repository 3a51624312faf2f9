// Package rex is Go's standard regexp package (Go 1.26.8, files
// backtrack.go, exec.go, onepass.go and regexp.go unchanged but for the
// package name; BSD licence in LICENSE) with one addition in at.go:
// SubmatchIndexAt, a search that starts at a byte offset while seeing the
// text before it, which the standard package does internally but does not
// export.
//
// The PVM's re module needs it to implement Python's pos argument and its
// own rule for successive empty matches (Python 3.7+ allows an empty match
// right after a non-empty one; Go's FindAll skips it) without losing the
// context that ^, \A and \b look at.
package rex
