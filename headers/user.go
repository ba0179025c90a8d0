package headers

import "strings"

// UserRobotsTag is an X-Robots-Tag header that one of the site's own rules sets, outside
// robotsmith's block: what the host sends for the files that rule matches, besides robotsmith's.
type UserRobotsTag struct {
	Line  int    // the header's line in _headers
	Path  string // the rule's path line, as written
	Value string // the header's value
	match func(string) bool
}

// Matches reports whether the rule applies to a file served at path (a URL path as served, not
// percent-encoded), as the host matches it.
func (u UserRobotsTag) Matches(path string) bool { return u.match(EncodePath(path)) }

// UserRobotsTags lists the X-Robots-Tag headers the rules outside robotsmith's block set, in line
// order (Cloudflare's "! X-Robots-Tag", which removes the header, is not one).
func UserRobotsTags(existing []byte, f Format) []UserRobotsTag {
	var out []UserRobotsTag
	for _, r := range parse(existing).rules {
		for _, h := range r.headers {
			if h.unset || !strings.EqualFold(h.name, headerName) {
				continue
			}
			out = append(out, UserRobotsTag{Line: h.line, Path: r.path, Value: h.value, match: matcher(r.path, f)})
		}
	}
	return out
}
