package headers

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Markers around robotsmith's block, and the Cloudflare limits.
const (
	BeginMarker = "# robotsmith: begin"
	EndMarker   = "# robotsmith: end"
	// PreviewRule matches Cloudflare Pages preview host names
	// (<hash>.<project>.pages.dev) and not the production one
	// (<project>.pages.dev); custom domains never match it.
	PreviewRule = "https://:hash.:project.pages.dev/*"
	// MaxRules is Cloudflare's limit on rules in one `_headers` file,
	// counting the user's own rules.
	MaxRules = 100
	// MaxLine is Cloudflare's limit on a line's length, spacing included.
	MaxLine = 2000
)

const headerName = "X-Robots-Tag"

// File is one file the host serves and the X-Robots-Tag values robotsmith
// decided for it.
type File struct {
	// Path is the URL path as served, not percent-encoded:
	// "/files/report.pdf", "/blog/a/" for a page with html: true.
	Path string
	// Lines are the X-Robots-Tag values in order, e.g.
	// ["noindex, nofollow", "googlebot: nosnippet"]: the generic line first,
	// then one line per agent. Empty means the default decision: no rule for
	// the file, and no folded rule may cover it.
	Lines []string
}

// Options configures Block. The zero value writes the Netlify dialect.
type Options struct {
	Format Format
	// Existing is the `_headers` file the block will be merged into, nil
	// when there is none. For Cloudflare its rules outside robotsmith's block
	// count toward the limit of MaxRules.
	Existing []byte
}

// entry is one File after checking: its path as written in the rule.
type entry struct {
	path  string // percent-encoded
	orig  string // File.Path
	lines []string
	key   string // lines joined by "\n"; "" for the default decision
}

// rule is one rule of the block: a path line and the X-Robots-Tag lines.
type rule struct {
	path  string
	lines []string
}

// Block renders robotsmith's block ("# robotsmith: begin" ...
// "# robotsmith: end\n") for files. Pass every file of the output, also
// those with no lines, so that folding can prove it changes no other file's
// headers. Rules are sorted by path.
//
// The errors, joined with errors.Join, are *PathError (ErrPath, ErrLines,
// ErrCaseConflict) for files that cannot be written, and *LimitError when
// Cloudflare's limit cannot be met.
func Block(files []File, opt Options) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("headers: internal error: %v", r)
		}
	}()
	entries, errs := prepare(files, opt.Format)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var rules []rule
	switch opt.Format {
	case Netlify:
		rules = exactRules(entries)
	case Cloudflare:
		user := countUserRules(opt.Existing)
		rules, err = foldRules(entries, MaxRules-1-user, user)
		if err != nil {
			return nil, err
		}
		rules = append([]rule{{path: PreviewRule, lines: []string{"noindex"}}}, rules...)
	default:
		return nil, fmt.Errorf("headers: unknown format %v", opt.Format)
	}
	return render(rules, opt.Format)
}

func render(rules []rule, f Format) ([]byte, error) {
	var b bytes.Buffer
	var errs []error
	b.WriteString(BeginMarker + "\n")
	b.WriteString("# Written by robotsmith on every build; edit the rules in its config, not here.\n")
	for _, r := range rules {
		if f == Cloudflare && len(r.path) > MaxLine {
			errs = append(errs, &PathError{Path: r.path, Msg: fmt.Sprintf("the path line has %d characters, cloudflare allows %d", len(r.path), MaxLine), Err: ErrPath})
		}
		b.WriteString(r.path + "\n")
		for _, l := range r.lines {
			line := "  " + headerName + ": " + l
			if f == Cloudflare && len(line) > MaxLine {
				errs = append(errs, &PathError{Path: r.path, Msg: fmt.Sprintf("the line %q... has %d characters, cloudflare allows %d", line[:40], len(line), MaxLine), Err: ErrLines})
			}
			b.WriteString(line + "\n")
		}
	}
	b.WriteString(EndMarker + "\n")
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return b.Bytes(), nil
}

// encodePath percent-encodes p as a browser does a URL's path (WHATWG path
// percent-encode set) and as both hosts see it in the request, plus '%'
// (File paths are not encoded) and '\' (which a URL would turn into '/').
// Written by hand: net/url's (*URL).EscapedPath also escapes characters
// such as '!' and '$' that browsers send as they are.
func encodePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("\"#<>?`{}%\\", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// pathProblem says why the (encoded) path p cannot be an exact rule for f.
func pathProblem(p string, f Format) string {
	if !strings.HasPrefix(p, "/") {
		return "a URL path must start with /"
	}
	if strings.Contains(p, "*") {
		return "'*' would be read as a wildcard"
	}
	if strings.Contains(p, "//") {
		return "an empty segment (//) is not matched as written"
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return "a . or .. segment is never requested as such"
		}
		if f == Netlify && strings.HasPrefix(seg, ":") {
			return "netlify reads a segment starting with ':' as a placeholder"
		}
	}
	if f == Cloudflare {
		for i := 0; i+1 < len(p); i++ {
			if c := p[i+1]; p[i] == ':' && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return "cloudflare reads ':' followed by a letter as a placeholder"
			}
		}
	}
	return ""
}

// netlifyKey is the path as Netlify's matcher compares it: case folded,
// empty segments dropped, trailing slash optional.
func netlifyKey(p string) string {
	var segs []string
	for _, s := range strings.Split(strings.ToLower(p), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return "/" + strings.Join(segs, "/")
}

// prepare checks files and returns them encoded, de-duplicated and sorted.
func prepare(files []File, f Format) ([]entry, []error) {
	var errs []error
	byPath := map[string]int{}
	var entries []entry
	for _, fl := range files {
		lines := make([]string, len(fl.Lines))
		for i, l := range fl.Lines {
			lines[i] = strings.TrimSpace(l)
		}
		e := entry{path: encodePath(fl.Path), orig: fl.Path, lines: lines, key: strings.Join(lines, "\n")}
		if msg := pathProblem(e.path, f); msg != "" {
			if len(fl.Lines) > 0 {
				errs = append(errs, &PathError{Path: fl.Path, Msg: msg, Err: ErrPath})
				continue
			}
			// A default file needs no rule of its own; it still blocks folding.
		}
		if msg := checkLines(fl.Lines); msg != "" {
			errs = append(errs, &PathError{Path: fl.Path, Msg: msg, Err: ErrLines})
			continue
		}
		if i, ok := byPath[e.path]; ok {
			if entries[i].key != e.key {
				errs = append(errs, &PathError{Path: fl.Path, Msg: "listed twice with different X-Robots-Tag lines", Err: ErrLines})
			}
			continue
		}
		byPath[e.path] = len(entries)
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	if f == Netlify {
		groups := map[string][]int{}
		var order []string
		for i, e := range entries {
			k := netlifyKey(e.path)
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], i)
		}
		for _, k := range order {
			g := groups[k]
			for _, i := range g[1:] {
				if entries[i].key != entries[g[0]].key {
					var paths []string
					for _, j := range g {
						paths = append(paths, entries[j].orig)
					}
					errs = append(errs, &PathError{Path: entries[g[0]].orig,
						Msg: "netlify matches paths case-insensitively and with or without a trailing slash, so " +
							strings.Join(paths, ", ") + " would all get the same X-Robots-Tag: give them one decision or rename one",
						Err: ErrCaseConflict})
					break
				}
			}
		}
	}
	return entries, errs
}

// exactRules gives every file with lines a rule of its own. For Netlify a
// file that matches an earlier file's rule (same path but for case or a
// trailing slash, same lines: prepare checked) needs none.
func exactRules(entries []entry) []rule {
	var rules []rule
	seen := map[string]bool{}
	for _, e := range entries {
		if e.key == "" {
			continue
		}
		k := netlifyKey(e.path)
		if seen[k] {
			continue
		}
		seen[k] = true
		rules = append(rules, rule{path: e.path, lines: e.lines})
	}
	return rules
}
