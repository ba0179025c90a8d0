package rules

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		desc   string
		in     []Input
		agents []string // Compiled.Agents
		warn   string   // substring of the one warning; "" for none
		err    string   // substring of the error; "" for none
		nilOut bool
	}{
		{desc: "no inputs: nil", nilOut: true},
		{desc: "known agents only", in: []Input{fm("robots", "noindex"), fm("googlebot", "nosnippet")}},
		{desc: "unknown agents listed once, sorted", in: []Input{fm("acme-archiver", "noindex"), fm("otherbot", "nofollow"), fm("acme-archiver", "noarchive")},
			agents: []string{"acme-archiver", "otherbot"}},
		{desc: "obsolete value warns with its source", in: []Input{fm("robots", "noodp, noindex")}, warn: `content/blog/a.md:3: front matter robots: obsolete directive "noodp"`},
		{desc: "malformed value errs with its source", in: []Input{fm("robots", "max-snippet:abc"), fm("robots", "noindex")}, err: `content/blog/a.md:3: front matter robots: "max-snippet:abc"`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, warns, err := Compile(tc.in)
			checkErr(t, err, tc.err)
			checkWarn(t, warns, tc.warn)
			if (c == nil) != tc.nilOut {
				t.Fatalf("Compile: got %v, want nil %v", c, tc.nilOut)
			}
			if got := c.Agents(); !reflect.DeepEqual(got, tc.agents) {
				t.Errorf("Agents: got %q, want %q", got, tc.agents)
			}
		})
	}
}

// TestCompileSpoilsOnlyItself: a malformed value in a source leaves the source's other values in
// force (SPEC §4: fail closed on the bad value; nothing else the user wrote is dropped).
func TestCompileSpoilsOnlyItself(t *testing.T) {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Compile([]Input{fm("robots", "max-snippet:abc"), fm("robots", "noindex")})
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("Compile: got %v, want ErrMalformed", err)
	}
	d, _, err := r.Decide(Item{Path: "/p/", Compiled: []*Compiled{c}})
	if err != nil {
		t.Fatalf("Decide reports the source's problem again: %v", err)
	}
	if got, want := d.Class, NonPublic; got != want {
		t.Errorf("class: got %v, want %v (the good noindex kept)", got, want)
	}
}

// TestCompilerShares: sources that say the same share one parsed shape, and each still decides
// with its own places (explain names the page's own file and line); a source with a malformed
// value shares the shape of what its good values say, and they keep their places; a source that
// says the same under another key (or from another kind of source) keeps its own.
func TestCompilerShares(t *testing.T) {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	keyed := func(key, file string, line int, agent, value string) Input {
		return Input{Agent: agent, Value: value, Source: Source{Kind: FromFrontMatter, File: file, Line: line, Key: key}}
	}
	at := func(file string, line int, agent, value string) Input {
		return keyed("robots", file, line, agent, value)
	}
	cc := NewCompiler()
	compile := func(in ...Input) *Compiled {
		t.Helper()
		c, _, _ := cc.Compile(in)
		return c
	}
	a := compile(at("content/a.md", 3, "robots", "noindex"), at("content/a.md", 4, "googlebot", "nosnippet"))
	b := compile(at("content/b.md", 7, "Robots", "NoIndex"), at("content/b.md", 9, "googlebot", "nosnippet"))
	c := compile(at("content/c.md", 2, "robots", "noindex"))
	bad := compile(at("content/d.md", 2, "robots", "max-snippet:x"), at("content/d.md", 5, "robots", "noindex"))
	if a.shape != b.shape {
		t.Errorf("a and b say the same and do not share a shape")
	}
	other := compile(keyed("meta_robots", "content/e.md", 6, "robots", "noindex"))
	if a.shape == c.shape {
		t.Errorf("sources that say different things share a shape")
	}
	if bad.shape != c.shape {
		t.Errorf("a source with a malformed value does not share the shape of what its good values say")
	}
	if other.shape == c.shape {
		t.Errorf("a source whose key differs shares a shape: its Source would name the other's key")
	}
	tests := []struct {
		c     *Compiled
		agent string
		want  string // the token and where it came from
	}{
		{a, "robots", "noindex@content/a.md:3"},
		{b, "robots", "noindex@content/b.md:7"},
		{b, "googlebot", "noindex@content/b.md:7, nosnippet@content/b.md:9"},
		{c, "robots", "noindex@content/c.md:2"},
		{bad, "robots", "noindex@content/d.md:5"},
		{other, "robots", "noindex@content/e.md:6 (meta_robots)"},
		{c, "robots", "noindex@content/c.md:2"}, // after other: still its own key
	}
	for _, tc := range tests {
		d, _, err := r.Decide(Item{Path: "/p/", Compiled: []*Compiled{tc.c}})
		if err != nil {
			t.Fatal(err)
		}
		ag, _ := d.Agent(tc.agent)
		var got []string
		for _, v := range ag.Values {
			if v.Source.Kind == FromFrontMatter {
				g := v.Token + "@" + v.Source.loc()
				if v.Source.Key != "robots" {
					g += " (" + v.Source.Key + ")"
				}
				got = append(got, g)
			}
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%s of %s: got %q, want %q", tc.agent, tc.c.where[0].file, g, tc.want)
		}
	}
}

// randItem is an item over a few paths with random compiled sources and tags, and the same item with
// every input uncompiled, as Decide read them before sources were compiled.
func randItem(t *testing.T, rng *rand.Rand) (compiled, plain Item) {
	t.Helper()
	paths := []string{"/p/", "/404.html", "/files/x.pdf", "/blog/a/"}
	path := paths[rng.IntN(len(paths))]
	asset := strings.HasSuffix(path, ".pdf")
	src := randInputs(rng)
	for i := range src {
		src[i].Source.Kind = [...]Kind{FromCascade, FromFrontMatterDefaults, FromFrontMatter}[rng.IntN(3)]
		if src[i].Source.Kind != FromFrontMatter && rng.IntN(3) == 0 {
			src[i].ReplacedBy = &fmSrc // an inherited value the page's own replaces
		}
	}
	env := []Input{{Agent: "robots", Value: "noindex", Source: envSrc}}
	if rng.IntN(4) > 0 {
		env = nil
	}
	var tags []Input
	for range rng.IntN(3) {
		in := randInputs(rng)[0]
		in.Source = Source{Kind: FromPage, File: "public/p/index.html", Line: 1 + rng.IntN(9), Key: in.Agent}
		tags = append(tags, in)
	}
	cs, _, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	ce, _, err := Compile(env)
	if err != nil {
		t.Fatal(err)
	}
	redirect := rng.IntN(8) == 0
	compiled = Item{Path: path, Compiled: []*Compiled{cs, ce}, Inputs: tags, Redirect: redirect, Asset: asset}
	var all []Input
	all = append(all, src...)
	all = append(all, env...)
	all = append(all, tags...)
	plain = Item{Path: path, Inputs: all, Redirect: redirect, Asset: asset}
	return compiled, plain
}

// TestCompiledDecidesAsInputs: a source compiled once decides exactly as the same inputs parsed on
// every decide, provenance included; and Memo's Verdict is Decide's, for every item, however many
// items share it.
func TestCompiledDecidesAsInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, r := range propResolvers(t) {
		m := r.Memo()
		for i := 0; i < 400; i++ {
			ci, pi := randItem(t, rng)
			dc, wc, errc := r.Decide(ci)
			dp, _, errp := r.Decide(pi)
			if errc != nil || errp != nil {
				t.Fatalf("errors: %v, %v", errc, errp)
			}
			if got, want := sourcesOf(dc), sourcesOf(dp); !reflect.DeepEqual(got, want) {
				t.Fatalf("item %+v\ncompiled: got %q\nwant %q", pi, got, want)
			}
			if !reflect.DeepEqual(dc.Replaced, dp.Replaced) {
				t.Fatalf("item %+v\nreplaced: got %+v\nwant %+v", pi, dc.Replaced, dp.Replaced)
			}
			if got, want := dc.Verdict(), dp.Verdict(); !reflect.DeepEqual(got, want) {
				t.Fatalf("item %+v\nverdict: got %+v\nwant %+v", pi, got, want)
			}
			v, wm, err := m.Verdict(ci)
			if err != nil {
				t.Fatal(err)
			}
			if want := dc.Verdict(); !reflect.DeepEqual(v, want) {
				t.Fatalf("item %+v\nMemo.Verdict: got %+v\nwant %+v", ci, v, want)
			}
			if !reflect.DeepEqual(wm, wc) {
				t.Fatalf("Memo.Verdict warnings: got %q, want %q", wm, wc)
			}
		}
	}
}

// sourcesOf is every value of d with its source, as explain prints them.
func sourcesOf(d Decision) []string {
	var out []string
	for _, a := range d.Agents {
		for _, v := range a.Values {
			out = append(out, a.Name+" "+v.Token+" "+v.Source.String())
		}
	}
	return out
}

func TestMemoSharesVerdicts(t *testing.T) {
	r, err := New(withRules(Config{}, rule(1, []string{"/tags/**"}, "robots", "noindex")))
	if err != nil {
		t.Fatal(err)
	}
	m := r.Memo()
	theme := func(line int) []Input {
		return []Input{{Agent: "robots", Value: "index, follow", Source: Source{Kind: FromPage, File: fmt.Sprintf("public/%d.html", line), Line: line, Key: "robots"}}}
	}
	a, _, _ := m.Verdict(Item{Path: "/blog/a/", Inputs: theme(3)})
	b, _, _ := m.Verdict(Item{Path: "/blog/b/", Inputs: theme(9)})
	c, _, _ := m.Verdict(Item{Path: "/tags/go/", Inputs: theme(3)})
	if a != b {
		t.Error("two pages with the same rules and tags got two verdicts")
	}
	if a == c || c.Class != NonPublic {
		t.Errorf("a page under /tags/** shares the public verdict: %+v", c)
	}
	if m.Len() != 2 {
		t.Errorf("memo holds %d verdicts, want 2", m.Len())
	}
}

func TestResolverIsAgent(t *testing.T) {
	r, err := New(withRules(Config{}, rule(1, []string{"/**"}, "configbot", "noindex")))
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Compile([]Input{fm("acme-indexer", "nosnippet")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cs   []*Compiled
		want bool
	}{
		{"robots", nil, true},
		{"googlebot-news", nil, true},
		{"configbot", nil, true},
		{"acme-indexer", nil, false},
		{"acme-indexer", []*Compiled{nil, c}, true},
		{"viewport", []*Compiled{c}, false},
		{"", []*Compiled{c}, false},
	}
	for _, tc := range tests {
		if got := r.IsAgent(tc.name, tc.cs...); got != tc.want {
			t.Errorf("IsAgent(%q, %d sources) = %v, want %v", tc.name, len(tc.cs), got, tc.want)
		}
	}
}

// TestHeaderLineStructure: agent lines name their agent as data (SPEC §6: the generic line first,
// one line per agent after it).
func TestHeaderLineStructure(t *testing.T) {
	r, err := New(withRules(Config{}, rule(1, []string{"/files/**"}, "robots", "noindex, nofollow", "googlebot", "nosnippet")))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := r.Decide(Item{Path: "/files/report.pdf", Asset: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []HeaderLine{{Content: "noindex, nofollow"}, {Agent: "googlebot", Content: "nosnippet"}}
	if got := d.HeaderLines(); !reflect.DeepEqual(got, want) {
		t.Errorf("HeaderLines: got %+v, want %+v", got, want)
	}
}

func TestVerdictNoindex(t *testing.T) {
	tests := []struct {
		desc  string
		tags  []Tag
		agent string
		want  bool
	}{
		{"robots noindex covers every agent", []Tag{{"robots", "noindex, follow"}}, "googlebot", true},
		{"an agent's own noindex", []Tag{{"robots", "index, follow"}, {"googlebot", "noindex, follow"}}, "googlebot", true},
		{"another agent's noindex", []Tag{{"robots", "index, follow"}, {"googlebot", "noindex, follow"}}, "bingbot", false},
		{"a value that only starts so", []Tag{{"robots", "noindexer"}}, "robots", false},
		{"noindex last", []Tag{{"robots", "nofollow, noindex"}}, "robots", true},
		{"no tags (error page)", nil, "robots", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			v := &Verdict{Directives: Directives{Tags: tc.tags}}
			if got := v.Noindex(tc.agent); got != tc.want {
				t.Errorf("Noindex(%q): got %v, want %v", tc.agent, got, tc.want)
			}
		})
	}
}

// benchResolver is a configuration like the sample site's: the defaults and five rules.
func benchResolver(b *testing.B) *Resolver {
	r, err := New(withRules(Config{},
		rule(1, []string{"/tags/**"}, "robots", "noindex, follow"),
		rule(2, []string{"/categories/**"}, "robots", "noindex, follow"),
		rule(3, []string{"/**/*.pdf"}, "robots", "noindex"),
		rule(4, []string{"/news/**"}, "googlebot-news", "nosnippet"),
		rule(5, []string{"/private/**"}, "robots", "noindex"),
	))
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// benchItems are pages as a theme writes them: each carries the theme's robots tag, a third have
// front matter of their own.
func benchItems(b *testing.B, n int) []Item {
	fmSources := [][]Input{nil, {fm("robots", "noindex, nofollow")}, {fm("googlebot", "nosnippet"), fm("bingbot", "noarchive")}}
	var cs []*Compiled
	for _, in := range fmSources {
		c, _, err := Compile(in)
		if err != nil {
			b.Fatal(err)
		}
		cs = append(cs, c)
	}
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{
			Path:     fmt.Sprintf("/%s/page-%05d/", []string{"blog", "news", "docs", "tags", "private"}[i%5], i),
			Compiled: []*Compiled{cs[i%3]},
			Inputs:   []Input{{Agent: "robots", Value: "index, follow", Source: Source{Kind: FromPage, File: "public/x/index.html", Line: 4, Key: "robots"}}},
		}
	}
	return items
}

// BenchmarkDecide is the full decision, with every value's source, as explain needs it.
// Run: go test -run '^$' -bench . -benchmem ./rules
func BenchmarkDecide(b *testing.B) {
	r := benchResolver(b)
	items := benchItems(b, 1000)
	i := 0
	for b.Loop() {
		if _, _, err := r.Decide(items[i%len(items)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkVerdict is a page's decision as build and check take it: through the Memo.
func BenchmarkVerdict(b *testing.B) {
	r := benchResolver(b)
	items := benchItems(b, 1000)
	m := r.Memo()
	i := 0
	for b.Loop() {
		if _, _, err := m.Verdict(items[i%len(items)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestCompilerSlabs: sources cut from the Compiler's slabs, across slab boundaries and with more
// inputs than a places slab holds, each keep their own places, with no room to grow into a
// neighbour's.
func TestCompilerSlabs(t *testing.T) {
	cc := NewCompiler()
	inputs := func(i, n int) []Input {
		in := make([]Input, n)
		for k := range in {
			in[k] = Input{Agent: "robots", Value: "noindex", Source: Source{Kind: FromFrontMatter, File: fmt.Sprintf("content/p%d.md", i), Line: 10*i + k, Key: "robots"}}
		}
		return in
	}
	size := func(i int) int {
		if i == 300 {
			return 5 * 4 * slabSize // more than a places slab
		}
		return i%5 + 1
	}
	var cs []*Compiled
	for i := range 3 * slabSize {
		c, _, err := cc.Compile(inputs(i, size(i)))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	for i, c := range cs {
		n := size(i)
		if len(c.where) != n || cap(c.where) != n {
			t.Fatalf("source %d: %d places, room for %d; want %d", i, len(c.where), cap(c.where), n)
		}
		for k, p := range c.where {
			if want := (place{fmt.Sprintf("content/p%d.md", i), int32(10*i + k)}); p != want {
				t.Fatalf("source %d, input %d: place %+v, want %+v", i, k, p, want)
			}
		}
	}
}

// TestCompileContext: a compile gives up once its context ends (SIGINT, SIGTERM), however many
// inputs the source has, and returns the context's error alone; with a context that does not end it
// compiles as Compile does. A front matter naming 100,000 agents took 16 s to compile (the crawler
// names each is checked against), and a signal waited for all of it.
func TestCompileContext(t *testing.T) {
	many := make([]Input, 100_000)
	for i := range many {
		many[i] = fm(fmt.Sprintf("agent%dbot", i), "noindex")
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		desc string
		cc   *Compiler
	}{{"Compile", nil}, {"a Compiler", NewCompiler()}} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, in := range [][]Input{{fm("robots", "noindex")}, many} {
				c, ws, err := tc.cc.CompileContext(ended, in)
				if !errors.Is(err, context.Canceled) || c != nil || ws != nil {
					t.Errorf("%d inputs, the context ended: got %v, %d warnings, %v; want context.Canceled alone", len(in), c != nil, len(ws), err)
				}
			}
			small := []Input{fm("robots", "noodp, noindex"), fm("otherbot", "nofollow")}
			c, ws, err := tc.cc.CompileContext(context.Background(), small)
			want, wws, werr := Compile(small)
			if err != nil || werr != nil || !reflect.DeepEqual(c.Agents(), want.Agents()) || len(ws) != len(wws) || c.shape.key != want.shape.key {
				t.Errorf("a context that does not end: got %v, %v, %v; want what Compile gives", c, ws, err)
			}

			// Ended part way: it returns at once, not when every input is compiled.
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, _, err := tc.cc.CompileContext(ctx, many)
				done <- err
			}()
			time.Sleep(20 * time.Millisecond)
			cancel()
			select {
			case err := <-done:
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Errorf("ended part way: %v", err)
				}
			case <-time.After(2 * time.Second):
				t.Errorf("still compiling 2 s after its context ended")
				<-done
			}
		})
	}
}
