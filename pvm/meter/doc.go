// Package meter is the PVM's Cycles/Cells meter and its consensus cost table.
//
// Every bytecode instruction the interpreter executes is charged here before it
// runs (CIP-3 §2.2.1): a Meter holds one remaining-cycles counter so the hot
// loop pays a single subtraction. Cells count bytes that cross the boundary of
// the call (CIP-3 §2.2.2, technical spec §4.1). Memory (technical spec §3.2:
// 10 MiB of live heap per call, measured through the VM's walk when the
// allocation counter reaches it) and call depth (§3.3: 32) are limits on the same Meter so
// that one value carries every bound an untrusted program can push against.
//
// The package never reads a clock, the Go heap or any global: the same program
// charges exactly the same numbers on every machine. It must never import the
// chain, node or store packages.
package meter
