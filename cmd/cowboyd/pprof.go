package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/spf13/cobra"
)

// addPprof gives every command the --pprof flag: with an address, Go's
// profiles (net/http/pprof) are served there for the life of the process,
// e.g. `go tool pprof http://127.0.0.1:6060/debug/pprof/profile?seconds=20`
// while a benchmark runs. Off by default; a profile shows the node's
// internals, so give a loopback address.
func addPprof(root *cobra.Command, stderr io.Writer) {
	var addr string
	root.PersistentFlags().StringVar(&addr, "pprof", "", "serve Go profiles (net/http/pprof) on this address, e.g. 127.0.0.1:6060; off when empty")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if addr == "" {
			return nil
		}
		a, err := startPprof(addr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "pprof        http://%s/debug/pprof/\n", a)
		return nil
	}
}

// startPprof serves the profiles on addr from their own mux (nothing else
// is exposed) until the process ends, and returns the address it listens
// on (addr may name port 0).
func startPprof(addr string) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }() // ends with the process
	return ln.Addr(), nil
}
