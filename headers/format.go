package headers

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
)

// Format is the `_headers` dialect of a static host.
type Format int

const (
	// Netlify: a later matching rule replaces an earlier one's header, paths
	// match case-insensitively, `/folder/*` also matches `/folder`.
	Netlify Format = iota
	// Cloudflare Pages: every matching rule's values are appended, paths match
	// case-sensitively, at most 100 rules, 2,000 characters a line, one `*`.
	Cloudflare
)

// String returns the name ParseFormat reads: "netlify" or "cloudflare".
func (f Format) String() string {
	switch f {
	case Netlify:
		return "netlify"
	case Cloudflare:
		return "cloudflare"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat reads a format name as the config writes it ("netlify" or
// "cloudflare", any case, surrounding space ignored).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "netlify":
		return Netlify, nil
	case "cloudflare":
		return Cloudflare, nil
	}
	return 0, problem.Newf(problem.HeaderFormatUnknown, problem.Position{}, "headers: unknown format %s (want netlify or cloudflare)", excerpt.Quote(s))
}
