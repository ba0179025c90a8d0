package headers

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// smallSite is a site with a few files of each kind and mixed decisions.
func smallSite() []File {
	return []File{
		{Path: "/"},
		{Path: "/about/"},
		{Path: "/blog/a/", Lines: ls(g("noindex, follow"))},
		{Path: "/blog/b/"},
		{Path: "/files/report.pdf", Lines: ls(g("noindex, nofollow"), ag("googlebot", "nosnippet"))},
		{Path: "/files/public.pdf"},
		{Path: "/files/my report (v2).pdf", Lines: ls(g("noindex"))},
		{Path: "/files/résumé.pdf", Lines: ls(g("noindex"))},
		{Path: "/files/agent-only.pdf", Lines: ls(ag("googlebot", "noindex"), ag("bingbot", "noarchive"))},
		{Path: "/img/logo.png"},
		{Path: "/img/private/a.png", Lines: ls(g("noimageindex"))},
		{Path: "/img/private/b.png", Lines: ls(g("noimageindex"))},
	}
}

// photoSite is 5,000 images in 40 folders with mixed decisions, plus a
// page per folder (default decision). With cannotFold the last five
// folders alternate between noindex and the default file by file, which no
// /folder/* rule can express.
func photoSite(cannotFold bool) []File {
	files := []File{{Path: "/"}, {Path: "/photos/"}}
	for f := 0; f < 40; f++ {
		dir := fmt.Sprintf("/photos/f%02d/", f)
		files = append(files, File{Path: dir})
		for i := 0; i < 125; i++ {
			name := fmt.Sprintf("img%03d.jpg", i)
			var fl File
			switch {
			case f < 10: // the whole folder noindex: one fold
				fl = File{Path: dir + name, Lines: ls(g("noindex"))}
			case f < 20: // another shared decision with an agent line
				fl = File{Path: dir + name, Lines: ls(g("noimageindex"), ag("googlebot", "nosnippet"))}
			case f < 30: // the default: no rule
				fl = File{Path: dir + name}
			case f < 35: // half in a subfolder that folds, half default
				if i < 60 {
					fl = File{Path: dir + "a/" + name, Lines: ls(g("noindex"))}
				} else {
					fl = File{Path: dir + "b/" + name}
				}
			default: // a subfolder that folds and five exceptions at the top
				switch {
				case cannotFold && i%2 == 0:
					fl = File{Path: dir + name, Lines: ls(g("noindex"))}
				case cannotFold:
					fl = File{Path: dir + name}
				case i < 120:
					fl = File{Path: dir + "x/" + name, Lines: ls(g("noindex"))}
				default:
					fl = File{Path: dir + name, Lines: ls(g("noindex, nofollow"))}
				}
			}
			files = append(files, fl)
		}
	}
	return files
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testtool.Golden(t, filepath.Join("testdata", name), got, *update)
}

func TestBlockGolden(t *testing.T) {
	user := []byte("/*\n  X-Frame-Options: DENY\n/api/*\n  Cache-Control: no-store\n")
	tests := []struct {
		desc   string
		golden string
		files  []File
		opt    Options
	}{
		{"netlify small site", "netlify-small.golden", smallSite(), Options{Format: Netlify}},
		{"cloudflare small site", "cloudflare-small.golden", smallSite(), Options{Format: Cloudflare}},
		{"cloudflare 5000 images fold", "cloudflare-photos.golden", photoSite(false), Options{Format: Cloudflare, Existing: user}},
		{"cloudflare no files", "cloudflare-empty.golden", nil, Options{Format: Cloudflare}},
		{"netlify no files", "netlify-empty.golden", nil, Options{Format: Netlify}},
		// Content-Usage for every path: one /* rule; on Cloudflare it repeats the user's own /*
		// rule (Cloudflare keeps one rule per path), and counts toward the limit.
		{"netlify content usage", "netlify-usage.golden", smallSite(), Options{Format: Netlify, Existing: user, ContentUsage: "train-ai=n, search=y"}},
		{"cloudflare content usage", "cloudflare-usage.golden", smallSite(), Options{Format: Cloudflare, Existing: user, ContentUsage: "train-ai=n, search=y"}},
		{"cloudflare content usage, 5000 images", "cloudflare-photos-usage.golden", photoSite(false), Options{Format: Cloudflare, Existing: user, ContentUsage: "train-ai=n"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := Block(tc.files, tc.opt)
			if err != nil {
				t.Fatalf("Block: %v", err)
			}
			golden(t, tc.golden, got)
			checkBlock(t, got, tc.files, tc.opt)
		})
	}
}

func TestBlockCannotFold(t *testing.T) {
	_, err := Block(photoSite(true), Options{Format: Cloudflare})
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrTooManyRules) {
		t.Fatalf("Block: got error %v, want a *LimitError", err)
	}
	if le.Needed <= MaxRules || le.Limit != MaxRules {
		t.Errorf("Needed %d, Limit %d: want Needed over %d", le.Needed, le.Limit, MaxRules)
	}
	for _, f := range le.Folders {
		if !strings.HasPrefix(f.Folder, "/photos/f3") {
			t.Errorf("suggested %s, which already shares one decision", f.Folder)
		}
	}
	saved := 0
	for _, f := range le.Folders {
		saved += f.Rules - 1
	}
	if le.Needed-saved > MaxRules {
		t.Errorf("the suggested folders %v save %d rules of %d needed: not enough", le.Folders, saved, le.Needed)
	}
	golden(t, "cloudflare-photos-cannot.golden", []byte(err.Error()+"\n"))
}

// checkBlock reads the block back and checks, with the host's own matching
// rules, that each file is matched by exactly one robotsmith rule holding
// its lines, or by none when it has the default decision; Cloudflare limits
// are met and the preview rule comes first.
func checkBlock(t *testing.T, block []byte, files []File, opt Options) {
	t.Helper()
	if !bytes.HasPrefix(block, []byte(BeginMarker+"\n")) || !bytes.HasSuffix(block, []byte(EndMarker+"\n")) {
		t.Fatalf("block does not start with %q and end with %q", BeginMarker, EndMarker)
	}
	inner := bytes.TrimSuffix(bytes.TrimPrefix(block, []byte(BeginMarker+"\n")), []byte(EndMarker+"\n"))
	rules := parse(inner).rules
	if opt.Format == Cloudflare {
		if len(rules) == 0 || rules[0].path != PreviewRule {
			t.Errorf("first rule is not the preview rule %s", PreviewRule)
		}
		if n := len(rules) + countUserRules(opt.Existing); n > MaxRules {
			t.Errorf("%d rules, cloudflare allows %d", n, MaxRules)
		}
		for _, l := range strings.Split(string(block), "\n") {
			if len(l) > MaxLine {
				t.Errorf("a line of %d characters", len(l))
			}
		}
		rules = rules[1:]
	}
	// The Content-Usage rule for /*, when asked for: one, with the value, and no X-Robots-Tag.
	var xrt []userRule
	usage := 0
	for _, r := range rules {
		var sets bool
		for _, h := range r.headers {
			switch {
			case strings.EqualFold(h.name, headerName):
				sets = true
			case strings.EqualFold(h.name, usageHeader):
				usage++
				if r.path != "/*" || h.value != opt.ContentUsage {
					t.Errorf("rule %s sends Content-Usage %q, want it for /* alone with %q", r.path, h.value, opt.ContentUsage)
				}
			}
		}
		if sets {
			xrt = append(xrt, r)
		}
	}
	if want := map[bool]int{true: 0, false: 1}[opt.ContentUsage == ""]; usage != want {
		t.Errorf("%d Content-Usage lines, want %d", usage, want)
	}
	rules = xrt
	ms := make([]func(string) bool, len(rules))
	for i, r := range rules {
		if opt.Format == Cloudflare && strings.Count(r.path, "*") > 1 {
			t.Errorf("rule %s has more than one *", r.path)
		}
		ms[i] = matcher(r.path, opt.Format)
	}
	for _, f := range files {
		p := EncodePath(f.Path)
		var got []string
		n := 0
		for i, m := range ms {
			if m(p) {
				n++
				got = nil
				for _, h := range rules[i].headers {
					got = append(got, h.value)
				}
			}
		}
		switch {
		case len(f.Lines) == 0 && n != 0:
			t.Errorf("%s has the default decision but %d rules match it", f.Path, n)
		case len(f.Lines) > 0 && n != 1:
			t.Errorf("%s: %d rules match it, want exactly 1", f.Path, n)
		case len(f.Lines) > 0 && strings.Join(got, "\n") != strings.Join(written(f.Lines), "\n"):
			t.Errorf("%s: got lines %q, want %q", f.Path, got, f.Lines)
		}
	}
}

func TestBlockErrors(t *testing.T) {
	tests := []struct {
		desc   string
		files  []File
		format Format
		want   error
		substr string
	}{
		{"star in path", []File{{Path: "/a*b.pdf", Lines: ls(g("noindex"))}}, Netlify, ErrPath, "wildcard"},
		{"netlify placeholder segment", []File{{Path: "/:lang/a.pdf", Lines: ls(g("noindex"))}}, Netlify, ErrPath, "placeholder"},
		{"cloudflare placeholder mid-segment", []File{{Path: "/a:b.pdf", Lines: ls(g("noindex"))}}, Cloudflare, ErrPath, "placeholder"},
		{"relative path", []File{{Path: "a.pdf", Lines: ls(g("noindex"))}}, Cloudflare, ErrPath, "start with /"},
		{"empty segment (found by FuzzBlock)", []File{{Path: "//0/1.png", Lines: ls(g("noindex"))}}, Netlify, ErrPath, "empty segment"},
		{"dot segment", []File{{Path: "/a/../b.pdf", Lines: ls(g("noindex"))}}, Netlify, ErrPath, ".."},
		{"bare after agent", []File{{Path: "/a.pdf", Lines: ls(ag("googlebot", "nosnippet"), g("noindex"))}}, Netlify, ErrLines, "generic directives first"},
		{"empty line", []File{{Path: "/a.pdf", Lines: ls(g("noindex"), g(" "))}}, Cloudflare, ErrLines, "empty"},
		{"line break", []File{{Path: "/a.pdf", Lines: ls(g("noindex\nX-Evil: 1"))}}, Netlify, ErrLines, "line break"},
		{"agent that is no crawler token", []File{{Path: "/a.pdf", Lines: ls(ag("google bot", "noindex"))}}, Netlify, ErrLines, "cannot name an agent"},
		{"directive name as agent", []File{{Path: "/a.pdf", Lines: ls(g("noindex"), ag("max-snippet", "5"))}}, Cloudflare, ErrLines, "cannot name an agent"},
		{"line break in an agent", []File{{Path: "/a.pdf", Lines: ls(ag("googlebot\nX-Evil", "1"))}}, Netlify, ErrLines, "line break"},
		{"twice, different lines", []File{{Path: "/a.pdf", Lines: ls(g("noindex"))}, {Path: "/a.pdf"}}, Cloudflare, ErrLines, "twice"},
		{"netlify case conflict", []File{{Path: "/A.pdf", Lines: ls(g("noindex"))}, {Path: "/a.pdf"}}, Netlify, ErrCaseConflict, "/A.pdf, /a.pdf"},
		{"netlify trailing slash conflict", []File{{Path: "/a/", Lines: ls(g("noindex"))}, {Path: "/a"}}, Netlify, ErrCaseConflict, "trailing slash"},
		{"cloudflare line too long", []File{{Path: "/a.pdf", Lines: ls(g("noindex, " + strings.Repeat("x", MaxLine)))}}, Cloudflare, ErrLines, "2000"},
		{"cloudflare path too long", []File{{Path: "/" + strings.Repeat("a", MaxLine), Lines: ls(g("noindex"))}}, Cloudflare, ErrPath, "2000"},
		{"cloudflare too many user rules", userFiles(), Cloudflare, ErrTooManyRules, "99 of your own"},
		{"cloudflare: the Content-Usage rule counts", userFiles(), Cloudflare, ErrTooManyRules, "needs 102 even after folding (1 preview rule, 1 Content-Usage rule, 99 of your own, 1 for files)"},
		{"a line break in Content-Usage", userFiles(), Netlify, ErrLines, `the Content-Usage value "train-ai=n\nX-Evil: 1" holds a control character`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			opt := Options{Format: tc.format}
			if strings.Contains(tc.desc, "Content-Usage") {
				opt.ContentUsage = "train-ai=n"
			}
			if tc.desc == "a line break in Content-Usage" {
				opt.ContentUsage = "train-ai=n\nX-Evil: 1"
			}
			if tc.want == ErrTooManyRules {
				var b strings.Builder
				for i := 0; i < 99; i++ {
					fmt.Fprintf(&b, "/u%d\n  X-A: b\n", i)
				}
				opt.Existing = []byte(b.String())
			}
			out, err := Block(tc.files, opt)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got error %v, want %v", err, tc.want)
			}
			if out != nil {
				t.Errorf("got output with an error")
			}
			if !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %q does not say %q", err, tc.substr)
			}
		})
	}
}

func userFiles() []File { return []File{{Path: "/x.pdf", Lines: ls(g("noindex"))}} }

func TestBlockAllowed(t *testing.T) {
	tests := []struct {
		desc   string
		files  []File
		format Format
		want   string // a line the block must hold
	}{
		{"netlify same lines differ in case: one rule", []File{{Path: "/A.pdf", Lines: ls(g("noindex"))}, {Path: "/a.pdf", Lines: ls(g("noindex"))}}, Netlify, "/A.pdf\n  X-Robots-Tag: noindex\n# robotsmith: end"},
		{"cloudflare is case-sensitive", []File{{Path: "/A.pdf", Lines: ls(g("noindex"))}, {Path: "/a.pdf"}}, Cloudflare, "/A.pdf\n  X-Robots-Tag: noindex\n# robotsmith: end"},
		{"netlify colon inside a segment", []File{{Path: "/a:b.pdf", Lines: ls(g("noindex"))}}, Netlify, "/a:b.pdf\n"},
		{"default file with a star is fine", []File{{Path: "/a*.pdf"}, {Path: "/b.pdf", Lines: ls(g("noindex"))}}, Cloudflare, "/b.pdf\n"},
		{"duplicate, same lines", []File{{Path: "/b.pdf", Lines: ls(g("noindex"))}, {Path: "/b.pdf", Lines: ls(g("noindex"))}}, Netlify, "/b.pdf\n  X-Robots-Tag: noindex\n# robotsmith: end"},
		{"lines are trimmed (found by FuzzBlock)", []File{{Path: "/t.pdf", Lines: ls(g(" noindex "))}}, Netlify, "/t.pdf\n  X-Robots-Tag: noindex\n#"},
		{"encoding", []File{{Path: "/a b/é?#%.pdf", Lines: ls(g("noindex"))}}, Netlify, "/a%20b/%C3%A9%3F%23%25.pdf\n"},
		{"valued directives are not agents", []File{{Path: "/v.pdf", Lines: ls(g("max-snippet:0, unavailable_after: 2027-01-31T00:00:00Z"), ag("googlebot", "noindex"))}}, Cloudflare, "  X-Robots-Tag: googlebot: noindex\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			out, err := Block(tc.files, Options{Format: tc.format})
			if err != nil {
				t.Fatalf("Block: %v", err)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("got\n%s\nwant it to hold %q", out, tc.want)
			}
		})
	}
}

// TestFoldOnlyWhenNeeded: Cloudflare rules stay exact while they fit, and
// folding starts at one rule over the budget.
func TestFoldOnlyWhenNeeded(t *testing.T) {
	for _, n := range []int{MaxRules - 1, MaxRules} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var files []File
			for i := 0; i < n; i++ {
				files = append(files, File{Path: fmt.Sprintf("/d/%03d.png", i), Lines: ls(g("noindex"))})
			}
			out, err := Block(files, Options{Format: Cloudflare})
			if err != nil {
				t.Fatal(err)
			}
			folded := strings.Contains(string(out), "/d/*\n")
			if want := n > MaxRules-1; folded != want {
				t.Errorf("%d files: folded %v, want %v", n, folded, want)
			}
			checkBlock(t, out, files, Options{Format: Cloudflare})
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		ok   bool
	}{
		{"netlify", Netlify, true},
		{" Cloudflare ", Cloudflare, true},
		{"vercel", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseFormat(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("ParseFormat(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
			}
			if tc.ok {
				if back, _ := ParseFormat(got.String()); back != got {
					t.Errorf("ParseFormat(%q.String()) = %v", got, back)
				}
			}
		})
	}
}

func BenchmarkBlock5000(b *testing.B) {
	files := photoSite(false)
	for b.Loop() {
		if _, err := Block(files, Options{Format: Cloudflare}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzBlock: for any paths and lines Block either fails or writes a block
// in which, by the host's own matching, every file gets exactly its lines.
func FuzzBlock(f *testing.F) {
	f.Add("/a.pdf\n/b/c.png\n/b/d.png\n/b/", "noindex|googlebot: nosnippet", uint8(3), false)
	f.Add("/A.pdf\n/a.pdf", "noindex", uint8(1), false)
	f.Add("/x/1.png\n/x/2.png\n/x/", "noimageindex", uint8(120), true)
	for _, tc := range blockFuzzFinds {
		f.Add(tc.paths, tc.lines, tc.copies, tc.cf)
	}
	f.Fuzz(checkBlockFor)
}

// checkBlockFor is FuzzBlock's property: for the paths (one a line) and lines
// ("|"-separated), each path copied copies%150 more times, Block either fails
// or writes a block in which every file gets exactly its lines.
func checkBlockFor(t *testing.T, paths, lines string, copies uint8, cf bool) {
	opt := Options{Format: Netlify}
	if cf {
		opt.Format = Cloudflare
	}
	var files []File
	// Each "|"-separated piece is a line; "agent: content" makes an agent's line.
	var hl []rules.HeaderLine
	for _, piece := range strings.Split(lines, "|") {
		agent, content, ok := strings.Cut(piece, ": ")
		if !ok {
			agent, content = "", piece
		}
		hl = append(hl, rules.HeaderLine{Agent: agent, Content: content})
	}
	for i, p := range strings.Split(paths, "\n") {
		for c := 0; c < int(copies%150)+1; c++ {
			q := p
			if c > 0 {
				q = fmt.Sprintf("%s/%d.png", strings.TrimSuffix(p, "/"), c)
			}
			fl := File{Path: q}
			if (i+c)%3 != 0 {
				fl.Lines = hl
			}
			files = append(files, fl)
		}
	}
	out, err := Block(files, opt)
	if err != nil {
		return
	}
	checkBlock(t, out, files, opt)
}

// blockFuzzFinds are the inputs the fuzzer found failing, each fixed since.
var blockFuzzFinds = []struct {
	desc, paths, lines string
	copies             uint8
	cf                 bool
}{
	{"a path of two slashes", "//0", "0", 'x', false},
	{"a path and a bare slash", "/Aaaa\n/", "000 ", 1, false},
}

func TestBlockFuzzFinds(t *testing.T) {
	for _, tc := range blockFuzzFinds {
		t.Run(tc.desc, func(t *testing.T) { checkBlockFor(t, tc.paths, tc.lines, tc.copies, tc.cf) })
	}
}

// g is a generic X-Robots-Tag line, ag an agent's line and ls a file's lines: the structured form
// that rules gives and Block takes.
func g(content string) rules.HeaderLine { return rules.HeaderLine{Content: content} }
func ag(agent, content string) rules.HeaderLine {
	return rules.HeaderLine{Agent: agent, Content: content}
}
func ls(lines ...rules.HeaderLine) []rules.HeaderLine {
	return lines
}

// written is lines as the block writes them, blanks trimmed.
func written(lines []rules.HeaderLine) []string {
	var out []string
	for _, l := range lines {
		out = append(out, rules.HeaderLine{Agent: strings.TrimSpace(l.Agent), Content: strings.TrimSpace(l.Content)}.String())
	}
	return out
}

// bigSite is a site of n pages in 20 sections, with a PDF and an image in every tenth page's bundle:
// the pages and images keep the default (no lines), the PDFs share one decision, as a rule
// `/**/*.pdf: noindex` gives them. Files share their lines slice, as the pipeline hands them over.
func bigSite(n int) []File {
	noindex := ls(g("noindex, follow"))
	files := make([]File, 0, n+n/5)
	for i := range n {
		dir := fmt.Sprintf("/section-%02d/page-%06d/", i%20, i)
		files = append(files, File{Path: dir})
		if i%10 == 0 {
			files = append(files, File{Path: dir + "figure.png"}, File{Path: dir + "report.pdf", Lines: noindex})
		}
	}
	return files
}

// BenchmarkBlock100000 is _headers for a 100,000-page site.
// Run: go test -run '^$' -bench Block100000 -benchmem ./headers
func BenchmarkBlock100000(b *testing.B) {
	files := bigSite(100000)
	for _, f := range []Format{Netlify, Cloudflare} {
		b.Run(f.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Block(files, Options{Format: f}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(files)), "ns/file")
		})
	}
}
