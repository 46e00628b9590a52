package egress

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer is an HTTP server on 127.0.0.1 that counts accepted connections.
type countingServer struct {
	*httptest.Server
	accepted atomic.Int64
}

type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func newServer(t *testing.T, h http.Handler) *countingServer {
	t.Helper()
	s := &countingServer{}
	srv := httptest.NewUnstartedServer(h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = countingListener{ln, &s.accepted}
	srv.Start()
	t.Cleanup(srv.Close)
	s.Server = srv
	return s
}

func (s *countingServer) hostPort() string { return strings.TrimPrefix(s.URL, "http://") }

func get(t *testing.T, g *Gate, url string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	return g.Do(req)
}

func TestDisabledMakesNoConnection(t *testing.T) {
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	g := New(false, []string{s.hostPort()})
	if _, err := get(t, g, s.URL); !errors.Is(err, ErrDisabled) {
		t.Fatalf("want ErrDisabled, got %v", err)
	}
	if n := s.accepted.Load(); n != 0 {
		t.Fatalf("disabled egress made %d connections", n)
	}
}

func TestDestinationOffTheList(t *testing.T) {
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	g := New(true, []string{"127.0.0.1:1"})
	if _, err := get(t, g, s.URL); !errors.Is(err, ErrDestination) {
		t.Fatalf("want ErrDestination, got %v", err)
	}
	if n := s.accepted.Load(); n != 0 {
		t.Fatalf("an unlisted destination got %d connections", n)
	}
}

func TestAllowedDestination(t *testing.T) {
	var body string
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		io.WriteString(w, "ok")
	}))
	g := New(true, []string{s.hostPort()})
	resp, err := get(t, g, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || body != "hello" {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
	if n := s.accepted.Load(); n != 1 {
		t.Fatalf("want 1 connection, got %d", n)
	}
}

func TestRedirectOffTheListRefused(t *testing.T) {
	target := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	first := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/elsewhere", http.StatusTemporaryRedirect)
	}))
	g := New(true, []string{first.hostPort()})
	if _, err := get(t, g, first.URL); !errors.Is(err, ErrDestination) {
		t.Fatalf("want the redirect refused with ErrDestination, got %v", err)
	}
	if n := target.accepted.Load(); n != 0 {
		t.Fatalf("the redirect target got %d connections", n)
	}
}

func TestNoProxyFromEnvironment(t *testing.T) {
	proxy := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	g := New(true, []string{s.hostPort()})
	resp, err := get(t, g, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n := proxy.accepted.Load(); n != 0 {
		t.Fatalf("the environment's proxy got %d connections", n)
	}
	if n := s.accepted.Load(); n != 1 {
		t.Fatalf("want 1 direct connection, got %d", n)
	}
}

func TestNameMustBeListed(t *testing.T) {
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	_, port, _ := net.SplitHostPort(s.hostPort())
	// localhost resolves to 127.0.0.1, but only 127.0.0.1 is listed: names are checked as written
	g := New(true, []string{s.hostPort()})
	if _, err := get(t, g, "http://localhost:"+port); !errors.Is(err, ErrDestination) {
		t.Fatalf("want ErrDestination for an unlisted name, got %v", err)
	}
	if n := s.accepted.Load(); n != 0 {
		t.Fatalf("got %d connections", n)
	}
}
