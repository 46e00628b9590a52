package lite

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Shape is how a secret is shown in a report: Masked replaces it, Shown are the parts of the
// secret Masked shows and Hidden the parts it hides. Leaks and Scrub check the hidden parts.
type Shape struct {
	Masked string
	Shown  []string
	Hidden []string
}

// ShapeOf is how secret is shown. A URL (a webhook, a connection string, a token in a query)
// keeps its scheme, host and path shape, with only its secret parts masked:
//
//	https://hooks.slack.com/services/****/****/****
//	https://discord.com/api/webhooks/****/****
//	postgres://admin:****@db.example.com:5432/app
//	https://api.example.com/v1/data?api_key=****&page=****
//
// A path segment stays only when it is a short lowercase word (services, api, webhooks) or a
// version (v1); user names stay only when short and plain; a host label that looks random
// (a token as a subdomain) is masked; every password, query value, fragment and other segment
// is masked whole. A URL whose masked parts would hold fewer than 8
// bytes, and any other secret, shows its safe prefix (Kept), then ****.
func ShapeOf(secret string) Shape {
	if s, ok := urlShape(secret); ok {
		return s
	}
	kept := Kept(secret)
	return Shape{Masked: kept + "****", Shown: []string{kept}, Hidden: []string{secret[len(kept):]}}
}

var (
	urlScheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]{0,15}://`)
	// urlHost is a DNS name, an IPv4 address or a bracketed IPv6 address, with a port.
	urlHost = lazyre.New(`^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$`)
	// bareHost is a host with a dotted name and a letter TLD, for a URL written without its
	// scheme (hooks.slack.com/services/...).
	bareHost = lazyre.New(`^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,12}$`)
	// wordSegment is a path segment that names a resource rather than holding a secret.
	wordSegment = lazyre.New(`^(?:[a-z]{1,16}(?:[-_][a-z]{1,16}){0,2}|v[0-9]{1,2})$`)
	plainUser   = lazyre.New(`^[A-Za-z][A-Za-z0-9._-]{0,15}$`)
	queryKey    = lazyre.New(`^[A-Za-z_][A-Za-z0-9_.-]{0,31}$`)
)

// urlShape is ShapeOf for a URL; ok is false when secret is not one, or when its masked parts
// would hide too little.
func urlShape(secret string) (Shape, bool) {
	if secret == "" || strings.ContainsAny(secret, " \t\r\n\"'`<>\\") {
		return Shape{}, false
	}
	var b urlBuilder
	rest := secret
	if m := urlScheme.FindString(rest); m != "" {
		b.show(m)
		rest = rest[len(m):]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority := rest[:end]
	rest = rest[end:]
	host := authority
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		if b.shown == nil {
			return Shape{}, false // user info needs a scheme: "a@b" is an address, not a URL
		}
		b.userInfo(authority[:at])
		host = authority[at+1:]
	}
	if !urlHost.MatchString(host) || (b.shown == nil && (!bareHost.MatchString(host) || !strings.HasPrefix(rest, "/"))) {
		return Shape{}, false
	}
	b.host(host)
	path, query, fragment := rest, "", ""
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, fragment = path[:i], path[i+1:]
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query = path[:i], path[i+1:]
	}
	b.path(path)
	if query != "" || strings.Contains(rest, "?") {
		b.sep("?")
		b.query(query)
	}
	if fragment != "" {
		b.sep("#")
		b.hide(fragment)
	}
	hidden := 0
	for _, h := range b.hidden {
		hidden += len(h)
	}
	if hidden < 8 {
		return Shape{}, false
	}
	return Shape{Masked: b.out.String(), Shown: b.shown, Hidden: b.hidden}, true
}

// urlBuilder writes a URL's shape: parts shown as they are, parts hidden as ****.
type urlBuilder struct {
	out           strings.Builder
	shown, hidden []string
}

func (b *urlBuilder) show(s string) {
	b.out.WriteString(s)
	if s != "" {
		b.shown = append(b.shown, s)
	}
}

func (b *urlBuilder) sep(s string) { b.out.WriteString(s) }

func (b *urlBuilder) hide(s string) {
	if s == "" {
		return
	}
	b.out.WriteString("****")
	b.hidden = append(b.hidden, s)
}

// userInfo: a short plain user name stays, a password is hidden; user info without a colon is
// a token (https://TOKEN@host) and hidden whole.
func (b *urlBuilder) userInfo(info string) {
	user, pass, hasPass := strings.Cut(info, ":")
	switch {
	case hasPass && plainUser.MatchString(user):
		b.show(user)
	case hasPass:
		b.hide(user)
	default:
		b.hide(info)
		b.sep("@")
		return
	}
	b.sep(":")
	b.hide(pass)
	if pass == "" {
		b.sep("****") // shown the same whether it is empty or not
	}
	b.sep("@")
}

// host shows the host, but a label that looks random (16 bytes or more, letters and digits:
// a token as a subdomain) is hidden.
func (b *urlBuilder) host(host string) {
	for i, label := range strings.Split(host, ".") {
		if i > 0 {
			b.sep(".")
		}
		if len(label) >= 16 && strings.ContainsAny(label, "0123456789") && strings.IndexFunc(label, isLetter) >= 0 {
			b.hide(label)
			continue
		}
		b.show(label)
	}
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func (b *urlBuilder) path(path string) {
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			b.sep("/")
		}
		if seg == "" || wordSegment.MatchString(seg) {
			b.show(seg)
			continue
		}
		b.hide(seg)
	}
}

func (b *urlBuilder) query(query string) {
	for i, kv := range strings.Split(query, "&") {
		if i > 0 {
			b.sep("&")
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !queryKey.MatchString(k) {
			b.hide(kv)
			continue
		}
		b.show(k)
		b.sep("=")
		b.hide(v)
	}
}

// leaksPart reports whether out holds hidden, one hidden part of a secret, or a 6-byte run of
// it that no shown part holds too (such as "PRIVAT" of a PEM block's BEGIN line).
func leaksPart(out, hidden string, shown []string) bool {
	const w = 6
	if len(hidden) < w {
		return len(hidden) >= 4 && strings.Contains(out, hidden) && !inAny(shown, hidden)
	}
	for i := 0; i+w <= len(hidden); i++ {
		if run := hidden[i : i+w]; strings.Contains(out, run) && !inAny(shown, run) {
			return true
		}
	}
	return false
}

// Shows reports whether one of the shown parts holds run: such a run of a hidden part tells
// nothing new.
func (s Shape) Shows(run string) bool { return inAny(s.Shown, run) }

// inAny reports whether one of parts holds s.
func inAny(parts []string, s string) bool {
	for _, p := range parts {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}
