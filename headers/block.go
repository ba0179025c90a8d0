package headers

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/rules"
)

// Markers around robotsmith's block, and the Cloudflare limits.
const (
	BeginMarker = markers.Begin
	EndMarker   = markers.End
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

// usageHeader is the HTTP header field of draft-ietf-aipref-attach that carries a site's AI usage
// preference (aipref.HeaderName; the package does not import aipref for one name).
const usageHeader = "Content-Usage"

// File is one file the host serves and the X-Robots-Tag values robotsmith
// decided for it.
type File struct {
	// Path is the URL path as served, not percent-encoded:
	// "/files/report.pdf", "/blog/a/" for a page with html: true.
	Path string
	// Lines are the X-Robots-Tag values in order, as rules.Decision.HeaderLines
	// gives them: the generic line first ({Content: "noindex, nofollow"}), then
	// one line per agent ({Agent: "googlebot", Content: "nosnippet"}). Empty
	// means the default decision: no rule for the file, and no folded rule may
	// cover it. Files may share one slice; Block never changes it.
	Lines []rules.HeaderLine
}

// Options configures Block. The zero value writes the Netlify dialect.
type Options struct {
	Format Format
	// Existing is the `_headers` file the block will be merged into, nil
	// when there is none. For Cloudflare its rules outside robotsmith's block
	// count toward the limit of MaxRules.
	Existing []byte
	// ContentUsage is the value of the Content-Usage header the host is to
	// send for every path (the site's AI usage preference, "train-ai=n,
	// search=y"): one `/*` rule of its own, which counts toward Cloudflare's
	// limit. "" sends none.
	ContentUsage string

	// The fields below are for the other hosts' writers (Vercel, Firebase, Apache, Nginx, Caddy);
	// Block ignores them.

	// Record is what the previous build's Result.Record held for this file (vercel.json,
	// firebase.json), nil when there is none: the entries robotsmith wrote there, which this
	// build replaces. The other formats mark their part of the file and need none.
	Record []byte
	// Site picks the entry of firebase.json's hosting list (by its "site" or "target") when it
	// lists several sites.
	Site string
	// Self is the URL path at which the written nginx or Caddy file would itself be served,
	// when it is written inside the output ("/robotsmith.nginx.conf"): the file then makes the
	// server answer 404 there. "" when it is written elsewhere.
	Self string
	// NginxInclude names a file of the site's own add_header lines, which each of robotsmith's
	// nginx locations includes: nginx drops the server's add_header lines in a location that has
	// add_header lines of its own (before 1.29.3's add_header_inherit). "" includes none.
	NginxInclude string
}

// entry is one File after checking: its path as written in the rule.
type entry struct {
	path string // percent-encoded
	file int32  // its File's index in the files given to Block
	set  int32  // its lines' index in the decisions table; 0 is the default decision (no lines)
}

// decisions are the distinct X-Robots-Tag line sets of a site, each checked and keyed once; entry 0
// is the default decision. A site has a handful where it has thousands of files.
type decisions struct {
	lines [][]rules.HeaderLine
	keys  []string // the lines as written, joined by "\n"
}

// rule is one rule of the block: a path line and the X-Robots-Tag lines.
type rule struct {
	comment string // a comment line written before the path, "" for none
	path    string
	other   []string // header lines other than X-Robots-Tag, written first and as they are
	lines   []rules.HeaderLine
}

// Files are the files Block and Lint are given, by index. A slice (List) is one; a site's own
// records are another, which gives each File when asked, so that a site of 100,000 files is not
// held a second time as a slice of Files while its rules are worked out.
type Files interface {
	Len() int
	At(i int) File // the same File every time it is asked
}

// List is a slice of files as Files.
type List []File

func (l List) Len() int      { return len(l) }
func (l List) At(i int) File { return l[i] }

// Block renders robotsmith's block ("# robotsmith: begin" ...
// "# robotsmith: end\n") for files. Pass every file of the output, also
// those with no lines, so that folding can prove it changes no other file's
// headers. Rules are sorted by path.
//
// The errors, joined with errors.Join, are *PathError (ErrPath, ErrLines,
// ErrCaseConflict) for files that cannot be written, and *LimitError when
// Cloudflare's limit cannot be met.
func Block(files []File, opt Options) (out []byte, err error) {
	return BlockFiles(List(files), opt)
}

// BlockFiles is Block for files given by index. It recovers no panic: headers raises none on any
// input (caddyQuoteMust's and the JSON writers' are other formats'), so a panic here is a bug, and
// is left to crash with its stack rather than be read as a problem of the site.
func BlockFiles(files Files, opt Options) (out []byte, err error) {
	entries, ds, errs := prepare(files, opt.Format)
	usage, err := usageRule(opt)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var rs []rule
	switch opt.Format {
	case Netlify:
		rs = append(usage, exactRules(entries, ds)...)
	case Cloudflare:
		user := countUserRules(opt.Existing)
		rs, err = foldRules(entries, ds, MaxRules-1-len(usage)-user, user, len(usage))
		if err != nil {
			return nil, err
		}
		rs = append(append([]rule{{path: PreviewRule, lines: []rules.HeaderLine{{Content: "noindex"}}}}, usage...), rs...)
	default:
		return nil, fmt.Errorf("headers: unknown format %v", opt.Format)
	}
	return render(rs, opt.Format)
}

func render(rs []rule, f Format) ([]byte, error) {
	var b bytes.Buffer
	var errs []error
	b.WriteString(BeginMarker + "\n")
	b.WriteString("# Written by robotsmith on every build; edit the rules in its config, not here.\n")
	for _, r := range rs {
		if f == Cloudflare && len(r.path) > MaxLine {
			errs = append(errs, &PathError{Path: r.path, Msg: fmt.Sprintf("the path line has %d characters, cloudflare allows %d", len(r.path), MaxLine), Err: ErrPath})
		}
		if r.comment != "" {
			b.WriteString("# " + r.comment + "\n")
		}
		b.WriteString(r.path + "\n")
		lines := make([]string, 0, len(r.other)+len(r.lines))
		for _, o := range r.other {
			lines = append(lines, "  "+o)
		}
		for _, l := range r.lines {
			lines = append(lines, "  "+headerName+": "+l.String())
		}
		for _, line := range lines {
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

// usageRule is the `/*` rule that sends opt.ContentUsage for every path, in a list of one; none
// without a value. Cloudflare keeps one rule per path (its rules are a map from path to headers,
// so the later rule of a path replaces the earlier one): where the user's part of the file has a
// `/*` rule of its own, the rule written here repeats that rule's other headers, and the host sends
// what the user's rule sent and Content-Usage. Netlify applies every matching rule and needs no
// copy.
func usageRule(opt Options) ([]rule, error) {
	v, err := usageValue(opt, "", "/*")
	if v == "" || err != nil {
		return nil, err
	}
	r := rule{path: "/*", other: []string{usageHeader + ": " + v}}
	if opt.Format != Cloudflare {
		return []rule{r}, nil
	}
	if u := lastStarRule(parse(opt.Existing)); u != nil {
		var copied []string
		for _, h := range u.headers {
			switch {
			case strings.EqualFold(h.name, usageHeader):
			case h.unset:
				copied = append(copied, "! "+h.name)
			default:
				copied = append(copied, h.name+": "+h.value)
			}
		}
		if len(copied) > 0 {
			r.comment = fmt.Sprintf("With the headers of your own /* rule (line %d): cloudflare keeps one rule per path.", u.line)
			r.other = append(copied, r.other...)
		}
	}
	return []rule{r}, nil
}

// usageValue is opt.ContentUsage as written: trimmed, "" for none, an error naming file and the
// rule's path when it holds a control character.
func usageValue(opt Options, file, path string) (string, error) {
	v := strings.TrimSpace(opt.ContentUsage)
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", &PathError{File: file, Path: path, Msg: fmt.Sprintf("the %s value %s holds a control character", usageHeader, excerpt.Quote(v)), Err: ErrLines}
	}
	return v, nil
}

// lastStarRule is the last of the user's rules (outside robotsmith's blocks) for the path /*, the
// one Cloudflare keeps of them; nil when there is none.
func lastStarRule(p parsed) *userRule {
	var last *userRule
	for i := range p.rules {
		if p.rules[i].path == "/*" && len(p.rules[i].headers) > 0 {
			last = &p.rules[i]
		}
	}
	return last
}

// EncodePath percent-encodes p, a URL path as served and not encoded
// (File.Path), as a browser or a crawler requests it (WHATWG path
// percent-encode set) and as both hosts see it, plus '%' and '\' (which a
// URL would turn into '/'). The block's rules are written with it; robots.txt
// rules are matched against it.
// Written by hand: net/url's (*URL).EscapedPath also escapes characters
// such as '!' and '$' that browsers send as they are.
func EncodePath(p string) string {
	const hex = "0123456789ABCDEF"
	clean := true
	for i := 0; i < len(p) && clean; i++ {
		clean = !needsEncoding(p[i])
	}
	if clean {
		return p // most paths: no copy
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if needsEncoding(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func needsEncoding(c byte) bool {
	switch {
	case c <= 0x20 || c >= 0x7f:
		return true
	case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '/', c == '-':
		return false // the common case, decided first
	}
	return strings.IndexByte("\"#<>?`{}%\\", c) >= 0
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
	for rest := p; rest != ""; {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
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
	plain := strings.HasPrefix(p, "/") && !strings.Contains(p, "//")
	for i := 0; i < len(p) && plain; i++ {
		plain = p[i] < 'A' || p[i] > 'Z'
	}
	if plain { // most paths: the key is a part of the path, no copy
		if len(p) > 1 {
			return strings.TrimSuffix(p, "/")
		}
		return p
	}
	var segs []string
	for _, s := range strings.Split(strings.ToLower(p), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return "/" + strings.Join(segs, "/")
}

// prepare checks files and returns them encoded, de-duplicated and sorted, with the table of their
// decisions.
func prepare(files Files, f Format) ([]entry, decisions, []error) {
	entries, ds, errs := prepareWith(files, EncodePath, func(p string) string { return pathProblem(p, f) })
	if f == Netlify {
		errs = append(errs, caseConflicts(entries, files)...)
	}
	return entries, ds, errs
}

// prepareWith is prepare with the path as written (encode: EncodePath for `_headers`, the path as
// served for a server's config) and the format's check of a written path (problem: why it cannot
// be a rule, or "").
func prepareWith(files Files, encode func(string) string, problem func(string) string) ([]entry, decisions, []error) {
	var errs []error
	ds := decisions{lines: [][]rules.HeaderLine{nil}, keys: []string{""}}
	// Files share their lines (one slice per decision): each slice is checked once, and slices
	// with the same lines get one index.
	type checked struct {
		n   int // the slice's length
		set int32
		msg string
	}
	bySlice := map[*rules.HeaderLine]checked{}
	byKey := map[string]int32{"": 0}
	entries := make([]entry, 0, files.Len())
	for i := range files.Len() {
		fl := files.At(i)
		e := entry{path: encode(fl.Path), file: int32(i)}
		if msg := problem(e.path); msg != "" {
			if len(fl.Lines) > 0 {
				errs = append(errs, &PathError{Path: fl.Path, Msg: msg, Err: ErrPath})
				continue
			}
			// A default file needs no rule of its own; it still blocks folding.
		}
		if len(fl.Lines) > 0 {
			c, ok := bySlice[&fl.Lines[0]]
			if !ok || c.n != len(fl.Lines) {
				lines, key := trimLines(fl.Lines)
				c = checked{n: len(fl.Lines), msg: checkLines(lines)}
				if set, ok := byKey[key]; ok {
					c.set = set
				} else {
					c.set = int32(len(ds.lines))
					byKey[key] = c.set
					ds.lines, ds.keys = append(ds.lines, lines), append(ds.keys, key)
				}
				bySlice[&fl.Lines[0]] = c
			}
			if c.msg != "" {
				errs = append(errs, &PathError{Path: fl.Path, Msg: c.msg, Err: ErrLines})
				continue
			}
			e.set = c.set
		}
		entries = append(entries, e)
	}
	// Sorted by path, a path listed twice comes together, the first listed first: it stays.
	slices.SortFunc(entries, func(a, b entry) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return cmp.Compare(a.file, b.file)
	})
	kept := entries[:0]
	for i, e := range entries {
		if i > 0 && e.path == entries[i-1].path {
			if e.set != kept[len(kept)-1].set {
				errs = append(errs, &PathError{Path: files.At(int(e.file)).Path, Msg: "listed twice with different X-Robots-Tag lines", Err: ErrLines})
			}
			continue
		}
		kept = append(kept, e)
	}
	return kept, ds, errs
}

// caseConflicts reports the files that Netlify would match with one rule (same path but for case,
// empty segments or a trailing slash) and that do not share one decision. entries are sorted by
// path.
func caseConflicts(entries []entry, files Files) []error {
	// The entries by key, as indexes: the key of most paths is a part of the path itself (no
	// copy), so it is worked out where compared rather than kept beside every entry.
	key := func(i int32) string { return netlifyKey(entries[i].path) }
	ks := make([]int32, len(entries))
	for i := range ks {
		ks[i] = int32(i)
	}
	slices.SortFunc(ks, func(a, b int32) int {
		if c := strings.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var groups [][]int32 // groups that conflict, each in path order
	for lo := 0; lo < len(ks); {
		k := key(ks[lo])
		hi := lo + 1
		for hi < len(ks) && key(ks[hi]) == k {
			hi++
		}
		for _, i := range ks[lo+1 : hi] {
			if entries[i].set != entries[ks[lo]].set {
				groups = append(groups, ks[lo:hi])
				break
			}
		}
		lo = hi
	}
	slices.SortFunc(groups, func(a, b []int32) int { return cmp.Compare(a[0], b[0]) })
	var errs []error
	for _, g := range groups {
		paths := make([]string, len(g))
		for n, i := range g {
			paths[n] = files.At(int(entries[i].file)).Path
		}
		errs = append(errs, &PathError{Path: paths[0],
			Msg: "netlify matches paths case-insensitively and with or without a trailing slash, so " +
				strings.Join(paths, ", ") + " would all get the same X-Robots-Tag: give them one decision or rename one",
			Err: ErrCaseConflict})
	}
	return errs
}

// trimLines returns ls with blanks trimmed (a copy only when that changes anything) and the key
// that compares them.
func trimLines(ls []rules.HeaderLine) ([]rules.HeaderLine, string) {
	out := ls
	for i, l := range ls {
		t := rules.HeaderLine{Agent: strings.TrimSpace(l.Agent), Content: strings.TrimSpace(l.Content)}
		if t != l {
			if &out[0] == &ls[0] {
				out = append([]rules.HeaderLine(nil), ls...)
			}
			out[i] = t
		}
	}
	var b strings.Builder
	for i, l := range out {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.String())
	}
	return out, b.String()
}

// exactRules gives every file with lines a rule of its own. For Netlify a
// file that matches an earlier file's rule (same path but for case or a
// trailing slash, same lines: prepare checked) needs none.
func exactRules(entries []entry, ds decisions) []rule {
	var rs []rule
	seen := map[string]bool{}
	for _, e := range entries {
		if e.set == 0 {
			continue
		}
		k := netlifyKey(e.path)
		if seen[k] {
			continue
		}
		seen[k] = true
		rs = append(rs, rule{path: e.path, lines: ds.lines[e.set]})
	}
	return rs
}
