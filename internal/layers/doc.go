// Package layers holds the test that keeps the repository's folders
// layered: each folder imports only downward (docs/architecture.md). It
// has no code of its own.
package layers
