package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Testscript commands for the model review: a scripted model server inside the test process
// that speaks the OpenAI and Anthropic wire formats, with real response shapes taken from
// fixtures in testdata/model.
//
//	modelserver NAME KIND [SCRIPT]
//	    KIND openai: POST /v1/chat/completions; NAME_URL is http://127.0.0.1:PORT/v1 (base_url).
//	    KIND anthropic: POST /v1/messages; NAME_URL is http://127.0.0.1:PORT.
//	    KIND closed: a port that was free and is closed again (connection refused); no SCRIPT.
//	    NAME_ADDR is 127.0.0.1:PORT (for net.connect), NAME_PORT the port. The server stops
//	    when the script ends.
//	    Every request body is written to $WORK/NAME-requests/N.json and its request line and
//	    headers to N.headers (N from 1); every byte received so far, on any connection, to
//	    $WORK/NAME-requests-received. Accepted TCP connections and requests are counted.
//
//	    SCRIPT holds one reply per request, in order, separated by lines "---". A reply starts
//	    with a header line "STATUS [FIXTURE] [sleep=DURATION]"; the lines after it are the body.
//	    With FIXTURE the body is testdata/model/FIXTURE with its string "<<TEXT>>" replaced by
//	    the JSON-quoted lines (the model's text); without, the lines are the body verbatim.
//	    sleep delays the reply (cut short when the client goes away). Lines starting with "#"
//	    before the header are comments. A request after the last reply gets HTTP 500 with an
//	    OpenAI-style error body, so an unexpected request fails the review visibly.
//
//	    Like the real services, an anthropic server answers 401 without x-api-key and 400
//	    without anthropic-version or max_tokens; both answer 404 on another path and 400 on a
//	    body that is not JSON.
//
//	modelcount NAME CONNS REQUESTS
//	    asserts the number of accepted connections and of requests so far.
//
//	modelfixture FIXTURE TEXTFILE|- OUT
//	    renders testdata/model/FIXTURE with "<<TEXT>>" replaced by the JSON-quoted content of
//	    TEXTFILE (trailing newline dropped), for fake agent CLIs to print.
//
//	expandenv SRC DST
//	    copies SRC to DST with $VAR and ${VAR} expanded from the script's environment (archive
//	    files are not expanded by testscript; configs need the server's address).

// modelFixtureDir is testdata/model, relative to the package directory tests run in.
var modelFixtureDir = filepath.Join("..", "..", "testdata", "model")

const textPlaceholder = `"<<TEXT>>"`

type scriptedReply struct {
	status int
	body   []byte
	delay  time.Duration
}

type modelServer struct {
	kind    string
	dir     string // where requests are recorded
	replies []scriptedReply

	mu       sync.Mutex
	conns    int
	requests int
	received bytes.Buffer // every byte read from every connection
}

var (
	modelServersMu sync.Mutex
	modelServers   = map[string]*modelServer{}
)

type countingListener struct {
	net.Listener
	s *modelServer
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.s.mu.Lock()
	l.s.conns++
	l.s.mu.Unlock()
	return recordingConn{Conn: c, s: l.s}, nil
}

// recordingConn keeps every byte the server reads, for $WORK/NAME-received.
type recordingConn struct {
	net.Conn
	s *modelServer
}

func (c recordingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.s.mu.Lock()
	c.s.received.Write(p[:n])
	c.s.mu.Unlock()
	return n, err
}

func fixturePath(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("fixture %q: want a file name in testdata/model", name)
	}
	dir, err := filepath.Abs(modelFixtureDir)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// renderFixture fills a fixture's "<<TEXT>>" with text.
func renderFixture(name, text string) ([]byte, error) {
	p, err := fixturePath(name)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	quoted, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(data, []byte(textPlaceholder), quoted), nil
}

// parseModelScript reads the replies of a SCRIPT file.
func parseModelScript(data string) ([]scriptedReply, error) {
	var out []scriptedReply
	sections := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n---\n")
	for i, sec := range sections {
		lines := strings.Split(sec, "\n")
		for len(lines) > 0 && (strings.HasPrefix(lines[0], "#") || strings.TrimSpace(lines[0]) == "") {
			lines = lines[1:]
		}
		if len(lines) == 0 {
			if i == len(sections)-1 && strings.TrimSpace(strings.TrimSuffix(sec, "---\n")) == "" {
				continue
			}
			return nil, fmt.Errorf("reply %d: no status line", i+1)
		}
		fields := strings.Fields(lines[0])
		status, err := strconv.Atoi(fields[0])
		if err != nil || status < 100 || status > 599 {
			return nil, fmt.Errorf("reply %d: bad status line %q", i+1, lines[0])
		}
		r := scriptedReply{status: status}
		fixture := ""
		for _, f := range fields[1:] {
			if d, ok := strings.CutPrefix(f, "sleep="); ok {
				if r.delay, err = time.ParseDuration(d); err != nil {
					return nil, fmt.Errorf("reply %d: %v", i+1, err)
				}
				continue
			}
			fixture = f
		}
		text := strings.TrimRight(strings.Join(lines[1:], "\n"), "\n")
		if fixture != "" {
			if r.body, err = renderFixture(fixture, text); err != nil {
				return nil, fmt.Errorf("reply %d: %v", i+1, err)
			}
		} else {
			r.body = []byte(text)
		}
		out = append(out, r)
	}
	return out, nil
}

func jsonError(w http.ResponseWriter, status int, kind, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var v any
	if kind == "anthropic" {
		v = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	} else {
		v = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	json.NewEncoder(w).Encode(v)
}

func (s *modelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests++
	n := s.requests
	raw := bytes.Clone(s.received.Bytes())
	s.mu.Unlock()
	_ = os.WriteFile(s.dir+"-received", raw, 0o644)
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "%s %s\n", r.Method, r.URL.RequestURI())
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range r.Header[k] {
			fmt.Fprintf(&hdr, "%s: %s\n", k, v)
		}
	}
	base := filepath.Join(s.dir, strconv.Itoa(n))
	_ = os.WriteFile(base+".json", body, 0o644)
	_ = os.WriteFile(base+".headers", []byte(hdr.String()), 0o644)

	path := "/v1/chat/completions"
	if s.kind == "anthropic" {
		path = "/v1/messages"
	}
	var req map[string]any
	switch {
	case r.Method != http.MethodPost || r.URL.Path != path:
		jsonError(w, http.StatusNotFound, s.kind, "not_found_error", "modelserver: no route "+r.Method+" "+r.URL.Path)
		return
	case json.Unmarshal(body, &req) != nil:
		jsonError(w, http.StatusBadRequest, s.kind, "invalid_request_error", "modelserver: the body is not JSON")
		return
	case s.kind == "anthropic" && r.Header.Get("x-api-key") == "":
		jsonError(w, http.StatusUnauthorized, s.kind, "authentication_error", "x-api-key header is required")
		return
	case s.kind == "anthropic" && r.Header.Get("anthropic-version") == "":
		jsonError(w, http.StatusBadRequest, s.kind, "invalid_request_error", "anthropic-version: header is required")
		return
	case s.kind == "anthropic" && req["max_tokens"] == nil:
		jsonError(w, http.StatusBadRequest, s.kind, "invalid_request_error", "max_tokens: Field required")
		return
	}
	if n > len(s.replies) {
		jsonError(w, http.StatusInternalServerError, "openai", "server_error", fmt.Sprintf("modelserver: no scripted reply for request %d", n))
		return
	}
	reply := s.replies[n-1]
	if reply.delay > 0 {
		select {
		case <-time.After(reply.delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(reply.status)
	w.Write(reply.body)
}

func modelServerKey(ts *testscript.TestScript, name string) string {
	return ts.Getenv("WORK") + "\x00" + name
}

// cmdModelServer: modelserver NAME KIND [SCRIPT]
func cmdModelServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: modelserver NAME openai|anthropic SCRIPT | modelserver NAME closed")
	}
	name, kind := args[0], args[1]
	env := strings.ToUpper(name)
	if kind == "closed" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		addr := ln.Addr().String()
		ts.Check(ln.Close())
		setServerEnv(ts, env, "http://"+addr+"/v1", addr)
		return
	}
	if kind != "openai" && kind != "anthropic" || len(args) != 3 {
		ts.Fatalf("usage: modelserver NAME openai|anthropic SCRIPT")
	}
	replies, err := parseModelScript(ts.ReadFile(args[2]))
	if err != nil {
		ts.Fatalf("modelserver %s: %v", args[2], err)
	}
	s := &modelServer{kind: kind, replies: replies, dir: filepath.Join(ts.Getenv("WORK"), name+"-requests")}
	ts.Check(os.MkdirAll(s.dir, 0o755))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := httptest.NewUnstartedServer(s)
	srv.Listener.Close()
	srv.Listener = countingListener{Listener: ln, s: s}
	srv.Start()
	ts.Defer(srv.Close)
	addr := ln.Addr().String()
	url := "http://" + addr
	if kind == "openai" {
		url += "/v1"
	}
	setServerEnv(ts, env, url, addr)
	modelServersMu.Lock()
	modelServers[modelServerKey(ts, name)] = s
	modelServersMu.Unlock()
	ts.Defer(func() {
		modelServersMu.Lock()
		delete(modelServers, modelServerKey(ts, name))
		modelServersMu.Unlock()
	})
}

func setServerEnv(ts *testscript.TestScript, env, url, addr string) {
	_, port, _ := net.SplitHostPort(addr)
	ts.Setenv(env+"_URL", url)
	ts.Setenv(env+"_ADDR", addr)
	ts.Setenv(env+"_PORT", port)
}

// cmdModelCount: modelcount NAME CONNS REQUESTS
func cmdModelCount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: modelcount NAME CONNS REQUESTS")
	}
	modelServersMu.Lock()
	s := modelServers[modelServerKey(ts, args[0])]
	modelServersMu.Unlock()
	if s == nil {
		ts.Fatalf("no model server %q", args[0])
	}
	wantConns, err1 := strconv.Atoi(args[1])
	wantReqs, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil {
		ts.Fatalf("usage: modelcount NAME CONNS REQUESTS (numbers)")
	}
	// The client has exited; give the accept loop a moment to take anything still queued.
	time.Sleep(50 * time.Millisecond)
	s.mu.Lock()
	conns, reqs := s.conns, s.requests
	s.mu.Unlock()
	if conns != wantConns || reqs != wantReqs {
		ts.Fatalf("model server %s: %d connections and %d requests, want %d and %d", args[0], conns, reqs, wantConns, wantReqs)
	}
}

// cmdModelFixture: modelfixture FIXTURE TEXTFILE|- OUT
func cmdModelFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: modelfixture FIXTURE TEXTFILE|- OUT")
	}
	text := ""
	if args[1] != "-" {
		text = strings.TrimRight(ts.ReadFile(args[1]), "\n")
	}
	data, err := renderFixture(args[0], text)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), data, 0o644))
}

// cmdExpandEnv: expandenv SRC DST
func cmdExpandEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expandenv SRC DST")
	}
	out := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	dst := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
	ts.Check(os.WriteFile(dst, []byte(out), 0o644))
}
