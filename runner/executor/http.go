package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
)

// MaxFetchBytes caps one HTTP job's response body.
const MaxFetchBytes = 1 << 20

// HTTP fetches a URL of an allowed domain and extracts a part of the
// response: input {"url", "method"? (GET or POST), "body"?, "jsonpath"?
// ($.a.b[0] paths), "regex"? (the first group, else the whole match)}.
// Usage is the KiB fetched (rounded up).
type HTTP struct {
	Domains []string // hosts the runner fetches from (its registered capabilities)
	Client  *http.Client
	Retries int
	Backoff time.Duration
}

type httpInput struct {
	URL      string `json:"url"`
	Method   string `json:"method,omitempty"`
	Body     string `json:"body,omitempty"`
	JSONPath string `json:"jsonpath,omitempty"`
	Regex    string `json:"regex,omitempty"`
}

// fetchTimeout bounds one request when HTTP has no Client of its own.
const fetchTimeout = 30 * time.Second

// schedule is the attempts and first backoff of a fetch: Retries attempts
// (3 when it is 0, 1 when it is negative) and Backoff (firstBackoff's
// default when not positive).
func (h *HTTP) schedule() (attempts int, backoff time.Duration) {
	attempts = max(h.Retries, 1)
	if h.Retries == 0 {
		attempts = 3
	}
	return attempts, firstBackoff(h.Backoff)
}

// Execute runs one HTTP job.
func (h *HTTP) Execute(ctx context.Context, j Job) Result {
	var in httpInput
	if err := json.Unmarshal(j.Input, &in); err != nil {
		return fault(runner.StatusActorFault, "http input: %v", err)
	}
	u, err := url.Parse(in.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fault(runner.StatusActorFault, "http input: url %q is not an http(s) URL", in.URL)
	}
	if !slices.Contains(h.Domains, strings.ToLower(u.Hostname())) {
		return fault(runner.StatusExternal, "domain %s is not on this runner's allow-list", u.Hostname())
	}
	method := strings.ToUpper(in.Method)
	if method == "" {
		method = http.MethodGet
	}
	if method != http.MethodGet && method != http.MethodPost {
		return fault(runner.StatusActorFault, "http input: method %s: want GET or POST", method)
	}
	var re *regexp.Regexp
	if in.Regex != "" {
		if re, err = regexp.Compile(in.Regex); err != nil {
			return fault(runner.StatusActorFault, "http input: regex: %v", err)
		}
	}
	client := h.Client
	if client == nil {
		client = &http.Client{Timeout: fetchTimeout}
	}
	attempts, backoff := h.schedule()
	var body []byte
	res := Result{}
	retry(ctx, attempts, backoff, func() bool {
		req, err := http.NewRequestWithContext(ctx, method, in.URL, strings.NewReader(in.Body))
		if err != nil {
			res = fault(runner.StatusActorFault, "http request: %v", err)
			return false
		}
		resp, err := client.Do(req)
		if err != nil {
			res = fault(runner.StatusExternal, "fetch %s: %v", u.Hostname(), err)
			return true
		}
		defer resp.Body.Close()
		body, err = io.ReadAll(io.LimitReader(resp.Body, MaxFetchBytes+1))
		switch {
		case err != nil:
			res = fault(runner.StatusExternal, "read %s: %v", u.Hostname(), err)
			return true
		case resp.StatusCode >= 500:
			res = fault(runner.StatusExternal, "%s: HTTP %d", u.Hostname(), resp.StatusCode)
			return true
		case resp.StatusCode >= 400:
			res = fault(runner.StatusExternal, "%s: HTTP %d", u.Hostname(), resp.StatusCode)
			return false
		case len(body) > MaxFetchBytes:
			res = fault(runner.StatusImpossible, "the response is over %d bytes", MaxFetchBytes)
			return false
		}
		res = Result{Status: runner.StatusOK}
		return false
	})
	if res.Status != runner.StatusOK {
		return res
	}
	usage := uint64((len(body) + 1023) / 1024)
	out := body
	if in.JSONPath != "" {
		v, err := jsonPath(body, in.JSONPath)
		if err != nil {
			return Result{Status: runner.StatusExternal, Output: []byte(err.Error()), Usage: usage}
		}
		out = v
	}
	if re != nil {
		m := re.FindSubmatch(out)
		if m == nil {
			return Result{Status: runner.StatusExternal, Output: []byte("regex did not match the response"), Usage: usage}
		}
		out = m[0]
		if len(m) > 1 {
			out = m[1]
		}
	}
	return Result{Status: runner.StatusOK, Output: out, Usage: usage}
}

// jsonPath extracts $.a.b[0].c from a JSON document and returns it as
// JSON (a string value without its quotes).
func jsonPath(doc []byte, path string) ([]byte, error) {
	var v any
	d := json.NewDecoder(strings.NewReader(string(doc)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("jsonpath: the response is not JSON: %v", err)
	}
	p, ok := strings.CutPrefix(path, "$")
	if !ok {
		return nil, fmt.Errorf("jsonpath %q must start with $", path)
	}
	for p != "" {
		switch {
		case p[0] == '.':
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("jsonpath %s: not an object at %q", path, p)
			}
			if v, ok = m[p[:end]]; !ok {
				return nil, fmt.Errorf("jsonpath %s: no key %q", path, p[:end])
			}
			p = p[end:]
		case p[0] == '[':
			idx, rest, closed := strings.Cut(p[1:], "]")
			if !closed {
				return nil, fmt.Errorf("jsonpath %s: unclosed [", path)
			}
			i, err := strconv.Atoi(idx)
			l, ok := v.([]any)
			if err != nil || !ok || i < 0 || i >= len(l) {
				return nil, fmt.Errorf("jsonpath %s: no index %s", path, idx)
			}
			v, p = l[i], rest
		default:
			return nil, fmt.Errorf("jsonpath %s: unexpected %q", path, p)
		}
	}
	if s, ok := v.(string); ok {
		return []byte(s), nil
	}
	return json.Marshal(v)
}
