// Package egress is the only package of tollgate that touches the network.
//
// Rules and guarantees:
//   - Every connection is checked when it is dialled: refused while egress is disabled, refused
//     for any host:port not on the user's net.connect list. The name is checked, then resolved
//     here and the resolved address dialled, so nothing resolves it a second time.
//   - Redirects are followed only to destinations on the list.
//   - No proxy is taken from the environment (HTTP_PROXY and friends are ignored).
//   - Requests go out only through Gate.Do; callers hand it text that already passed the
//     redactor.
package egress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// ErrDisabled is returned for any connection while egress is disabled.
var ErrDisabled = errors.New("egress is disabled (egress.enabled = false in the user config)")

// ErrDestination is returned for a destination not on net.connect.
var ErrDestination = errors.New("destination is not in net.connect")

// Gate decides and makes every outbound connection.
type Gate struct {
	enabled bool
	allow   map[string]bool // lower-cased host:port
	dialer  net.Dialer
	client  *http.Client
}

// New returns a gate: enabled is egress.enabled, connect is net.connect ("host:port").
func New(enabled bool, connect []string) *Gate {
	g := &Gate{enabled: enabled, allow: map[string]bool{}, dialer: net.Dialer{Timeout: 10 * time.Second}}
	for _, hp := range connect {
		host, port, err := net.SplitHostPort(hp)
		if err != nil {
			continue
		}
		g.allow[net.JoinHostPort(strings.ToLower(host), port)] = true
	}
	transport := &http.Transport{
		Proxy:                 nil, // never from the environment
		DialContext:           g.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 0,
	}
	g.client = &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return g.Check(hostPort(req))
		},
	}
	return g
}

// Enabled reports egress.enabled.
func (g *Gate) Enabled() bool { return g.enabled }

// Check reports whether a host:port may be reached.
func (g *Gate) Check(hostport string) error {
	if !g.enabled {
		return ErrDisabled
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("%q: %w", hostport, err)
	}
	if !g.allow[net.JoinHostPort(strings.ToLower(host), port)] {
		return fmt.Errorf("%s: %w", hostport, ErrDestination)
	}
	return nil
}

func hostPort(req *http.Request) string {
	host, port := req.URL.Hostname(), req.URL.Port()
	if port == "" {
		port = "80"
		if req.URL.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(host, port)
}

// dial is the transport's only way out.
func (g *Gate) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := g.Check(addr); err != nil {
		return nil, err
	}
	host, port, _ := net.SplitHostPort(addr)
	var ips []net.IP
	if ip := net.ParseIP(host); ip != nil {
		ips = []net.IP{ip}
	} else {
		addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			ips = append(ips, a.IP)
		}
	}
	var last error
	for _, ip := range ips {
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	if last == nil {
		last = fmt.Errorf("no address for %s", host)
	}
	return nil, last
}

// Do sends one request through the gate. The destination is checked before anything is
// dialled; the caller sets the timeout on the request's context.
func (g *Gate) Do(req *http.Request) (*http.Response, error) {
	if err := g.Check(hostPort(req)); err != nil {
		return nil, err
	}
	return g.client.Do(req)
}

// NewRequest builds a POST request with a JSON body for Do.
func NewRequest(ctx context.Context, endpoint string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}
