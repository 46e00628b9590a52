package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
)

// JSON renders the report as indented JSON: the contract in docs/contract.md.
type JSON struct{}

// Write implements Writer.
func (JSON) Write(w io.Writer, r *review.Report) error { return encodeJSON(w, r) }

// jsonSafe rewrites encoded JSON so that no character a terminal would act on or hide is left
// raw: C1 controls and invisible characters inside strings become \uXXXX escapes (the JSON
// encoder escapes only C0 controls and U+2028/U+2029). The decoded value is unchanged.
func jsonSafe(data []byte) []byte {
	s := string(data)
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 && redact.HiddenRune(r) }) {
		return data
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 || !redact.HiddenRune(r) {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
			continue
		}
		fmt.Fprintf(&b, "\\u%04x", r)
	}
	return []byte(b.String())
}

// encodeJSON writes v as indented JSON with jsonSafe applied.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(buf.Bytes()))
	return err
}
