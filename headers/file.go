package headers

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
)

// The `_headers` reader. Both hosts read the file line by line: a trimmed
// line that is empty or starts with '#' is skipped, one that starts with '/'
// (or, for Cloudflare, "scheme://") starts a rule, and "Name: value" inside a
// rule adds a header; Cloudflare's "! Name" removes one.

// userHeader is one header line of a user's rule.
type userHeader struct {
	line  int
	name  string // as written
	value string
	unset bool // Cloudflare "! Name"
}

// userRule is a rule outside robotsmith's blocks.
type userRule struct {
	line    int
	path    string
	headers []userHeader
}

type parsed struct {
	blocks []markers.Span // robotsmith's blocks (internal/markers finds them, as in robots.txt)
	rules  []userRule
}

var cloudflareURLLine = regexp.MustCompile(`^[^\s]+://`)

// parse reads a `_headers` file: its robotsmith blocks, and the rules outside
// them. It never fails: lines it does not understand are skipped, as the
// hosts skip them.
func parse(data []byte) parsed { return parseRules(data, false, true) }

// parseRules is parse; withBlocks reads the rules in robotsmith's blocks too,
// every rule of the file, as a host reads it; urlRules reads a line that
// starts "scheme://" as a rule's path, as Cloudflare does (Netlify reads it as
// a header line: its name is the scheme).
func parseRules(data []byte, withBlocks, urlRules bool) parsed {
	p := parsed{blocks: markers.Find(data)}
	if withBlocks {
		p.blocks = nil
	}
	var cur *userRule
	blocks := p.blocks
	off := 0
	for n := 1; off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		for len(blocks) > 0 && off >= blocks[0].End {
			blocks = blocks[1:]
		}
		inBlock := len(blocks) > 0 && blocks[0].Contains(off)
		raw := data[off:next]
		line := strings.TrimSpace(string(raw))
		switch {
		case inBlock:
			cur = nil // a rule does not run on across robotsmith's block
		case line == "", strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "/") || urlRules && cloudflareURLLine.MatchString(line):
			p.rules = append(p.rules, userRule{line: n, path: line})
			cur = &p.rules[len(p.rules)-1]
		case cur == nil:
		case strings.HasPrefix(line, "! "):
			cur.headers = append(cur.headers, userHeader{line: n, name: strings.TrimSpace(line[2:]), unset: true})
		default:
			name, value, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(name) != "" {
				cur.headers = append(cur.headers, userHeader{line: n, name: strings.TrimSpace(name), value: strings.TrimSpace(value)})
			}
		}
		off = next
	}
	return p
}

// countUserRules counts the rules outside robotsmith's block that
// Cloudflare counts: path lines followed by at least one header.
func countUserRules(existing []byte) int {
	n := 0
	for _, r := range parse(existing).rules {
		if len(r.headers) > 0 {
			n++
		}
	}
	return n
}

// Merge returns existing with its robotsmith block replaced by block, or
// with block appended after a blank line when it has none; existing may be
// nil. Every byte outside the block is kept; blocks after the first are
// removed. A begin marker with no end marker after it is a *MarkerError and
// nothing is merged: where robotsmith's block ends cannot be told from the
// user's rules that follow it, and taking the block to run to the end of the
// file would delete them. (internal/markers does the work, as for
// robots.txt.)
func Merge(existing, block []byte) ([]byte, error) {
	out, err := markers.Merge(existing, block)
	if me := (*MarkerError)(nil); errors.As(err, &me) && me.File == "" {
		me.File = "_headers"
	}
	return out, err
}

// Finding is a lint finding about an existing `_headers` (or another host's file).
type Finding struct {
	File string // the file it is about ("vercel.json"); "" is _headers
	Line int    // 1-based line in the existing file
	Path string // the file robotsmith covers that the user's rule also sets, or ""
	Msg  string
	// Code is what it is: problem.HeaderRuleOverlaps, problem.ContentUsageOverlaps, ...
	Code problem.Code
}

func (f Finding) String() string {
	if f.Path == "" {
		return fmt.Sprintf("%s:%d: %s", f.file(), f.Line, f.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", f.file(), f.Line, f.Path, f.Msg)
}

// file is the file it is about, as messages name it.
func (f Finding) file() string {
	if f.File == "" {
		return "_headers"
	}
	return f.File
}

// Problem is the finding as a problem.Problem at its line; its Error() is String().
func (f Finding) Problem() problem.Problem {
	msg := f.Msg
	if f.Path != "" {
		msg = f.Path + ": " + f.Msg
	}
	return *problem.New(f.Code, problem.Position{File: f.file(), Line: f.Line}, msg)
}

// Lint reports user rules outside robotsmith's block that set (or, on
// Cloudflare, remove) X-Robots-Tag for a file robotsmith covers (one with
// Lines), one finding per rule naming the first such file, and every
// robotsmith block after the first. Findings are in line order. (A begin
// marker without an end marker is Merge's error, not a finding.)
func Lint(existing []byte, files []File, f Format) []Finding {
	return LintFiles(existing, List(files), f)
}

// LintFiles is Lint for files given by index.
func LintFiles(existing []byte, files Files, f Format) []Finding {
	p := parse(existing)
	var out []Finding
	if len(p.blocks) > 1 {
		for _, b := range p.blocks[1:] {
			out = append(out, Finding{Line: b.Line, Code: problem.SecondBlock, Msg: "a second robotsmith block: robotsmith keeps only the first"})
		}
	}
	var covered []string
	for i := range files.Len() {
		if fl := files.At(i); len(fl.Lines) > 0 {
			covered = append(covered, EncodePath(fl.Path))
		}
	}
	sort.Strings(covered)
	afterBlock := func(line int) bool { return len(p.blocks) > 0 && line > p.blocks[0].Line }
	for _, r := range p.rules {
		var h *userHeader
		for i := range r.headers {
			if strings.EqualFold(r.headers[i].name, headerName) {
				h = &r.headers[i]
				break
			}
		}
		if h == nil {
			continue
		}
		m := matcher(r.path, f)
		var hits []string
		for _, c := range covered {
			if m(c) {
				hits = append(hits, c)
			}
		}
		if len(hits) == 0 {
			continue
		}
		var effect string
		switch {
		case h.unset:
			effect = "cloudflare removes the X-Robots-Tag that robotsmith sets"
		case f == Netlify && afterBlock(r.line):
			effect = "this rule comes after robotsmith's block, so netlify sends its X-Robots-Tag instead of robotsmith's"
		case f == Netlify:
			effect = "robotsmith's block comes later, so netlify drops this rule's X-Robots-Tag for it"
		default:
			effect = "cloudflare joins both values into one X-Robots-Tag"
		}
		msg := fmt.Sprintf("rule %s also sets X-Robots-Tag for a file robotsmith covers; %s", r.path, effect)
		if len(hits) > 1 {
			msg += fmt.Sprintf(" (and %d more files)", len(hits)-1)
		}
		out = append(out, Finding{Line: h.line, Path: hits[0], Code: problem.HeaderRuleOverlaps, Msg: msg})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// LintContentUsage reports, for a site whose `_headers` robotsmith gives a Content-Usage rule for
// every path (Options.ContentUsage), the user's rules outside its block that also set (or, on
// Cloudflare, remove) Content-Usage, and, on Cloudflare, a rule of the user's for /* after
// robotsmith's block, which would replace robotsmith's own /* rule (Cloudflare keeps one rule per
// path). Findings are in line order.
func LintContentUsage(existing []byte, f Format) []Finding {
	p := parse(existing)
	afterBlock := func(line int) bool { return len(p.blocks) > 0 && line > p.blocks[0].Line }
	var out []Finding
	for i := range p.rules {
		r := &p.rules[i]
		star := f == Cloudflare && r.path == "/*" && len(r.headers) > 0
		var h *userHeader
		for j := range r.headers {
			if strings.EqualFold(r.headers[j].name, usageHeader) {
				h = &r.headers[j]
				break
			}
		}
		switch {
		case h == nil && star && afterBlock(r.line):
			out = append(out, Finding{Line: r.line, Code: problem.ContentUsageOverlaps, Msg: "rule /* comes after robotsmith's block, and cloudflare keeps one rule per path: it replaces robotsmith's /* rule, so the Content-Usage robotsmith sends for every path is lost; move robotsmith's block below this rule"})
		case h == nil:
		default:
			var effect string
			switch {
			case h.unset:
				effect = "cloudflare removes the Content-Usage that robotsmith sets"
			case star && afterBlock(r.line):
				effect = "cloudflare keeps one rule per path, and this one, after robotsmith's block, replaces robotsmith's /* rule: its value is sent instead of robotsmith's"
			case star:
				effect = "cloudflare keeps one rule per path, and robotsmith's /* rule comes later and replaces this one: its value is not sent"
			case f == Netlify && afterBlock(r.line):
				effect = "this rule comes after robotsmith's block, so netlify sends its value instead of robotsmith's"
			case f == Netlify:
				effect = "robotsmith's block comes later, so netlify drops this rule's value"
			default:
				effect = "cloudflare joins both values into one Content-Usage"
			}
			out = append(out, Finding{Line: h.line, Code: problem.ContentUsageOverlaps, Msg: fmt.Sprintf("rule %s also sets Content-Usage, which robotsmith sends for every path from the ai policy in its config; %s", r.path, effect)})
		}
	}
	return out
}

// matcher returns a test of an encoded request path against a rule's path
// as the host's own matcher does it (Netlify: @netlify/headers-parser
// getForRegExp; Cloudflare: workers-shared generateRuleRegExp). A
// Cloudflare rule for another host is tested on its path alone.
func matcher(rulePath string, f Format) func(string) bool {
	var pat string
	if f == Netlify {
		var parts []string
		for _, s := range strings.Split(rulePath, "/") {
			s = strings.TrimRight(s, " \t")
			switch {
			case s == "":
				continue
			case strings.HasPrefix(s, ":"):
				parts = append(parts, `([^/]+)`)
			case s == "*":
				parts = append(parts, `?(.*)`)
			default:
				q := strings.Split(s, "*")
				for i := range q {
					q[i] = regexp.QuoteMeta(q[i])
				}
				parts = append(parts, strings.Join(q, "(.*)"))
			}
		}
		pat = `(?i)^/` + strings.Join(parts, "/") + `/?$`
	} else {
		if m := cloudflareURLLine.FindString(rulePath); m != "" {
			rest := rulePath[len(m):]
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				rulePath = rest[i:]
			} else {
				rulePath = "/"
			}
		}
		q := strings.Split(rulePath, "*")
		for i := range q {
			q[i] = placeholder.ReplaceAllString(regexp.QuoteMeta(q[i]), `[^/]+`)
		}
		pat = `^` + strings.Join(q, "(.*)") + `$`
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return func(string) bool { return false }
	}
	return re.MatchString
}

var placeholder = regexp.MustCompile(`:[A-Za-z]\w*`)
