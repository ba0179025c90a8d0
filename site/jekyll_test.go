package site

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// writeTree writes files (slash paths to contents) under a new temporary folder.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var jekyllNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func jekyllOpen(t *testing.T, files map[string]string) *Site {
	t.Helper()
	s, err := Open(writeTree(t, files), Options{Now: jekyllNow, Env: func(k string) string {
		if k == "TZ" {
			return "UTC"
		}
		return ""
	}})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// TestJekyllPages maps tiny trees; expectations follow Jekyll 4.3's rules (checked against real
// builds by TestJekyllIntegration for the same kinds of pages).
func TestJekyllPages(t *testing.T) {
	const fm = "---\n---\nbody\n"
	tests := []struct {
		desc  string
		files map[string]string
		want  map[string]string // source -> Output, or "!" + NoOutput
	}{
		{
			desc:  "date style: pages .html, index, posts dated",
			files: map[string]string{"_config.yml": "", "about.md": fm, "index.md": fm, "a/b.html": fm, "_posts/2020-01-05-hi.md": fm},
			want:  map[string]string{"about.md": "about.html", "index.md": "index.html", "a/b.html": "a/b.html", "_posts/2020-01-05-hi.md": "2020/01/05/hi.html"},
		},
		{
			desc:  "pretty style",
			files: map[string]string{"_config.yml": "permalink: pretty\n", "about.md": fm, "_posts/2020-01-05-hi.md": fm},
			want:  map[string]string{"about.md": "about/index.html", "_posts/2020-01-05-hi.md": "2020/01/05/hi/index.html"},
		},
		{
			desc:  "ordinal and categories from folders and front matter",
			files: map[string]string{"_config.yml": "permalink: ordinal\n", "x/_posts/2020-02-01-hi.md": "---\ncategories: [Y]\n---\n"},
			want:  map[string]string{"x/_posts/2020-02-01-hi.md": "x/y/2020/032/hi.html"},
		},
		{
			desc:  "no front matter is a static file, special folders are skipped",
			files: map[string]string{"_config.yml": "", "plain.html": "<p>x</p>", "_includes/a.md": fm, ".hidden/a.md": fm, "b.md~": fm, "node_modules/x.md": fm},
			want:  map[string]string{},
		},
		{
			desc:  "published false, future and drafts have no output",
			files: map[string]string{"_config.yml": "", "p.md": "---\npublished: false\n---\n", "_posts/2030-01-01-later.md": fm, "_drafts/d.md": fm},
			want:  map[string]string{"p.md": "!published: false", "_posts/2030-01-01-later.md": "!future date", "_drafts/d.md": "!draft"},
		},
		{
			desc:  "future: true writes future posts",
			files: map[string]string{"_config.yml": "future: true\n", "_posts/2030-01-01-later.md": fm},
			want:  map[string]string{"_posts/2030-01-01-later.md": "2030/01/01/later.html"},
		},
		{
			desc: "collections: output, permalink, output false",
			files: map[string]string{
				"_config.yml":    "collections:\n  docs:\n    output: true\n    permalink: /d/:name/\n  hidden:\n    output: false\n  plain:\n    output: true\n",
				"_docs/Intro.md": fm, "_hidden/x.md": fm, "_plain/a/b.md": fm, "_plain/static.txt": "no front matter",
			},
			want: map[string]string{"_docs/Intro.md": "d/intro/index.html", "_hidden/x.md": `!collection "hidden" has output: false`, "_plain/a/b.md": "plain/a/b.html"},
		},
		{
			desc:  "permalink front matter: placeholders, no trailing slash, extension",
			files: map[string]string{"_config.yml": "", "a/p.md": "---\npermalink: /:path/:basename\n---\n", "f.md": "---\npermalink: /feed.xml\n---\n", "_posts/2021-03-04-x.md": "---\npermalink: /:categories/:year/:slug/\n---\n"},
			want:  map[string]string{"a/p.md": "a/p.html", "f.md": "feed.xml", "_posts/2021-03-04-x.md": "2021/x/index.html"},
		},
		{
			desc:  "defaults set permalink (path scope) and published (type scope)",
			files: map[string]string{"_config.yml": "defaults:\n  - scope: {path: docs}\n    values: {permalink: /m/:basename/}\n  - scope: {type: posts}\n    values: {published: false}\n", "docs/a.md": fm, "docs2.md": fm, "_posts/2020-01-01-x.md": fm},
			want:  map[string]string{"docs/a.md": "m/a/index.html", "docs2.md": "m/docs2/index.html", "_posts/2020-01-01-x.md": "!published: false"},
		},
		{
			desc:  "exclude and include",
			files: map[string]string{"_config.yml": "exclude: [secret, '*.tmp.md']\ninclude: [_keep.md]\n", "secret/a.md": fm, "x.tmp.md": fm, "_keep.md": fm},
			want:  map[string]string{"_keep.md": "_keep.html"},
		},
		{
			desc:  "source and destination from the config",
			files: map[string]string{"_config.yml": "source: src\ndestination: out\n", "src/a.md": fm, "b.md": fm},
			want:  map[string]string{"src/a.md": "a.html"},
		},
		{
			desc:  "time zone moves the date",
			files: map[string]string{"_config.yml": "timezone: Asia/Tokyo\n", "_posts/2020-01-01-x.md": "---\ndate: 2020-01-01 20:00:00\n---\n"},
			want:  map[string]string{"_posts/2020-01-01-x.md": "2020/01/02/x.html"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			s := jekyllOpen(t, tc.files)
			pages, err := s.Pages()
			if err != nil {
				t.Fatalf("Pages: %v", err)
			}
			got := map[string]string{}
			for _, p := range pages {
				if p.NoOutput() != "" {
					got[p.Source] = "!" + p.NoOutput()
				} else {
					got[p.Source] = p.Output
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("pages:\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestJekyllOpen checks the folders and config files that Open reports.
func TestJekyllOpen(t *testing.T) {
	s := jekyllOpen(t, map[string]string{"_config.yml": "destination: public\nbaseurl: /blog\n"})
	if s.Generator != Jekyll {
		t.Errorf("Generator = %q, want %q", s.Generator, Jekyll)
	}
	if got, want := s.Output, filepath.Join(s.Root, "public"); got != want {
		t.Errorf("Output = %q, want %q", got, want)
	}
	if got, want := s.Content, filepath.Join(s.Root, "."); got != want {
		t.Errorf("Content = %q, want %q", got, want)
	}
	if got, want := s.ConfigFiles, []string{filepath.Join(s.Root, "_config.yml")}; !reflect.DeepEqual(got, want) {
		t.Errorf("ConfigFiles = %q, want %q", got, want)
	}
}

// TestJekyllConfigErrors checks that bad config values name the file and line.
func TestJekyllConfigErrors(t *testing.T) {
	tests := []struct {
		desc, config string
		line         int
	}{
		{"exclude not a list", "title: x\nexclude: nope\n", 2},
		{"unknown time zone", "timezone: Mars/Base\n", 1},
		{"bad yaml", "a: [\n", 1},
		{"robots given twice in defaults values", "defaults:\n  - scope: {path: ''}\n    values:\n      robots: noindex\n      Robots: index\n", 5},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Open(writeTree(t, map[string]string{"_config.yml": tc.config}), Options{})
			var fe *frontmatter.Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *frontmatter.Error", err)
			}
			if fe.File != "_config.yml" || fe.Line != tc.line {
				t.Errorf("error at %s:%d, want _config.yml:%d (%v)", fe.File, fe.Line, tc.line, err)
			}
		})
	}
}

// TestJekyllFrontMatterErrors checks that a front matter Jekyll's YAML reader refuses is an error
// only where it holds a robots key (robotsmith cannot read what the author asked for); elsewhere
// Jekyll builds the page without its data, and robotsmith warns and maps it the same way.
func TestJekyllFrontMatterErrors(t *testing.T) {
	s := jekyllOpen(t, map[string]string{"_config.yml": "", "a.md": "---\ntitle: [\n---\n", "b.md": "---\nrobots: {x: [\n---\n", "c.md": "---\nrobots: noindex\nnoindex: maybe\n---\n", "ok.md": "---\n---\n"})
	m, err := s.Map()
	pages := m.Pages
	if err == nil {
		t.Fatal("Map: no error, want errors for b.md and c.md")
	}
	for _, f := range []string{"b.md:2", "c.md:3"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
	if strings.Contains(err.Error(), "a.md") || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Error(), "a.md:2") {
		t.Errorf("error %q, warnings %v; want a.md as the one warning", err, m.Warnings)
	}
	if p := m.PageOf("a.md"); p == nil || p.Output != "a.html" {
		t.Errorf("a.md = %+v, want it mapped to a.html like any page without data", p)
	}
	found := false
	for _, p := range pages {
		if p.Source == "ok.md" && p.Output == "ok.html" {
			found = true
		}
	}
	if !found {
		t.Errorf("pages = %v, want ok.md mapped despite the others' errors", pages)
	}
}

// TestJekyllInputs checks that defaults feed robots directives before the page's own.
func TestJekyllInputs(t *testing.T) {
	s, err := Open("testdata/jekyll/pretty", Options{Now: jekyllNow})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := s.Pages()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]rules.Input{}
	for _, p := range pages {
		got[p.Source] = p.Inputs
	}
	defaults := func(line int) rules.Source {
		return rules.Source{Kind: rules.FromFrontMatterDefaults, File: "_config.yml", Line: line}
	}
	tests := []struct {
		source string
		want   []string // agent=value@kind:line
	}{
		{"_posts/2019-05-05-first.md", []string{"robots=noindex@front matter defaults:19"}},
		{"_posts/2019-05-06-second.md", []string{"robots=noindex@front matter defaults:19", "robots=nofollow@front matter:2"}},
		{"legal/terms.md", []string{"googlebot=nosnippet@front matter defaults:30"}},
		{"about.md", nil},
	}
	for _, tc := range tests {
		t.Run(tc.source, func(t *testing.T) {
			var have []string
			for _, in := range got[tc.source] {
				have = append(have, fmt.Sprintf("%s=%s@%s:%d", in.Agent, in.Value, in.Source.Kind, in.Source.Line))
				if in.Source.Kind == rules.FromFrontMatterDefaults && in.Source.File != defaults(0).File {
					t.Errorf("front matter defaults source file = %q, want _config.yml", in.Source.File)
				}
			}
			if !reflect.DeepEqual(have, tc.want) {
				t.Errorf("Inputs = %v, want %v", have, tc.want)
			}
		})
	}
}

func TestJekyllPagerParent(t *testing.T) {
	// The list page is jekyll-paginate's template page: the deepest index.html with front matter at
	// or above paginate_path's folder (checked with jekyll-paginate 1.1.0, fixture paginate).
	const fm = "---\ntitle: x\n---\n"
	root := map[string]string{"index.html": fm}
	tests := []struct {
		paginate, url, want string
		ok                  bool
		files               map[string]string
	}{
		{"", "/page2/", "/", true, root},
		{"", "/page2/index.html", "/", true, root},
		{"", "/page1/", "", false, root},
		{"", "/page/", "", false, root},
		{"", "/pagex/", "", false, root},
		{"", "/blog/page2/", "", false, root},
		{"/blog/page:num/", "/blog/page3/", "/blog/", true, map[string]string{"blog/index.html": fm, "index.html": fm}},
		{"/blog/page:num/", "/page3/", "", false, map[string]string{"blog/index.html": fm}},
		{"/blog/p/:num", "/blog/p/12/", "/blog/p/", true, map[string]string{"blog/p/index.html": fm}},
		// The deepest index.html above the folder: blog/posts has only index.md, which is no candidate.
		{"/blog/posts/page:num/", "/blog/posts/page2/", "/blog/", true, map[string]string{"index.html": fm, "blog/index.html": fm, "blog/posts/index.md": fm}},
		{"/blog/page:num/", "/blog/page2/", "/", true, map[string]string{"index.html": fm}},
		// An index.html without front matter is a static file, and an unpublished one is not read.
		{"/blog/page:num/", "/blog/page2/", "/", true, map[string]string{"index.html": fm, "blog/index.html": "<p>static</p>\n"}},
		{"/blog/page:num/", "/blog/page2/", "/", true, map[string]string{"index.html": fm, "blog/index.html": "---\npublished: false\n---\n"}},
		// The template's own permalink style: under pretty, /index.html is still /.
		{"/news/page:num", "/news/page4/", "/news/", true, map[string]string{"news/index.html": fm, "_config.yml": "permalink: pretty\n"}},
		// No template page: jekyll-paginate writes no pagers.
		{"/blog/page:num/", "/blog/page2/", "", false, map[string]string{"blog/index.md": fm}},
		{"/_drafts/page:num/", "/_drafts/page2/", "", false, map[string]string{"_drafts/index.html": fm}},
	}
	for _, tc := range tests {
		t.Run(tc.paginate+" "+tc.url, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range tc.files {
				files[k] = v
			}
			cfg := files["_config.yml"]
			if tc.paginate != "" {
				cfg += "paginate_path: " + tc.paginate + "\n"
			}
			files["_config.yml"] = cfg
			s := jekyllOpen(t, files)
			got, ok := pagerParent(t, s, tc.url)
			if got != tc.want || ok != tc.ok {
				t.Errorf("PagerParent(%q) = %q, %v; want %q, %v", tc.url, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestJekyllSlugify(t *testing.T) {
	tests := []struct {
		in            string
		pretty, cased bool
		want          string
	}{
		{"Hello World!", false, false, "hello-world"},
		{"Mixed Case Title!", true, true, "Mixed-Case-Title!"},
		{"  café  ümlaut ", false, false, "café-ümlaut"},
		{"a--b", false, false, "a-b"},
		{"v1.2 (beta)", true, false, "v1.2-(beta)"},
		{"-edge-", false, false, "edge"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := jekyllSlugify(tc.in, tc.pretty, tc.cased); got != tc.want {
				t.Errorf("slugify(%q, pretty=%v, cased=%v) = %q, want %q", tc.in, tc.pretty, tc.cased, got, tc.want)
			}
		})
	}
}

func TestRubyFnmatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"/*.md", "/a/b.md", true}, // no FNM_PATHNAME: * crosses /
		{"/a?c", "/abc", true},
		{"/[ab]x", "/bx", true},
		{"/[!ab]x", "/bx", false},
		{"/a", "/ab", false},
		{`/a\*`, "/a*", true},
		{"/*.tmp.md", "/x.md", false},
	}
	for _, tc := range tests {
		t.Run(tc.pattern+" "+tc.name, func(t *testing.T) {
			if got := rubyFnmatch(tc.pattern, tc.name); got != tc.want {
				t.Errorf("fnmatch(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
			}
		})
	}
}

func TestJekyllNodeDate(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800)
	tests := []struct {
		yaml string
		want string // in ist, RFC 3339
	}{
		{"d: 2020-01-05", "2020-01-05T00:00:00+05:30"},                 // a Date: local midnight
		{"d: 2020-01-05 10:00:00", "2020-01-05T15:30:00+05:30"},        // a timestamp without zone is UTC
		{"d: 2020-01-05T10:00:00", "2020-01-05T15:30:00+05:30"},        // likewise with T
		{"d: '2020-01-05 10:00:00'", "2020-01-05T10:00:00+05:30"},      // a string is local
		{"d: 2020-01-05 10:00:00 -05:00", "2020-01-05T20:30:00+05:30"}, // an offset
		{"d: \"2020-01-05 10:00\"", "2020-01-05T10:00:00+05:30"},
		// Forms Ruby's Time.parse reads (checked with Ruby 3.1): a stray year after the time is
		// skipped with the offset after it; zone names; slashes; month names.
		{"d: 2023-01-29 18:30:22 2023 -0800", "2023-01-29T18:30:22+05:30"},
		{"d: 2020-01-02 10:00:00 PST", "2020-01-02T23:30:00+05:30"},
		{"d: 2020/01/03", "2020-01-03T00:00:00+05:30"},
		{"d: January 4, 2020", "2020-01-04T00:00:00+05:30"},
		{"d: 5 January 2020", "2020-01-05T00:00:00+05:30"},
		{"d: Sat, 07 Mar 2020 10:00:00 +0100", "2020-03-07T14:30:00+05:30"},
		{"d: 20200109", "2020-01-09T00:00:00+05:30"},
		{"d: 2020-1-8 9:05 pm", "2020-01-08T21:05:00+05:30"},
	}
	for _, tc := range tests {
		t.Run(tc.yaml, func(t *testing.T) {
			doc, err := frontmatter.Decode("d.yml", []byte(tc.yaml), frontmatter.YAML)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jekyllNodeDate(doc.Root.Get("d"), ist)
			if err != nil {
				t.Fatal(err)
			}
			if s := got.Format(time.RFC3339); s != tc.want {
				t.Errorf("date = %s, want %s", s, tc.want)
			}
		})
	}
}

// FuzzJekyllURL checks that any template and placeholder value give a clean absolute URL and an
// output file inside the destination.
func FuzzJekyllURL(f *testing.F) {
	f.Add("/:categories/:year/:month/:day/:title:output_ext", "Hello World", "News Tech")
	f.Add("/:title_:day/", "a..b/./c", "%41")
	f.Add("/r/:name/", "", "")
	f.Add(":path/../../:title", "../..", "x/../y")
	f.Fuzz(func(t *testing.T, template, title, cats string) {
		date := time.Date(2020, 2, 29, 0, 0, 0, 0, time.UTC)
		url, err := jekyllURLDrop(template, func(k string) (string, bool) {
			switch k {
			case "title", "path", "name", "slug":
				return title, true
			case "categories":
				return cats, true
			case "output_ext":
				return ".html", true
			}
			if f, ok := jekyllDateKeys[k]; ok {
				return rubyStrftime(date, f), true
			}
			return "", false
		})
		if err != nil {
			return
		}
		if !strings.HasPrefix(url, "/") || strings.Contains(url, "//") {
			t.Fatalf("url %q: want one leading slash and no empty segments", url)
		}
		out := outputOf(url, ".html", false)
		if strings.HasPrefix(out, "/") || out == ".." || strings.HasPrefix(out, "../") {
			t.Fatalf("output %q escapes the destination", out)
		}
	})
}

func Example_jekyll() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	write := func(name, body string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("_config.yml", "permalink: pretty\ndefaults:\n  - scope: {type: posts}\n    values: {robots: noindex}\n")
	write("about.md", "---\ntitle: About\n---\n")
	write("_posts/2024-05-01-hello.md", "---\ntitle: Hello\n---\n")

	s, _ := Open(root, Options{})
	pages, _ := s.Pages()
	for _, p := range pages {
		fmt.Println(p.Kind(), p.Source, "->", p.Output, p.URL, len(p.Inputs))
	}
	// Output:
	// posts _posts/2024-05-01-hello.md -> 2024/05/01/hello/index.html /2024/05/01/hello/ 1
	// pages about.md -> about/index.html /about/ 0
}

// TestJekyllForms reads the forms fixture (its mapping is checked against Jekyll by
// TestJekyllIntegration): every date form Jekyll reads, a key written twice, a front matter
// closed by `...`, all without an error or a warning, and the robots keys of each.
func TestJekyllForms(t *testing.T) {
	s, err := Open("testdata/jekyll/forms", Options{Now: jekyllNow})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Map()
	if err != nil || len(m.Warnings) > 0 {
		t.Fatalf("Map: %v, warnings %v", err, m.Warnings)
	}
	for _, tc := range []struct{ src, out, inputs string }{
		{"_posts/2023-01-29-one.md", "2023/01/29/one/index.html", "robots=noindex"},
		{"_posts/2020-01-01-two.md", "2020/01/02/two/index.html", ""},
		{"_posts/2020-01-03-three.md", "2020/01/03/three/index.html", ""},
		{"_posts/2020-01-04-four.md", "2020/01/04/four/index.html", ""},
		{"dots.md", "dots/index.html", "robots=noindex"},
		{"fragment.html", "fragment/index.html", "robots=noindex"},
	} {
		p := m.PageOf(tc.src)
		if p == nil {
			t.Errorf("%s: no page", tc.src)
			continue
		}
		var in []string
		for _, i := range p.Inputs {
			in = append(in, i.Agent+"="+i.Value)
		}
		if p.Output != tc.out || strings.Join(in, ",") != tc.inputs {
			t.Errorf("%s: Output %q inputs %v; want %q %q", tc.src, p.Output, in, tc.out, tc.inputs)
		}
	}
}

// TestJekyllUnreadableDate checks that a date robotsmith cannot read is a warning at the file's
// line (not the block's), and the post is still mapped by its file name's date.
func TestJekyllUnreadableDate(t *testing.T) {
	s := jekyllOpen(t, map[string]string{"_config.yml": "timezone: UTC\n", "_posts/2020-05-06-x.md": "---\ntitle: x\ndate: sometime soon\n---\n"})
	m, err := s.Map()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].Error(), "_posts/2020-05-06-x.md:3: front matter: date:") {
		t.Errorf("warnings = %v, want one at _posts/2020-05-06-x.md:3", m.Warnings)
	}
	if p := m.PageOf("_posts/2020-05-06-x.md"); p == nil || p.Output != "2020/05/06/x.html" {
		t.Errorf("page = %+v, want 2020/05/06/x.html", p)
	}
}

// TestJekyllUnreadableFrontMatter maps pages and posts whose front matter Jekyll's YAML reader
// refuses as Jekyll 4.3 builds them (TestJekyllUnreadableIntegration checks it against the real
// Jekyll): a page without its data, with the defaults that apply to it; a post without its data
// and without what Jekyll reads after the front matter (Document#read_post_data): no date or slug
// from its file name (the site's time, the whole base name), no `category` of its defaults. The
// warning names the line of the fault.
func TestJekyllUnreadableFrontMatter(t *testing.T) {
	s := jekyllOpen(t, map[string]string{
		"_config.yml": "timezone: UTC\ndefaults:\n" +
			"  - scope: {path: docs}\n    values: {permalink: '/manual/:basename/', robots: noindex}\n" +
			"  - scope: {path: '', type: posts}\n    values: {category: news}\n",
		"docs/broken.md":                "---\ntitle: \"unclosed\nlayout: default\n---\nDoc\n",
		"_posts/2020-01-05-bad-post.md": "---\ntitle: \"unclosed\n---\nPost\n",
		"sub/_posts/2019-03-04-bad.md":  "---\ntitle: x\ntags: [x\n---\nPost\n",
		"_posts/2020-01-06-good.md":     "---\ntitle: fine\n---\nPost\n",
	})
	m, err := s.Map()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		source, output string
		inputs         int
		warning        string
	}{
		{"docs/broken.md", "manual/broken/index.html", 1, "docs/broken.md:2: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)"},
		{"_posts/2020-01-05-bad-post.md", "2025/06/01/2020-01-05-bad-post.html", 0, "_posts/2020-01-05-bad-post.md:2: front matter: yaml: the quoted value"},
		{"sub/_posts/2019-03-04-bad.md", "sub/2025/06/01/2019-03-04-bad.html", 0, "sub/_posts/2019-03-04-bad.md:3: front matter: yaml: did not find expected ',' or ']' in the list"},
		{"_posts/2020-01-06-good.md", "news/2020/01/06/good.html", 0, ""},
	} {
		t.Run(tc.source, func(t *testing.T) {
			p := m.PageOf(tc.source)
			if p == nil || p.Output != tc.output || len(p.Inputs) != tc.inputs {
				t.Errorf("page = %+v, want %s with %d inputs", p, tc.output, tc.inputs)
			}
			found := tc.warning == ""
			for _, w := range m.Warnings {
				found = found || strings.HasPrefix(w.Error(), tc.warning)
			}
			if !found {
				t.Errorf("warnings = %v, want one starting %q", m.Warnings, tc.warning)
			}
		})
	}
}
