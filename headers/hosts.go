package headers

import (
	"errors"
	"fmt"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// The writers for the hosts that do not read `_headers`: Vercel (vercel.json), Firebase Hosting
// (firebase.json), Apache (.htaccess), nginx (a file of locations the server includes) and Caddy
// (a file of directives the site imports). Each is one function with the signature of Vercel:
// the files Block is given, and Options with the existing file in Existing; it returns the whole
// new file. What they share is here: the paths a server answers for each File, the decisions,
// Content-Usage, and matching a path whether the host compares it encoded or decoded.

// The files the writers write, as the hosts name them.
const (
	VercelFile   = "vercel.json"
	FirebaseFile = "firebase.json"
	ApacheFile   = ".htaccess"
	NginxFile    = "robotsmith.nginx.conf"
	CaddyFile    = "robotsmith.caddy"
)

// Result is a host writer's answer.
type Result struct {
	// Data is the new file, whole: the existing file with robotsmith's part replaced.
	Data []byte
	// Record lists the entries robotsmith wrote into vercel.json or firebase.json, for the next
	// build's Options.Record: neither file has room for a marker (both hosts reject keys they do
	// not know), so robotsmith keeps its own record. nil for the formats that mark their part.
	Record []byte
	// Findings are about the user's part of the existing file, in line order.
	Findings []Finding
}

// served is one URL path a host answers for a file with lines, as served (not encoded).
type served struct {
	path string
	file int32 // the File's index, for messages
	set  int32 // its lines' index in the decisions table
}

// hostPaths checks files for a host format that writes the file name (the "file" of its errors)
// and returns the paths the host serves them at, sorted, each with its decision, only those with
// lines. A path ending in "/" is a folder's index.html, which a server also answers for at its
// own name (nginx and Apache even serve the folder from an internal request for it), so both
// get the rule; with slashless, so does the folder's path without its last '/' (a JSON host may
// serve the index there: no file can have that name, which is the folder's). check adds the
// format's own limits on a path ("" when it can be written).
func hostPaths(files Files, file string, slashless bool, check func(string) string) ([]served, decisions, []error) {
	entries, ds, errs := prepareWith(files, func(p string) string { return p }, func(p string) string {
		if msg := hostPathProblem(p); msg != "" {
			return msg
		}
		if check != nil {
			return check(p)
		}
		return ""
	})
	out := make([]served, 0, len(entries))
	for _, e := range entries {
		out = append(out, served{path: e.path, file: e.file, set: e.set})
		if strings.HasSuffix(e.path, "/") {
			out = append(out, served{path: e.path + "index.html", file: e.file, set: e.set})
			if slashless && e.path != "/" {
				out = append(out, served{path: strings.TrimSuffix(e.path, "/"), file: e.file, set: e.set})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	kept := out[:0]
	for i, s := range out {
		if i > 0 && s.path == out[i-1].path {
			if prev := kept[len(kept)-1]; s.set != prev.set {
				errs = append(errs, &PathError{Path: files.At(int(s.file)).Path, Err: ErrLines,
					Msg: fmt.Sprintf("is served at %s, as %s is too, with other X-Robots-Tag lines", excerpt.Quote(s.path), excerpt.Quote(files.At(int(prev.file)).Path))})
			}
			continue
		}
		kept = append(kept, s)
	}
	out = kept[:0]
	for _, s := range kept {
		if s.set != 0 {
			out = append(out, s)
		}
	}
	for _, err := range errs {
		if pe := (*PathError)(nil); errors.As(err, &pe) && pe.File == "" {
			pe.File = file
		}
	}
	return out, ds, errs
}

// checkSelf checks Options.Self, the path the written file would be served at.
func checkSelf(self, file string) []error {
	if self == "" {
		return nil
	}
	if msg := hostPathProblem(self); msg != "" {
		return []error{&PathError{File: file, Path: self, Msg: "the path of the file itself " + msg, Err: ErrPath}}
	}
	return nil
}

// hostPathProblem says why p, a path as served, cannot be a server's exact rule.
func hostPathProblem(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "a URL path must start with /"
	case !utf8.ValidString(p):
		return "is not valid UTF-8, which a host's configuration cannot name"
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "holds a control character, which a host's configuration cannot name"
	case strings.Contains(p, "//"):
		return "an empty segment (//) is not matched as written"
	}
	for rest := p; rest != ""; {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		if seg == "." || seg == ".." {
			return "a . or .. segment is never requested as such"
		}
	}
	return ""
}

// checkValues checks the X-Robots-Tag lines of every decision in use, and the Content-Usage value,
// with the format's own check of a header value (nil for none): one error per decision, naming its
// first file.
func checkValues(paths []served, ds decisions, files Files, file, usage string, check func(string) string) []error {
	if check == nil {
		return nil
	}
	var errs []error
	if usage != "" {
		if msg := check(usage); msg != "" {
			errs = append(errs, &PathError{File: file, Path: "/", Err: ErrLines, Msg: "the " + usageHeader + " value " + excerpt.Quote(usage) + " " + msg})
		}
	}
	seen := map[int32]bool{}
	for _, s := range paths {
		if seen[s.set] {
			continue
		}
		seen[s.set] = true
		for _, l := range ds.lines[s.set] {
			if msg := check(l.String()); msg != "" {
				errs = append(errs, &PathError{File: file, Path: files.At(int(s.file)).Path, Err: ErrLines,
					Msg: "the X-Robots-Tag value " + excerpt.Quote(l.String()) + " " + msg})
				break
			}
		}
	}
	return errs
}

// decisionPaths is the paths of one decision, in path order.
type decisionPaths struct {
	set   int32
	paths []string
}

// groupsOf gathers paths by decision, in the order of each decision's first path.
func groupsOf(paths []served) []decisionPaths {
	var gs []decisionPaths
	at := map[int32]int{}
	for _, s := range paths {
		i, ok := at[s.set]
		if !ok {
			i = len(gs)
			at[s.set] = i
			gs = append(gs, decisionPaths{set: s.set})
		}
		gs[i].paths = append(gs[i].paths, s.path)
	}
	return gs
}

// chunks splits items into runs whose lengths, plus sep between them, add up to at most max;
// an item longer than max is a run of its own (the caller reports it).
func chunks(items []string, sep, max int) [][]string {
	var out [][]string
	var cur []string
	n := 0
	for _, it := range items {
		if len(cur) > 0 && n+sep+len(it) > max {
			out = append(out, cur)
			cur, n = nil, 0
		}
		if len(cur) > 0 {
			n += sep
		}
		cur = append(cur, it)
		n += len(it)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// mergeMarked merges a block into existing between robotsmith's markers, naming file in the
// error for a begin marker without an end marker.
func mergeMarked(existing, block []byte, file string) ([]byte, error) {
	out, err := markers.Merge(existing, block)
	if me := (*MarkerError)(nil); errors.As(err, &me) && me.File == "" {
		me.File = file
	}
	return out, err
}

// secondBlocks reports every robotsmith block of existing after the first: Merge removes them.
func secondBlocks(existing []byte, file string) []Finding {
	var out []Finding
	if spans := markers.Find(existing); len(spans) > 1 {
		for _, s := range spans[1:] {
			out = append(out, Finding{File: file, Line: s.Line, Code: problem.SecondBlock, Msg: "a second robotsmith block: robotsmith keeps only the first"})
		}
	}
	return out
}

// eitherForm writes p, a path as served, as a regular expression (RE2, which is also valid in
// JavaScript's u and plain modes) that matches the path as a client may request it: each
// character outside the unreserved ones (RFC 3986: letters, digits, - . _ ~) as it is or
// percent-encoded, in either case of hex digit. A host that compares the path as the request
// sent it then matches whatever the client encoded, and one that decodes it first matches too.
// '%' itself is matched only encoded (%25): were a bare '%' allowed, "/a%20b" could be the file
// "a%20b" or the file "a b" decoded, and a rule could match two files; both hosts' own local
// servers (vercel dev, superstatic) compare the path as it was sent.
func eitherForm(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r < utf8.RuneSelf && (unreserved(byte(r)) || r == '/') {
			b.WriteString(regexp.QuoteMeta(string(r)))
			continue
		}
		var enc strings.Builder
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		for _, c := range buf[:n] {
			enc.WriteByte('%')
			enc.WriteString(hexEitherCase(c >> 4))
			enc.WriteString(hexEitherCase(c & 15))
		}
		if r == '%' {
			b.WriteString(enc.String())
			continue
		}
		b.WriteString("(?:" + regexp.QuoteMeta(string(r)) + "|" + enc.String() + ")")
	}
	return b.String()
}

func unreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// hexEitherCase is a hex digit as a pattern that matches it in upper or lower case.
func hexEitherCase(d byte) string {
	const hex = "0123456789ABCDEF"
	if d < 10 {
		return hex[d : d+1]
	}
	return "[" + hex[d:d+1] + strings.ToLower(hex[d:d+1]) + "]"
}

// joinLines is a decision's X-Robots-Tag lines as one header value, the generic line first: the
// JSON hosts keep one value per header name in a rule, the later replacing the earlier, so the
// lines are joined as Netlify and Cloudflare join repeated lines.
func joinLines(lines []rules.HeaderLine) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l.String()
	}
	return strings.Join(parts, ", ")
}
