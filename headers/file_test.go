package headers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

func TestMerge(t *testing.T) {
	block := []byte(BeginMarker + "\n/a.pdf\n  X-Robots-Tag: noindex\n" + EndMarker + "\n")
	tests := []struct {
		desc     string
		existing string
		want     string
	}{
		{"nil", "", string(block)},
		{"no block, trailing newline", "/*\n  X-A: b\n", "/*\n  X-A: b\n\n" + string(block)},
		{"no block, no trailing newline", "/*\n  X-A: b", "/*\n  X-A: b\n\n" + string(block)},
		{"no block, blank line already", "/*\n  X-A: b\n\n", "/*\n  X-A: b\n\n" + string(block)},
		{"block in the middle", "/x\n  X-A: b\n" + BeginMarker + "\nold\n" + EndMarker + "\n/y\n  X-C: d\n",
			"/x\n  X-A: b\n" + string(block) + "/y\n  X-C: d\n"},
		{"indented markers, end at EOF without newline", "/x\n  X-A: b\n  " + BeginMarker + "\nold\n" + EndMarker,
			"/x\n  X-A: b\n" + string(block)},
		{"second block removed", BeginMarker + "\n1\n" + EndMarker + "\nkeep\n" + BeginMarker + "\n2\n" + EndMarker + "\ntail",
			string(block) + "keep\ntail"},
		{"end marker before begin is user text", EndMarker + "\n/x\n  X-A: b\n", EndMarker + "\n/x\n  X-A: b\n\n" + string(block)},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := Merge([]byte(tc.existing), block)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			if string(got) != tc.want {
				t.Errorf("Merge:\ngot  %q\nwant %q", got, tc.want)
			}
			if again, err := Merge(got, block); err != nil || !bytes.Equal(again, got) {
				t.Errorf("Merge is not idempotent:\nonce  %q\ntwice %q", got, again)
			}
		})
	}
}

// TestMergeUnclosed: a begin marker with no end marker after it is an error
// naming its line, and nothing is merged: taking the block to run to the end
// of the file would delete the user's rules after it.
func TestMergeUnclosed(t *testing.T) {
	block := []byte(BeginMarker + "\n" + EndMarker + "\n")
	tests := []struct {
		desc     string
		existing string
		line     int
	}{
		{"begin, then the user's rules", "/x\n  X-A: b\n" + BeginMarker + "\nold\n/y\n  X-C: d\n", 3},
		{"begin at the end of the file", "/x\n  X-A: b\n  " + BeginMarker, 3},
		{"a closed block, then an open one", BeginMarker + "\n" + EndMarker + "\n/y\n  X-C: d\n" + BeginMarker + "\n/z\n", 5},
		{"CRLF", "/x\r\n  X-A: b\r\n" + BeginMarker + "\r\n/y\r\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			out, err := Merge([]byte(tc.existing), block)
			var me *MarkerError
			if !errors.As(err, &me) || !errors.Is(err, ErrUnclosed) {
				t.Fatalf("got %q, %v; want a *MarkerError", out, err)
			}
			if me.Line != tc.line || out != nil {
				t.Errorf("got line %d and %d bytes, want line %d and none", me.Line, len(out), tc.line)
			}
			if want := fmt.Sprintf("_headers:%d: ", tc.line); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %q, want it to start with %q", err, want)
			}
		})
	}
}

func TestMergeGolden(t *testing.T) {
	for _, name := range []string{"merge-crlf", "merge-user"} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", name+".input"))
			if err != nil {
				t.Fatal(err)
			}
			block, err := Block(smallSite(), Options{Format: Cloudflare, Existing: in})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Merge(in, block)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".golden", got)
			// Every byte outside the block is kept, in order.
			p := parse(in)
			var outside []byte
			prev := 0
			for _, b := range p.blocks {
				outside = append(outside, in[prev:b.Start]...)
				prev = b.End
			}
			outside = append(outside, in[prev:]...)
			rest := bytes.Replace(got, block, nil, 1)
			if !bytes.Equal(bytes.TrimRight(rest, "\r\n"), bytes.TrimRight(outside, "\r\n")) {
				t.Errorf("bytes outside the block changed:\ngot  %q\nwant %q", rest, outside)
			}
		})
	}
}

func TestParse(t *testing.T) {
	in := "# c\n/a\n  X-A: 1\n  x-robots-tag : noindex\nno colon\n  ! X-Robots-Tag\n" +
		BeginMarker + "\n/inside\n  X-Robots-Tag: noindex\n" + EndMarker + "\n" +
		"https://:project.pages.dev/*\n  X-B: 2\n/empty\n"
	p := parse([]byte(in))
	type r struct {
		line    int
		path    string
		headers int
	}
	want := []r{{2, "/a", 3}, {11, "https://:project.pages.dev/*", 1}, {13, "/empty", 0}}
	if len(p.rules) != len(want) {
		t.Fatalf("got %d rules %+v, want %d", len(p.rules), p.rules, len(want))
	}
	for i, w := range want {
		g := p.rules[i]
		if g.line != w.line || g.path != w.path || len(g.headers) != w.headers {
			t.Errorf("rule %d: got line %d path %q %d headers, want %+v", i, g.line, g.path, len(g.headers), w)
		}
	}
	if h := p.rules[0].headers[1]; h.name != "x-robots-tag" || h.value != "noindex" || h.line != 4 {
		t.Errorf("header: got %+v", h)
	}
	if h := p.rules[0].headers[2]; !h.unset || h.name != "X-Robots-Tag" {
		t.Errorf("unset header: got %+v", h)
	}
	if len(p.blocks) != 1 || !p.blocks[0].Closed || p.blocks[0].Line != 7 {
		t.Errorf("blocks: got %+v", p.blocks)
	}
	if got := countUserRules([]byte(in)); got != 2 {
		t.Errorf("countUserRules = %d, want 2 (a rule without headers does not count)", got)
	}
}

func TestLint(t *testing.T) {
	files := []File{
		{Path: "/files/a.pdf", Lines: ls(g("noindex"))},
		{Path: "/files/b.pdf", Lines: ls(g("noindex"))},
		{Path: "/files/c.pdf"},
		{Path: "/img/x.png", Lines: ls(g("noimageindex"))},
	}
	tests := []struct {
		desc     string
		existing string
		format   Format
		want     []Finding // Msg compared as a substring
	}{
		{"no X-Robots-Tag rules", "/*\n  X-A: b\n", Netlify, nil},
		{"rule for a default file only", "/files/c.pdf\n  X-Robots-Tag: noarchive\n", Netlify, nil},
		{"netlify before the block", "/files/*\n  X-Robots-Tag: noarchive\n", Netlify,
			[]Finding{{Line: 2, Path: "/files/a.pdf", Msg: "netlify drops this rule's X-Robots-Tag for it (and 1 more files)"}}},
		{"netlify after the block", BeginMarker + "\n" + EndMarker + "\n/*.PDF\n  x-robots-tag: noarchive\n", Netlify,
			[]Finding{{Line: 4, Path: "/files/a.pdf", Msg: "netlify sends its X-Robots-Tag instead"}}},
		{"cloudflare is case-sensitive", "/*.PDF\n  X-Robots-Tag: noarchive\n", Cloudflare, nil},
		{"cloudflare appends", "/img/*\n  X-Robots-Tag: noarchive\n", Cloudflare,
			[]Finding{{Line: 2, Path: "/img/x.png", Msg: "joins both values"}}},
		{"cloudflare unset", "/img/:name\n  ! X-Robots-Tag\n", Cloudflare,
			[]Finding{{Line: 2, Path: "/img/x.png", Msg: "removes"}}},
		{"netlify /img/* matches /img", "/img/*\n  X-Robots-Tag: noarchive\n", Netlify,
			[]Finding{{Line: 2, Path: "/img/x.png", Msg: "also sets X-Robots-Tag"}}},
		{"second block", BeginMarker + "\n" + EndMarker + "\n/a\n  X-A: b\n" + BeginMarker + "\n" + EndMarker + "\n", Netlify,
			[]Finding{{Line: 5, Msg: "keeps only the first"}}},
		{"rules inside the block are robotsmith's", BeginMarker + "\n/files/*\n  X-Robots-Tag: noarchive\n" + EndMarker + "\n", Cloudflare, nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := Lint([]byte(tc.existing), files, tc.format)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings %v, want %d %v", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Line != w.Line || g.Path != w.Path || !strings.Contains(g.Msg, w.Msg) {
					t.Errorf("finding %d: got %v, want line %d path %q msg containing %q", i, g, w.Line, w.Path, w.Msg)
				}
			}
		})
	}
}

// TestLintContentUsage: with robotsmith sending Content-Usage for every path, a user rule that sets
// it too is a finding in both dialects, and so is a Cloudflare /* rule after robotsmith's block
// (Cloudflare keeps one rule per path).
func TestLintContentUsage(t *testing.T) {
	block := BeginMarker + "\n" + EndMarker + "\n"
	tests := []struct {
		desc     string
		existing string
		format   Format
		want     []Finding // Msg compared as a substring
	}{
		{"no Content-Usage of the user's", "/*\n  X-Frame-Options: DENY\n" + block, Netlify, nil},
		{"netlify before the block", "/blog/*\n  X-A: b\n  Content-Usage: train-ai=y\n" + block, Netlify,
			[]Finding{{Line: 3, Msg: "rule /blog/* also sets Content-Usage, which robotsmith sends for every path from the ai policy in its config; robotsmith's block comes later, so netlify drops this rule's value"}}},
		{"netlify after the block", block + "/*\n  content-usage: train-ai=y\n", Netlify,
			[]Finding{{Line: 4, Msg: "netlify sends its value instead of robotsmith's"}}},
		{"cloudflare joins other paths", "/blog/*\n  Content-Usage: search=n\n", Cloudflare,
			[]Finding{{Line: 2, Msg: "cloudflare joins both values into one Content-Usage"}}},
		{"cloudflare /* before the block", "/*\n  Content-Usage: search=n\n" + block, Cloudflare,
			[]Finding{{Line: 2, Msg: "robotsmith's /* rule comes later and replaces this one"}}},
		{"cloudflare /* after the block", block + "/*\n  Content-Usage: search=n\n", Cloudflare,
			[]Finding{{Line: 4, Msg: "replaces robotsmith's /* rule: its value is sent instead of robotsmith's"}}},
		{"cloudflare /* after the block without Content-Usage", block + "/*\n  X-Frame-Options: DENY\n", Cloudflare,
			[]Finding{{Line: 3, Msg: "move robotsmith's block below this rule"}}},
		{"netlify /* after the block is fine", block + "/*\n  X-Frame-Options: DENY\n", Netlify, nil},
		{"cloudflare unset", "/*.pdf\n  ! Content-Usage\n", Cloudflare,
			[]Finding{{Line: 2, Msg: "cloudflare removes the Content-Usage that robotsmith sets"}}},
		{"inside the block is robotsmith's", BeginMarker + "\n/*\n  Content-Usage: train-ai=n\n" + EndMarker + "\n", Cloudflare, nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := LintContentUsage([]byte(tc.existing), tc.format)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings %v, want %d %v", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if g := got[i]; g.Line != w.Line || g.Path != "" || !strings.Contains(g.Msg, w.Msg) {
					t.Errorf("finding %d: got %v, want line %d msg containing %q", i, g, w.Line, w.Msg)
				}
			}
		})
	}
}

// TestMatcher checks the host matching that Lint and the block checks rely
// on, with the facts of the hosts reference (§1, §2 and its table).
func TestMatcher(t *testing.T) {
	tests := []struct {
		rule, path string
		f          Format
		want       bool
	}{
		{"/img/*", "/img", Netlify, true},
		{"/img/*", "/img", Cloudflare, false},
		{"/img/*", "/img/a/b.png", Cloudflare, true},
		{"/*.pdf", "/a/b/c.pdf", Netlify, true},
		{"/*.pdf", "/a/b/c.pdf", Cloudflare, true},
		{"/*.PDF", "/file.pdf", Netlify, true},
		{"/*.PDF", "/file.pdf", Cloudflare, false},
		{"/a.pdf", "/aXpdf", Netlify, false},
		{"/a.pdf", "/aXpdf", Cloudflare, false},
		{"/a/", "/a", Netlify, true},
		{"/a/", "/a", Cloudflare, false},
		{"/:lang/x.pdf", "/en/x.pdf", Netlify, true},
		{"/:lang/x.pdf", "/en/x.pdf", Cloudflare, true},
		{"/:lang/x.pdf", "/en/y/x.pdf", Cloudflare, false},
		{"https://:project.pages.dev/a/*", "/a/b", Cloudflare, true},
		{"/photos/f00/*.jpg", "/photos/f00/", Cloudflare, false},
		{"/photos/f00/*.jpg", "/photos/f00/x/y.jpg", Cloudflare, true},
	}
	for _, tc := range tests {
		t.Run(tc.f.String()+" "+tc.rule+" "+tc.path, func(t *testing.T) {
			if got := matcher(tc.rule, tc.f)(tc.path); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestInterpret(t *testing.T) {
	tests := []struct {
		desc, a, b string
		equal      bool
	}{
		{"order does not matter", "noindex, nofollow", "nofollow,noindex", true},
		{"folded lines", "noindex, googlebot: nosnippet, bingbot: noarchive", "noindex, bingbot: noarchive, googlebot: nosnippet", true},
		{"a bare directive after an agent belongs to it", "googlebot: nosnippet, noarchive", "noarchive, googlebot: nosnippet", false},
		{"valued directives are not agents", "max-snippet: 20, unavailable_after: 2027-01-31T00:00:00Z", "max-snippet:20, unavailable_after:2027-01-31T00:00:00Z", true},
		{"agent case", "GoogleBot: NoIndex", "googlebot: noindex", true},
		{"agents differ", "googlebot: noindex", "bingbot: noindex", false},
		{"empty", "", " ", true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Interpret(tc.a).Equal(Interpret(tc.b)); got != tc.equal {
				t.Errorf("Interpret(%q).Equal(Interpret(%q)) = %v, want %v", tc.a, tc.b, got, tc.equal)
			}
		})
	}
}

// TestInterpretSeparators: an X-Robots-Tag value whose directives are separated by spaces,
// semicolons or line breaks is read as rules reads a page's (SPEC §4, SPEC §6), with the warning
// saying to use commas; agent prefixes and dates with spaces and a comma stay whole.
func TestInterpretSeparators(t *testing.T) {
	tests := []struct {
		desc, value string
		generic     []string
		agents      map[string][]string
		warn        string // substring; "" for none
	}{
		{"spaces", "noindex nofollow", []string{"noindex", "nofollow"}, nil, `directives separated by spaces are read as "noindex, nofollow"`},
		{"semicolons", "noindex; nofollow", []string{"noindex", "nofollow"}, nil, "separated by semicolons"},
		{"an agent prefix, then spaces", "googlebot: noindex nofollow", nil, map[string][]string{"googlebot": {"noindex", "nofollow"}}, "separated by spaces"},
		{"an agent prefix alone is no separator", "googlebot: noindex", nil, map[string][]string{"googlebot": {"noindex"}}, ""},
		{"generic, then an agent after a semicolon", "noarchive; googlebot: noindex", []string{"noarchive"}, map[string][]string{"googlebot": {"noindex"}}, "separated by semicolons"},
		{"a space after the colon of a valued directive", "max-snippet: 50", []string{"max-snippet:50"}, nil, ""},
		{"an RFC 850 date", "unavailable_after: Friday, 25-Jun-10 15:00:00 PST", []string{"unavailable_after:friday, 25-jun-10 15:00:00 pst"}, nil, ""},
		{"an RFC 850 date after a space", "noindex unavailable_after: Friday, 25-Jun-10 15:00:00 PST",
			[]string{"noindex", "unavailable_after:friday, 25-jun-10 15:00:00 pst"}, nil, "separated by spaces"},
		{"an unknown word keeps the known ones", "noindex foo", []string{"noindex", "foo"}, nil, "separated by spaces"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := Interpret(tc.value)
			want := Directives{Generic: map[string]bool{}, Agents: map[string]map[string]bool{}}
			for _, d := range tc.generic {
				want.Generic[d] = true
			}
			for a, ds := range tc.agents {
				want.Agents[a] = map[string]bool{}
				for _, d := range ds {
					want.Agents[a][d] = true
				}
			}
			if !got.Equal(want) {
				t.Errorf("Interpret(%q) = %v, want %v", tc.value, got, want)
			}
			switch w := got.Warning; {
			case tc.warn == "" && w != nil:
				t.Errorf("Interpret(%q) warns %q, want no warning", tc.value, w.Msg)
			case tc.warn != "" && (w == nil || !strings.Contains(w.Msg, tc.warn) || w.Code != problem.LooseSeparators):
				t.Errorf("Interpret(%q) warns %v, want %s %q", tc.value, w, problem.LooseSeparators, tc.warn)
			}
		})
	}
}

// TestLongValueMessages: an error about a value from the config quotes at most about 80
// characters of it, once (SPEC §10), however long it is.
func TestLongValueMessages(t *testing.T) {
	long := strings.Repeat("9", 10000)
	_, blockErr := Block(userFiles(), Options{Format: Netlify, ContentUsage: "train-ai=n\x00" + long})
	_, formatErr := ParseFormat(long)
	for _, tc := range []struct {
		desc string
		err  error
	}{{"a control character in Content-Usage", blockErr}, {"an unknown format", formatErr}} {
		t.Run(tc.desc, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("got no error")
			}
			msg := tc.err.Error()
			if len(msg) > 300 {
				t.Errorf("a message of %d bytes, want at most 300: %.400s", len(msg), msg)
			}
			if n := len(regexp.MustCompile(`9{20,}`).FindAllString(msg, -1)); n != 1 {
				t.Errorf("the message quotes the value %d times, want once: %.400s", n, msg)
			}
		})
	}
}

// FuzzMerge: reading any `_headers` never panics, Merge keeps the bytes
// before the block, is idempotent, and leaves exactly one block.
func FuzzMerge(f *testing.F) {
	for _, name := range []string{"merge-crlf.input", "merge-user.input", "netlify-small.golden", "cloudflare-small.golden"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(BeginMarker + "\n"))
	f.Add([]byte(EndMarker + "\n" + BeginMarker))
	f.Add([]byte("/a\n! X\n\x00:\n"))
	block, err := Block(smallSite(), Options{Format: Cloudflare})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p := parse(in)
		for _, b := range p.blocks {
			if b.Start < 0 || b.End > len(in) || b.Start > b.End {
				t.Fatalf("bad span %+v for %d bytes", b, len(in))
			}
		}
		_ = countUserRules(in)
		_ = Lint(in, smallSite(), Cloudflare)
		out, err := Merge(in, block)
		unclosed := false
		for _, b := range p.blocks {
			unclosed = unclosed || !b.Closed
		}
		if unclosed {
			if !errors.Is(err, ErrUnclosed) {
				t.Fatalf("a begin marker without an end: got %v, want ErrUnclosed", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if again, err := Merge(out, block); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\nonce  %q\ntwice %q", out, again)
		}
		if n := len(parse(out).blocks); n != 1 {
			t.Fatalf("%d blocks after Merge", n)
		}
		head := in
		if len(p.blocks) > 0 {
			head = in[:p.blocks[0].Start]
		}
		if !bytes.HasPrefix(out, head) {
			t.Fatalf("bytes before the block changed")
		}
	})
}

// TestUserRobotsTags: the X-Robots-Tag headers of the site's own rules, outside robotsmith's block,
// with the host's own matching of their paths.
func TestUserRobotsTags(t *testing.T) {
	existing := []byte("/private/*\n  X-Robots-Tag: noindex\n  Cache-Control: no-store\n" +
		BeginMarker + "\n/a.pdf\n  X-Robots-Tag: nofollow\n" + EndMarker + "\n" +
		"/blog/:slug/\n  x-robots-tag: googlebot: nosnippet\n/x\n  ! X-Robots-Tag\n")
	tests := []struct {
		desc   string
		format Format
		path   string
		want   []int // the lines of the headers that apply
	}{
		{"netlify splat", Netlify, "/private/a/", []int{2}},
		{"netlify placeholder", Netlify, "/blog/hello/", []int{9}},
		{"no rule", Netlify, "/a.pdf", nil},
		{"cloudflare splat", Cloudflare, "/private/b", []int{2}},
		{"cloudflare removal is no header", Cloudflare, "/x", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var got []int
			for _, u := range UserRobotsTags(existing, tc.format) {
				if u.Matches(tc.path) {
					got = append(got, u.Line)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got lines %v, want %v", got, tc.want)
			}
		})
	}
}
