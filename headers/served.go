package headers

import (
	"regexp"
	"strings"
)

// Served is a `_headers` file read whole, robotsmith's block and the owner's rules alike, as its
// host reads it to answer requests: for a preview server that sends each file's headers as the
// host would (robotsmith watch --serve).
//
//	s := headers.ReadServed(data, headers.Cloudflare)
//	for _, h := range s.Headers("localhost", "/files/my%20report.pdf") {
//		w.Header().Add(h.Name, h.Value)
//	}
type Served struct {
	format Format
	rules  []servedRule
}

type servedRule struct {
	host    *regexp.Regexp // Cloudflare's rule for a host ("https://:project.pages.dev/*"); nil: any
	path    *regexp.Regexp
	names   []string // the path's placeholders, in the order of path's groups ("splat" for *)
	headers []userHeader
}

// Field is one header a host sends.
type Field struct{ Name, Value string }

// ReadServed reads a `_headers` file (nil: none) in the host's format f.
func ReadServed(data []byte, f Format) *Served {
	s := &Served{format: f}
	for _, r := range parseRules(data, true, f == Cloudflare).rules {
		sr := servedRule{headers: r.headers}
		rulePath := r.path
		if f == Cloudflare {
			if m := cloudflareURLLine.FindString(rulePath); m != "" {
				rest := rulePath[len(m):]
				host, p, _ := strings.Cut(rest, "/")
				rulePath = "/" + p
				sr.host = regexp.MustCompile(`^` + placeholder.ReplaceAllString(regexp.QuoteMeta(host), `[^/.]+`) + `$`)
			}
			sr.path, sr.names = cloudflarePattern(rulePath)
		} else {
			sr.path = regexp.MustCompile(netlifyPattern(rulePath))
		}
		s.rules = append(s.rules, sr)
	}
	return s
}

// netlifyPattern is the regular expression Netlify tests a request's path with (matcher).
func netlifyPattern(rulePath string) string {
	var parts []string
	for _, seg := range strings.Split(rulePath, "/") {
		seg = strings.TrimRight(seg, " \t")
		switch {
		case seg == "":
			continue
		case strings.HasPrefix(seg, ":"):
			parts = append(parts, `([^/]+)`)
		case seg == "*":
			parts = append(parts, `?(.*)`)
		default:
			q := strings.Split(seg, "*")
			for i := range q {
				q[i] = regexp.QuoteMeta(q[i])
			}
			parts = append(parts, strings.Join(q, "(.*)"))
		}
	}
	return `(?i)^/` + strings.Join(parts, "/") + `/?$`
}

// cloudflarePattern is the regular expression Cloudflare tests a request's path with, with a
// group for each placeholder and the splat, and their names in order (workers-shared
// generateRuleRegExp): the splat "*" is ".*", across "/"; ":name" is "[^/]+"; case counts.
func cloudflarePattern(rulePath string) (*regexp.Regexp, []string) {
	if strings.Count(rulePath, "*") > 1 {
		// Cloudflare counts such a rule valid, and it never matches (tested with wrangler).
		return regexp.MustCompile(`^\b$`), nil
	}
	var names []string
	var b strings.Builder
	b.WriteString("^")
	rest := rulePath
	for rest != "" {
		i := strings.IndexAny(rest, "*:")
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		if rest[i] == '*' {
			names = append(names, "splat")
			b.WriteString("(.*)")
			rest = rest[i+1:]
			continue
		}
		if m := placeholder.FindString(rest[i:]); m != "" && strings.Index(rest[i:], m) == 0 {
			names = append(names, m[1:])
			b.WriteString("([^/]+)")
			rest = rest[i+len(m):]
			continue
		}
		b.WriteString(":")
		rest = rest[i+1:]
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`^\b$`), nil // matches nothing
	}
	return re, names
}

// Headers are the headers the host sends for a request of path (as the request sends it,
// percent-encoded) on host (the request's host name, without a port), in the order their names
// first come: every rule that matches, in the order of the file, combined as the host combines
// them. Netlify: a header named twice in one rule is joined with ", ", and a later rule's header
// replaces an earlier rule's of the same name; "! Name" is no header line. Cloudflare: values
// are joined with ", " within a rule and across rules; "! Name" removes the header the rules
// before it set; ":name" and ":splat" in a value are what the path's placeholders matched.
func (s *Served) Headers(host, path string) []Field {
	var out []Field
	find := func(name string) int {
		for i, f := range out {
			if strings.EqualFold(f.Name, name) {
				return i
			}
		}
		return -1
	}
	for _, r := range s.rules {
		if r.host != nil && !r.host.MatchString(host) {
			continue
		}
		m := r.path.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		if s.format == Cloudflare {
			for _, h := range r.headers {
				if h.unset {
					if i := find(h.name); i >= 0 {
						out = append(out[:i], out[i+1:]...)
					}
				}
			}
		}
		var set []Field // this rule's, each name once
		for _, h := range r.headers {
			if h.unset {
				continue
			}
			v := h.value
			if s.format == Cloudflare {
				for i, name := range r.names {
					v = strings.ReplaceAll(v, ":"+name, m[i+1])
				}
			}
			if i := indexFold(set, h.name); i >= 0 {
				set[i].Value += ", " + v
				continue
			}
			set = append(set, Field{h.name, v})
		}
		for _, f := range set {
			switch i := find(f.Name); {
			case i < 0:
				out = append(out, f)
			case s.format == Cloudflare:
				out[i].Value += ", " + f.Value
			default:
				out[i].Value = f.Value
			}
		}
	}
	return out
}

func indexFold(fs []Field, name string) int {
	for i, f := range fs {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}
