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

//go:embed cowboy_sdk/runner.py
var runnerSource []byte

// RunnerSource returns the Python source of cowboy_sdk.runner (the runner
// market's actor side; a submodule so other actors do not load it).
func RunnerSource() ([]byte, error) { return runnerSource, nil }
