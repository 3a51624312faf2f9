// Package cowboysdk ships the actor-side Python SDK, cowboy_sdk, inside the
// node: the PVM imports cowboy_sdk/__init__.py from here, and the same file
// is what editors and local tests see under sdk/python/, so there is one
// source of truth.
package cowboysdk

import _ "embed"

//go:embed cowboy_sdk/__init__.py
var source []byte

// Source returns the Python source of the cowboy_sdk module.
func Source() ([]byte, error) { return source, nil }
