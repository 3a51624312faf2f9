package explorer

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// The pages, each parsed with the shared layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"cby":    func(v *rpc.BigQuantity) string { return types.FormatCBY(v.Int()) },
		"cbyInt": func(v *big.Int) string { return types.FormatCBY(v) },
		"group":  func(q rpc.Quantity) string { return types.GroupDigits(strconv.FormatUint(uint64(q), 10)) },
		"dec":    func(q rpc.Quantity) uint64 { return uint64(q) },
		"indent": func(depth rpc.Quantity) string { return strings.Repeat("\u00a0\u00a0", int(depth)) },
		"ok":     func(st rpc.Quantity) bool { return uint64(st) == types.ReceiptSuccess },
		"short":  short,
		"deref":  func(q *rpc.Quantity) rpc.Quantity { return *q },
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"home", "block", "tx", "address", "validators", "error"} {
		out[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
	}
	return out
}()

// short abbreviates a hash or address for tables: 0x1234…abcd.
func short(s fmt.Stringer) string {
	v := s.String()
	if len(v) <= 14 {
		return v
	}
	return v[:6] + "…" + v[len(v)-4:]
}

// Explorer serves the pages. Requests that are not page loads (POST
// JSON-RPC, WebSocket upgrades) go to next, the node's RPC server.
type Explorer struct {
	b    rpc.Backend
	next http.Handler
	log  *slog.Logger
	mux  *http.ServeMux
}

// New returns the explorer over b, in front of next.
func New(b rpc.Backend, next http.Handler, log *slog.Logger) *Explorer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Explorer{b: b, next: next, log: log, mux: http.NewServeMux()}
	static, _ := fs.Sub(staticFS, "static") // the directory is embedded above
	e.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	e.mux.HandleFunc("GET /{$}", e.home)
	e.mux.HandleFunc("GET /block/{ref}", e.block)
	e.mux.HandleFunc("GET /tx/{hash}", e.tx)
	e.mux.HandleFunc("GET /address/{addr}", e.address)
	e.mux.HandleFunc("GET /validators", e.validators)
	e.mux.HandleFunc("GET /search", e.search)
	e.mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		e.fail(w, http.StatusNotFound, "There is no page at this address.")
	})
	return e
}

// hostRE is what a Host header may be for it to go into the policy.
var hostRE = regexp.MustCompile(`^[A-Za-z0-9.\-\[\]:]+$`)

// ServeHTTP sends page loads to the pages and everything else to next.
func (e *Explorer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if (r.Method != http.MethodGet && r.Method != http.MethodHead) || strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		e.next.ServeHTTP(w, r)
		return
	}
	// Only this origin: no inline script or style, no framing; the
	// WebSocket of live heads is the one connection the script opens.
	connect := "'self'"
	if hostRE.MatchString(r.Host) {
		connect += " ws://" + r.Host + " wss://" + r.Host
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src "+connect+"; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	e.mux.ServeHTTP(w, r)
}

// render writes a page, or a 500 page if it does not render.
func (e *Explorer) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages[name].Execute(&buf, data); err != nil {
		e.log.Error("explorer page", "page", name, "err", err)
		status, buf = http.StatusInternalServerError, bytes.Buffer{}
		pages["error"].Execute(&buf, errorPage{Title: "Error", Status: status, Message: "This page failed to render."})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

type errorPage struct {
	Title   string
	Status  int
	Message string
}

func (e *Explorer) fail(w http.ResponseWriter, status int, msg string) {
	e.render(w, status, "error", errorPage{Title: http.StatusText(status), Status: status, Message: msg})
}

// failErr answers a backend failure: not found is a 404, anything else a 500.
func (e *Explorer) failErr(w http.ResponseWriter, what string, err error) {
	if errors.Is(err, rpc.ErrNotFound) {
		e.fail(w, http.StatusNotFound, what+" was not found on this node.")
		return
	}
	e.log.Error("explorer read", "what", what, "err", err)
	e.fail(w, http.StatusInternalServerError, what+": the node failed to read it.")
}

// quote cuts user input for an error page.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

// search sends a height, hash or address to its page.
func (e *Explorer) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	switch {
	case q == "":
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	case isDigits(q):
		http.Redirect(w, r, "/block/"+q, http.StatusSeeOther)
		return
	}
	if h, err := types.ParseHash(q); err == nil {
		if _, err := e.b.BlockByHash(h); err == nil {
			http.Redirect(w, r, "/block/"+h.Hex(), http.StatusSeeOther)
			return
		}
		if _, _, err := e.b.TransactionByHash(h); err == nil {
			http.Redirect(w, r, "/tx/"+h.Hex(), http.StatusSeeOther)
			return
		}
		e.fail(w, http.StatusNotFound, "No block or transaction has the hash "+h.Hex()+".")
		return
	}
	if a, err := types.ParseAddress(q); err == nil {
		http.Redirect(w, r, "/address/"+a.Hex(), http.StatusSeeOther)
		return
	}
	e.fail(w, http.StatusBadRequest, "Search takes a block height, a block or transaction hash (0x and 64 hex digits) or an address (0x and 40 hex digits), not "+quote(q)+".")
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
