// Package pebblelog is the one Pebble logger the node's databases share:
// the store, the CBFS relay and the runner daemon all keep Pebble's
// informational logs off their users' output, and all stop on its fatal
// errors the same way.
package pebblelog

import "fmt"

// Quiet drops Pebble's info and error logs (the caller reports what
// fails through returned errors) and panics on a fatal one, which Pebble
// raises only when it cannot go on with the database.
type Quiet struct{}

// Infof drops the message.
func (Quiet) Infof(string, ...any) {}

// Errorf drops the message: Pebble also returns the error to its caller.
func (Quiet) Errorf(string, ...any) {}

// Fatalf panics with the message, as Pebble's default logger exits.
func (Quiet) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
