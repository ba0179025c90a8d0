package rewrite

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.html from the current output")

const maxPreview = "max-snippet:-1, max-image-preview:large, max-video-preview:-1"

// public is SPEC §5's three-tag form for a public page.
var public = rules.Directives{Tags: []rules.Tag{
	{Name: "robots", Content: "index, follow"},
	{Name: "googlebot", Content: "index, follow, " + maxPreview},
	{Name: "bingbot", Content: "index, follow, " + maxPreview},
}}

// directivesFor picks the Directives a testdata page is rewritten with, by
// the prefix of its name.
func directivesFor(name string) rules.Directives {
	switch {
	case strings.HasPrefix(name, "clear-"):
		return rules.Directives{Clear: true}
	case strings.HasPrefix(name, "single-"):
		return rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "noindex, follow"}}}
	case strings.HasPrefix(name, "agents-"):
		d := public
		d.Agents = []string{"MyCrawler"}
		return d
	}
	return public
}

// directiveSets are applied to every testdata page by the invariant tests.
var directiveSets = []struct {
	desc string
	d    rules.Directives
}{
	{"public", public},
	{"single", rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "noindex, nofollow"}}}},
	{"clear", rules.Directives{Clear: true}},
	{"agents", rules.Directives{Tags: []rules.Tag{{Name: "otherbot", Content: `a"b<c>&`}}, Agents: []string{"mycrawler"}}},
}

type page struct {
	name string // without .input.html
	src  []byte
}

func testPages(t testing.TB) []page {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.input.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("got %d testdata pages, want at least 30", len(files))
	}
	var pages []page
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page{strings.TrimSuffix(filepath.Base(f), ".input.html"), src})
	}
	return pages
}

func rewriteBytes(t testing.TB, src []byte, d rules.Directives) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := Rewrite(&out, bytes.NewReader(src), d); err != nil {
		t.Fatalf("Rewrite: %v", err)
	}
	return out.Bytes()
}

func TestGolden(t *testing.T) {
	for _, p := range testPages(t) {
		t.Run(p.name, func(t *testing.T) {
			got := rewriteBytes(t, p.src, directivesFor(p.name))
			golden := filepath.Join("testdata", p.name+".golden.html")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./rewrite -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Rewrite(%s) differs from %s\ngot:\n%s\nwant:\n%s", p.name, golden, got, want)
			}
		})
	}
}

// TestPassthrough: zero Directives leave every page byte-identical.
func TestPassthrough(t *testing.T) {
	for _, p := range testPages(t) {
		t.Run(p.name, func(t *testing.T) {
			if got := rewriteBytes(t, p.src, rules.Directives{}); !bytes.Equal(got, p.src) {
				t.Errorf("got %q, want the input unchanged", got)
			}
			out, changed, err := Process(p.src, nil, func(Page) rules.Directives { return rules.Directives{} })
			if err != nil || changed || !bytes.Equal(out, p.src) {
				t.Errorf("Process: got changed=%v err=%v, want the input unchanged", changed, err)
			}
		})
	}
}

// checkInvariants checks what must hold for any input and Directives.
func checkInvariants(t *testing.T, src []byte, d rules.Directives) {
	t.Helper()
	once := rewriteBytes(t, src, d)
	twice := rewriteBytes(t, once, d)
	if !bytes.Equal(once, twice) {
		t.Fatalf("not idempotent for %q\nonce:  %q\ntwice: %q", src, once, twice)
	}
	strip := d
	strip.Tags, strip.Clear = nil, true
	for _, tag := range d.Tags {
		strip.Agents = append(strip.Agents[:len(strip.Agents):len(strip.Agents)], tag.Name)
	}
	if in, out := rewriteBytes(t, src, strip), rewriteBytes(t, once, strip); !bytes.Equal(in, out) {
		t.Fatalf("other bytes changed for %q\ninput stripped:  %q\noutput stripped: %q", src, in, out)
	}
	pin, err := Scan(bytes.NewReader(src), strip.Agents)
	if err != nil {
		t.Fatal(err)
	}
	if !pin.HTML && !bytes.Equal(once, src) {
		t.Fatalf("not HTML, yet changed: %q -> %q", src, once)
	}
	pout, err := Scan(bytes.NewReader(once), strip.Agents)
	if err != nil {
		t.Fatal(err)
	}
	if pin.HTML {
		var outside []Found
		for _, f := range pout.Tags {
			if !f.Kept {
				outside = append(outside, f)
			}
		}
		if len(outside) != 0 {
			t.Fatalf("robots tags left outside the block: %+v in %q", outside, once)
		}
		// What the page said survives: every tag of the input (and every record of an old block)
		// is recorded in the new block, so a second run merges the same sources.
		if len(d.Tags) > 0 && !sameSources(pin.Tags, pout.Tags) {
			t.Fatalf("page tags not kept: input %+v, output %+v in %q", pin.Tags, pout.Tags, once)
		}
		if want := len(d.Tags) > 0; pout.Block != want {
			t.Fatalf("got Block %v, want %v in %q", pout.Block, want, once)
		}
	}
	proc, _, err := Process(src, strip.Agents, func(Page) rules.Directives { return d })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(proc, once) {
		t.Fatalf("Process differs from Rewrite for %q\nProcess: %q\nRewrite: %q", src, proc, once)
	}
	// A Processor's Scan and Splice, with a buffer that holds another page's bytes: the same page,
	// written only when it changes; by a new Processor and by the one every check reuses, which read
	// the pages before.
	for _, p := range []*Processor{new(Processor), &reused} {
		dst := bytes.NewBufferString("another page")
		if _, err := p.Scan(src, nameSet(strip.Agents, rules.Directives{})); err != nil {
			t.Fatal(err)
		}
		changed, err := p.Splice(dst, d)
		if err != nil {
			t.Fatal(err)
		}
		got := src
		if changed {
			got = dst.Bytes()
		}
		if !bytes.Equal(got, once) || changed == bytes.Equal(once, src) {
			t.Fatalf("Splice (reused %v) differs from Rewrite for %q\nSplice (changed %v): %q\nRewrite: %q", p == &reused, src, changed, got, once)
		}
	}
}

// reused is the Processor that checkInvariants runs every page through after all it checked
// before: what a Processor keeps from a page must not change what it makes of the next.
var reused Processor

// TestInvariants: over every testdata page and several Directives, rewriting
// twice equals rewriting once, and removing the block and old tags from
// input and output leaves the same bytes.
func TestInvariants(t *testing.T) {
	for _, p := range testPages(t) {
		for _, ds := range directiveSets {
			t.Run(p.name+"/"+ds.desc, func(t *testing.T) { checkInvariants(t, p.src, ds.d) })
		}
	}
}

// fuzzFinds are the inputs the fuzzer found failing, each fixed since: the
// invariants must hold for them, with the directive set (an index into
// directiveSets, as FuzzRewrite takes it) they failed with.
var fuzzFinds = []struct {
	desc  string
	src   string
	which uint8
}{
	{"a tag spliced into a tag", "<html><<meta name=robots>meta name=robots>", 2},
	{"a doctype cut short", "<!DOCTYPE", 'E'},
	{"an unterminated comment after html", "<html><!--0>", 0},
	{"a mixed-case meta with a stray quote", "<heAd>0<metA nAme=\"MYCrAwler\" Content=0\">", 7},
	{"a charset line ending in CRLF", "<!\n><heAd><metA ChArset>\r\n", 0},
	{"a start marker ending the head, no end marker", "<html><head>\n <!--robotsmith-->", 0},
	{"an indented start marker with text after it", "<html>\n  <!-- robotsmith -->0", 1},
	{"a start marker in the head's last line, blanks and a tag after it", "<heAd>\n  <!-- robotsmith -->   <A0>", 1},
	{"a robots tag that ends svg content before a style", "<heAd>0<svg><metA nAme=\"roBots\"><stYle><metA nAme=\"roBots\">", 2},
	{"a start marker before a bogus comment on the head's next line", "<heAd>\n<!--robotsmith--> <!0000000000>", 0},
	{"an indented start marker before a bogus comment", "<heAd>\n  <!--robotsmith-->\t<!0>x", 1},
	{"a '<' before a robots tag ends the head, a self-closing tag after them", "<heAd><<metA nAme=\"roBots\"0000000><metA/>", 0},
}

func TestFuzzFinds(t *testing.T) {
	for _, tc := range fuzzFinds {
		t.Run(tc.desc, func(t *testing.T) {
			checkInvariants(t, []byte(tc.src), directiveSets[int(tc.which)%len(directiveSets)].d)
		})
	}
}

func FuzzRewrite(f *testing.F) {
	for _, p := range testPages(f) {
		for i := range directiveSets {
			f.Add(p.src, uint8(i))
		}
	}
	for _, tc := range fuzzFinds {
		f.Add([]byte(tc.src), tc.which)
	}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		checkInvariants(t, src, directiveSets[int(which)%len(directiveSets)].d)
	})
}

// failWriter accepts n writes and then fails every write.
type failWriter struct {
	n, calls int
	got      bytes.Buffer
}

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	w.calls++
	if w.calls > w.n {
		return 0, errDiskFull
	}
	return w.got.Write(p)
}

func TestFailingWriter(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "basic-three.input.html"))
	if err != nil {
		t.Fatal(err)
	}
	full := rewriteBytes(t, src, public)
	count := &failWriter{n: 1 << 30}
	if err := Rewrite(count, bytes.NewReader(src), public); err != nil {
		t.Fatal(err)
	}
	if count.calls < 3 {
		t.Fatalf("got %d writes, want a page that takes several", count.calls)
	}
	for n := 0; n < count.calls; n++ {
		t.Run(strings.Repeat("w", n), func(t *testing.T) {
			w := &failWriter{n: n}
			err := Rewrite(w, bytes.NewReader(src), public)
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("got error %v, want %v", err, errDiskFull)
			}
			var re *Error
			if !errors.As(err, &re) || re.Op != "write" {
				t.Errorf("got %#v, want an *Error with Op write", err)
			}
			if w.calls != n+1 {
				t.Errorf("got %d calls to Write, want %d: it must stop at the first error", w.calls, n+1)
			}
			if !bytes.HasPrefix(full, w.got.Bytes()) {
				t.Errorf("written bytes %q are not a prefix of the output", w.got.Bytes())
			}
		})
	}
	w := &failWriter{n: 0}
	err = Rewrite(w, bytes.NewReader(src), rules.Directives{})
	if !errors.Is(err, errDiskFull) {
		t.Errorf("passthrough: got error %v, want %v", err, errDiskFull)
	}
	if re := (*Error)(nil); !errors.As(err, &re) || re.Op != "write" {
		t.Errorf("passthrough: got %#v, want an *Error with Op write", err)
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errDiskFull }

func TestReadError(t *testing.T) {
	if _, err := Scan(failReader{}, nil); !errors.Is(err, errDiskFull) {
		t.Errorf("Scan: got %v, want %v", err, errDiskFull)
	}
	for _, d := range []rules.Directives{public, {}} {
		var out bytes.Buffer
		err := Rewrite(&out, failReader{}, d)
		if !errors.Is(err, errDiskFull) {
			t.Errorf("Rewrite(%+v): got %v, want %v", d, err, errDiskFull)
		}
		if re := (*Error)(nil); !errors.As(err, &re) || re.Op != "read" {
			t.Errorf("Rewrite(%+v): got %#v, want an *Error with Op read", d, err)
		}
	}
}

// sameSources reports whether two scans carry the same page tags (name, content, line), kept or not.
func sameSources(a, b []Found) bool {
	set := func(fs []Found) map[string]bool {
		m := map[string]bool{}
		for _, f := range fs {
			m[fmt.Sprintf("%s=%q@%d", f.Name, f.Content, f.Line)] = true
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for k := range sa {
		if !sb[k] {
			return false
		}
	}
	return true
}

// TestPanics: rewrite turns into an *Error (Op "internal") only the panics it raises on purpose
// (failure, an invariant of its own broken), at its boundary; any other panic, a runtime error
// above all, goes on to the caller, which a recover that caught it would have handed a page
// written by code gone wrong (STYLE 16, as text/template's parser recovers only its own errors).
func TestPanics(t *testing.T) {
	src := []byte("<!DOCTYPE html><html><head><meta name=robots content=noindex></head></html>")
	tests := []struct {
		desc      string
		raise     func()
		wantError bool // an *Error with Op internal; else the panic goes on
	}{
		{"rewrite's own failure", func() { panic(failure{errors.New("edits overlap")}) }, true},
		{"a runtime error", func() {
			var s []int
			_ = s[len(src)]
		}, false},
		{"another value", func() { panic("not rewrite's") }, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var (
				err       error
				recovered any
			)
			func() {
				defer func() { recovered = recover() }()
				var p Processor
				_, err = p.Scan(src, func(name string) bool {
					tc.raise()
					return false
				})
			}()
			var re *Error
			switch {
			case tc.wantError && (!errors.As(err, &re) || re.Op != "internal" || recovered != nil):
				t.Errorf("got error %v and panic %v, want an *Error with Op internal", err, recovered)
			case !tc.wantError && recovered == nil:
				t.Errorf("got error %v, want the panic to go on", err)
			}
		})
	}
}

// TestOverlappingEdits: edits that overlap, which plan never makes, are rewrite's own failure: an
// *Error, and nothing written past the first of them, where they were written over one another.
func TestOverlappingEdits(t *testing.T) {
	src := []byte("0123456789")
	tests := []struct {
		desc  string
		edits []edit
		want  string // written; "" with an error
	}{
		{"apart", []edit{{span{1, 2}, "a"}, {span{4, 6}, "b"}}, "0a23b6789"},
		{"an insertion at a removal's start", []edit{{span{3, 3}, "x"}, {span{3, 5}, ""}}, "012x56789"},
		{"overlapping", []edit{{span{1, 4}, "a"}, {span{3, 6}, "b"}}, ""},
		{"reversed", []edit{{span{5, 3}, "a"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var out bytes.Buffer
			err := func() (err error) {
				defer catch(&err)
				return write(&out, src, tc.edits)
			}()
			var re *Error
			switch {
			case tc.want == "" && (!errors.As(err, &re) || re.Op != "internal"):
				t.Errorf("got %q, %v; want an *Error with Op internal", out.String(), err)
			case tc.want != "" && (err != nil || out.String() != tc.want):
				t.Errorf("got %q, %v; want %q", out.String(), err, tc.want)
			}
		})
	}
}
