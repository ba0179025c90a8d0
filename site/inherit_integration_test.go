package site_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// Generator-native inheritance (SPEC §3.3) on sites built by the real generators: a template (Hugo)
// or a layout (Jekyll) prints, into every page, the robots, noindex and nofollow values the
// generator gave the page after merging its cascades or front matter defaults; robotsmith's
// decision for the page must be the decision for a page whose own front matter said exactly that.

// probeMark is what the fixtures' templates write into a page: the generator's values as JSON.
var probeMark = regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`)

// probe is what the generator gave a page.
type probe struct {
	Robots   any `json:"robots"`
	Noindex  any `json:"noindex"`
	Nofollow any `json:"nofollow"`
}

// inputs are the robots inputs of a page whose own front matter says what p says.
func (p probe) inputs(t *testing.T, page string) []rules.Input {
	t.Helper()
	src := rules.Source{Kind: rules.FromFrontMatter, File: page}
	var in []rules.Input
	add := func(agent string, v any) {
		switch v := v.(type) {
		case nil:
		case string:
			in = append(in, rules.Input{Agent: agent, Value: v, Source: src})
		case []any:
			for _, x := range v {
				s, ok := x.(string)
				if !ok {
					t.Fatalf("%s: robots %v: a list of %T", page, v, x)
				}
				in = append(in, rules.Input{Agent: agent, Value: s, Source: src})
			}
		default:
			t.Fatalf("%s: robots for %s: %T %v", page, agent, v, v)
		}
	}
	if m, ok := p.Robots.(map[string]any); ok {
		for agent, v := range m {
			add(agent, v)
		}
	} else {
		add("robots", p.Robots)
	}
	for _, b := range []struct {
		name string
		v    any
	}{{"noindex", p.Noindex}, {"nofollow", p.Nofollow}} {
		if b.v == true {
			in = append(in, rules.Input{Agent: "robots", Value: b.name, Source: src})
		}
	}
	return in
}

// agentTokens is each agent's directives, joined: "robots: noindex, follow".
func agentTokens(names []string, tokens [][]string) []string {
	var out []string
	for i, n := range names {
		out = append(out, n+": "+strings.Join(tokens[i], ", "))
	}
	sort.Strings(out)
	return out
}

// generatorAgrees explains every page of the output that carries a probe, and checks that
// robotsmith's directives for it are those of a page whose own front matter said what the
// generator gave it. stricter names the pages where robotsmith deliberately keeps an inherited
// value the generator drops, with the directive robotsmith adds. It returns the explanations, by
// URL.
func generatorAgrees(t *testing.T, root, out string, stricter map[string]string) map[string]pipeline.Explanation {
	t.Helper()
	probes := map[string]probe{}
	walkAll(t, out, func(rel string, b []byte) {
		m := probeMark.FindSubmatch(b)
		if m == nil {
			return
		}
		var p probe
		if err := json.Unmarshal(m[1], &p); err != nil {
			t.Fatalf("%s: the probe: %v: %s", rel, err, m[1])
		}
		url := "/" + strings.TrimSuffix(rel, "index.html")
		probes[url] = p
	})
	if len(probes) == 0 {
		t.Fatal("no page carries a probe")
	}
	var urls []string
	for u := range probes {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	es, err := pipeline.Explain(context.Background(), pipeline.Options{Root: root}, urls)
	if err != nil {
		t.Fatalf("explain: %v", err)
	}
	r, err := rules.New(rules.Config{})
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]pipeline.Explanation{}
	for i, e := range es {
		url := urls[i]
		byURL[url] = e
		in := probes[url].inputs(t, url)
		if extra, ok := stricter[url]; ok {
			in = append(in, rules.Input{Agent: "robots", Value: extra})
		}
		d, _, err := r.Decide(rules.Item{Path: url, Inputs: in})
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		var wn, gn []string
		var wt, gt [][]string
		for _, a := range d.Agents {
			var toks []string
			for _, v := range a.Values {
				toks = append(toks, v.Token)
			}
			wn, wt = append(wn, a.Name), append(wt, toks)
		}
		for _, a := range e.Agents {
			var toks []string
			for _, v := range a.Values {
				toks = append(toks, v.Token)
			}
			gn, gt = append(gn, a.Name), append(gt, toks)
		}
		got, want := agentTokens(gn, gt), agentTokens(wn, wt)
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s: robotsmith decides %q; the generator gave the page %+v, which is %q\n%s", url, got, probes[url], want, e.Text())
		}
	}
	return byURL
}

// TestInheritHugo: a page's own robots key replaces the value of the same key that a cascade
// passes down, and a nearer cascade's replaces a farther one's, as Hugo merges them (per top-level
// key: a page's robots map replaces the whole inherited robots, its params.robots replaces robots;
// keys in any case). Hugo v0.165 gave the pages (as the template printed them):
//
//	/blog/none/    robots "noindex", nofollow true       (content/blog/_index.md's; its params.nofollow)
//	/blog/own/     robots "index, follow", nofollow true
//	/blog/params/  robots "index", nofollow true
//	/blog/map/     robots {googlebot: nosnippet}, nofollow true
//	/blog/upper/   robots "INDEX", nofollow true
//	/blog/pfalse/  robots "noindex", nofollow false
//	/blog/empty/   robots null, nofollow true
//	/blog/sub/p/   robots "noarchive", nofollow true     (the nearer cascade's robots)
//	/news/false/   noindex false, nofollow true
//	/docs/x/       nofollow false                        (docs/_index.md's, not the configuration's)
//	/other/        nofollow true                         (the configuration's cascade)
//
// /blog/empty/ is where robotsmith is stricter on purpose: a key with no value replaces nothing
// (Hugo gives the page an empty robots, robotsmith keeps the cascade's noindex).
func TestInheritHugo(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	dir := t.TempDir()
	layout := `<html><head><title>{{ .Title }}</title></head><body>` +
		`<pre id="probe">{{ dict "robots" .Params.robots "noindex" .Params.noindex "nofollow" .Params.nofollow | jsonify | safeHTML }}</pre></body></html>`
	testtool.WriteFiles(t, dir, map[string]string{
		"hugo.toml": `baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[[cascade]]
  nofollow = true
`,
		"layouts/single.html":        layout,
		"layouts/list.html":          layout,
		"content/_index.md":          "---\ntitle: Home\n---\n",
		"content/other.md":           "---\ntitle: Other\n---\n",
		"content/blog/_index.md":     "---\ntitle: Blog\ncascade:\n  robots: noindex\n  params:\n    nofollow: true\n---\n",
		"content/blog/none.md":       "---\ntitle: None\n---\n",
		"content/blog/own.md":        "---\ntitle: Own\nrobots: index, follow\n---\n",
		"content/news/_index.md":     "---\ntitle: News\ncascade:\n  noindex: true\n---\n",
		"content/news/false.md":      "---\ntitle: False\nnoindex: false\n---\n",
		"content/blog/params.md":     "---\ntitle: Params\nparams:\n  robots: index\n---\n",
		"content/blog/map.md":        "---\ntitle: Map\nrobots:\n  googlebot: nosnippet\n---\n",
		"content/blog/upper.md":      "---\ntitle: Upper\nRobots: INDEX\n---\n",
		"content/blog/pfalse.md":     "---\ntitle: Pfalse\nnofollow: false\n---\n",
		"content/blog/empty.md":      "---\ntitle: Empty\nrobots:\n---\n",
		"content/blog/sub/_index.md": "---\ntitle: Sub\ncascade:\n  robots: noarchive\n---\n",
		"content/blog/sub/p.md":      "---\ntitle: P\n---\n",
		"content/docs/_index.md":     "---\ntitle: Docs\ncascade:\n  nofollow: false\n---\n",
		"content/docs/x.md":          "---\ntitle: X\n---\n",
	})
	cmd := exec.Command(hugo, "--quiet")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, b)
	}
	es := generatorAgrees(t, dir, filepath.Join(dir, "public"), map[string]string{"/blog/empty/": "noindex"})
	// The configuration's nofollow is replaced on every page of the blog by the nearer cascade's
	// (params.nofollow) or by the page's own.
	config := "robots: nofollow  cascade from hugo.toml:4; replaced by cascade from content/blog/_index.md:6"
	for _, tc := range []struct {
		desc, url string
		want      []string // the lines explain prints for the replaced values
	}{
		{desc: "own robots", url: "/blog/own/", want: []string{config,
			"robots: noindex  cascade from content/blog/_index.md:4; replaced by front matter robots at content/blog/own.md:3",
		}},
		{desc: "noindex: false", url: "/news/false/", want: []string{
			"robots: noindex  cascade from content/news/_index.md:4; replaced by front matter noindex at content/news/false.md:3",
		}},
		{desc: "params.robots replaces robots", url: "/blog/params/", want: []string{config,
			"robots: noindex  cascade from content/blog/_index.md:4; replaced by front matter params.robots at content/blog/params.md:4",
		}},
		{desc: "a robots map replaces the whole robots", url: "/blog/map/", want: []string{config,
			"robots: noindex  cascade from content/blog/_index.md:4; replaced by front matter robots.googlebot at content/blog/map.md:4",
		}},
		{desc: "keys in any case", url: "/blog/upper/", want: []string{config,
			"robots: noindex  cascade from content/blog/_index.md:4; replaced by front matter Robots at content/blog/upper.md:3",
		}},
		{desc: "nofollow: false replaces params.nofollow and the configuration's", url: "/blog/pfalse/", want: []string{
			"robots: nofollow  cascade from hugo.toml:4; replaced by front matter nofollow at content/blog/pfalse.md:3",
			"robots: nofollow  cascade from content/blog/_index.md:6; replaced by front matter nofollow at content/blog/pfalse.md:3",
		}},
		{desc: "a nearer cascade", url: "/blog/sub/p/", want: []string{config,
			"robots: noindex  cascade from content/blog/_index.md:4; replaced by cascade from content/blog/sub/_index.md:4",
		}},
		{desc: "nothing of the page's own", url: "/blog/none/", want: []string{config}},
		{desc: "an empty key replaces nothing", url: "/blog/empty/", want: []string{config}},
		{desc: "a section's cascade over the configuration's", url: "/docs/x/", want: []string{
			"robots: nofollow  cascade from hugo.toml:4; replaced by cascade from content/docs/_index.md:4",
		}},
		{desc: "the configuration's alone", url: "/other/"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			checkReplaced(t, es[tc.url], tc.want)
		})
	}
}

// checkReplaced compares the replaced values explain prints for a page with want.
func checkReplaced(t *testing.T, e pipeline.Explanation, want []string) {
	t.Helper()
	text := e.Text()
	var got []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "  replaced"):
			in = true
		case in && strings.HasPrefix(l, "    "):
			got = append(got, strings.Join(strings.Fields(l), " "))
		default:
			in = false
		}
	}
	var w []string
	for _, l := range want {
		w = append(w, strings.Join(strings.Fields(l), " "))
	}
	sort.Strings(got)
	sort.Strings(w)
	if strings.Join(got, "\n") != strings.Join(w, "\n") {
		t.Errorf("%s: explain shows replaced values\n%s\nwant\n%s\n\n%s", e.URL, strings.Join(got, "\n"), strings.Join(w, "\n"), text)
	}
}

// TestInheritJekyll: Jekyll merges the front matter defaults that apply to a page (the one whose
// scope has precedence over the others) and then the page's own front matter over them, hashes key
// by key (Utils.deep_merge_hashes): a page's robots map replaces one agent's value and keeps the
// others'; a string replaces a map and a map a string; a key with no value keeps the default's;
// keys differ in case. Jekyll 4.3.1 gave the pages (as the layout printed them):
//
//	/top.html        robots {robots: noarchive, bingbot: nocache}
//	/blog/a.html     robots {robots: noindex, bingbot: nocache, googlebot: max-snippet:5}, noindex true
//	/blog/b.html     robots "index, follow", noindex false
//	/blog/c.html     robots {robots: noindex, bingbot: nocache, googlebot: nosnippet}, noindex true
//	/blog/x.html     robots {robots: index, bingbot: nocache, googlebot: nosnippet}, noindex true, nofollow false
//	/blog/e.html     robots {robots: noindex, bingbot: nocache, googlebot: nosnippet}, noindex true (and Robots "index")
//	/2020/01/01/p.html  robots {googlebot: noarchive}   (the posts scope's "noindex" replaced the map; the page's map replaced that)
//	/2020/01/02/q.html  robots "noindex"
func TestInheritJekyll(t *testing.T) {
	bin := testtool.Jekyll(t)
	dir := t.TempDir()
	testtool.WriteFiles(t, dir, map[string]string{
		"_config.yml": `defaults:
  - scope: {path: ""}
    values:
      layout: probe
      robots: {robots: noarchive, bingbot: nocache}
  - scope: {path: "blog"}
    values:
      robots: {robots: noindex, googlebot: nosnippet}
      noindex: true
  - scope: {path: "blog/x.md"}
    values:
      nofollow: true
  - scope: {path: "", type: posts}
    values:
      robots: noindex
`,
		"_layouts/probe.html": `<html><head><title>{{ page.title }}</title></head><body>` +
			`<pre id="probe">{"robots": {{ page.robots | jsonify }}, "noindex": {{ page.noindex | jsonify }}, "nofollow": {{ page.nofollow | jsonify }}}</pre></body></html>`,
		"top.md":                 "---\ntitle: top\n---\n",
		"blog/a.md":              "---\ntitle: a\nrobots: {googlebot: \"max-snippet:5\"}\n---\n",
		"blog/b.md":              "---\ntitle: b\nrobots: index, follow\nnoindex: false\n---\n",
		"blog/c.md":              "---\ntitle: c\nrobots:\n---\n",
		"blog/x.md":              "---\ntitle: x\nrobots: {robots: index}\nnofollow: false\n---\n",
		"blog/e.md":              "---\ntitle: e\nRobots: index\n---\n",
		"_posts/2020-01-01-p.md": "---\ntitle: p\nrobots: {googlebot: noarchive}\n---\n",
		"_posts/2020-01-02-q.md": "---\ntitle: q\n---\n",
	})
	cmd := exec.Command(bin, "build", "--quiet")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jekyll build: %v\n%s", err, b)
	}
	es := generatorAgrees(t, dir, filepath.Join(dir, "_site"), nil)
	// The blog's scope has precedence over the site's: its robots.robots replaces the site's.
	blog := "robots: noarchive  front matter defaults at _config.yml:5; replaced by front matter defaults at _config.yml:8"
	for _, tc := range []struct {
		desc, url string
		want      []string
	}{
		{desc: "one agent of a map", url: "/blog/a.html", want: []string{blog,
			"googlebot: nosnippet  front matter defaults at _config.yml:8; replaced by front matter robots.googlebot at blog/a.md:3",
		}},
		{desc: "a string replaces a map, noindex: false", url: "/blog/b.html", want: []string{blog,
			"bingbot: nocache  front matter defaults at _config.yml:5; replaced by front matter robots at blog/b.md:3",
			"googlebot: nosnippet  front matter defaults at _config.yml:8; replaced by front matter robots at blog/b.md:3",
			"robots: noindex  front matter defaults at _config.yml:8; replaced by front matter robots at blog/b.md:3",
			"robots: noindex  front matter defaults at _config.yml:9; replaced by front matter noindex at blog/b.md:4",
		}},
		{desc: "a key with no value keeps the defaults", url: "/blog/c.html", want: []string{blog}},
		{desc: "robots.robots and nofollow: false", url: "/blog/x.html", want: []string{blog,
			"robots: noindex  front matter defaults at _config.yml:8; replaced by front matter robots.robots at blog/x.md:3",
			"robots: nofollow  front matter defaults at _config.yml:12; replaced by front matter nofollow at blog/x.md:4",
		}},
		{desc: "a scope with precedence, then the page", url: "/2020/01/01/p.html", want: []string{
			"bingbot: nocache  front matter defaults at _config.yml:5; replaced by front matter defaults at _config.yml:15",
			"robots: noarchive  front matter defaults at _config.yml:5; replaced by front matter defaults at _config.yml:15",
			"robots: noindex  front matter defaults at _config.yml:15; replaced by front matter robots.googlebot at _posts/2020-01-01-p.md:3",
		}},
		// Jekyll gives the page both page.robots (the defaults') and page.Robots: robotsmith reads
		// both, and the most restrictive wins.
		{desc: "keys differ in case", url: "/blog/e.html", want: []string{blog}},
		{desc: "the site's scope alone", url: "/top.html"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			checkReplaced(t, es[tc.url], tc.want)
		})
	}
}

// TestHugoCascadeTargets: a cascade's target path is matched as Hugo v0.165 matches it (a
// PageMatcher: gobwas/glob with '/' as the separator, over the lower-cased pattern as written and
// the page's lower-cased path with a leading slash: "/" for the home page, "/blog" for a section,
// "/blog/a" for a page or a leaf bundle, no trailing slash). Each case builds the site with one
// cascade in its configuration, `robots = "noarchive"` and the target, and checks that robotsmith
// gives noarchive to exactly the pages Hugo gave it to, which the table lists as Hugo did.
func TestHugoCascadeTargets(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	layout := `<html><head><title>{{ .Title }}</title></head><body>` +
		`<pre id="probe">{{ dict "robots" .Params.robots | jsonify | safeHTML }}</pre></body></html>`
	site := map[string]string{
		"layouts/single.html":        layout,
		"layouts/list.html":          layout,
		"content/_index.md":          "---\ntitle: Home\n---\n",
		"content/blog/_index.md":     "---\ntitle: Blog\n---\n",
		"content/blog/a/index.md":    "---\ntitle: A\n---\n",
		"content/blog/b.md":          "---\ntitle: B\n---\n",
		"content/blog/b.fr.md":       "---\ntitle: B fr\n---\n",
		"content/blog/Caps.md":       "---\ntitle: Caps\n---\n",
		"content/blog/sub/_index.md": "---\ntitle: Sub\n---\n",
		"content/blog/sub/c.md":      "---\ntitle: C\n---\n",
		"content/blogger.md":         "---\ntitle: Blogger\n---\n",
		"content/other/d.md":         "---\ntitle: D\n---\n",
	}
	for _, tc := range []struct {
		desc   string
		target string // the TOML of [cascade.target]
		hugo   []string
	}{
		{desc: "/blog/**", target: `path = "/blog/**"`, hugo: []string{"/blog/a/", "/blog/b/", "/blog/caps/", "/blog/sub/", "/blog/sub/c/", "/fr/blog/b/"}},
		{desc: "/blog**", target: `path = "/blog**"`, hugo: []string{"/blog/", "/blog/a/", "/blog/b/", "/blog/caps/", "/blog/sub/", "/blog/sub/c/", "/blogger/", "/fr/blog/", "/fr/blog/b/"}},
		{desc: "/blog/*", target: `path = "/blog/*"`, hugo: []string{"/blog/a/", "/blog/b/", "/blog/caps/", "/blog/sub/", "/fr/blog/b/"}},
		{desc: "/blog", target: `path = "/blog"`, hugo: []string{"/blog/", "/fr/blog/"}},
		{desc: "**", target: `path = "**"`, hugo: []string{"/", "/blog/", "/blog/a/", "/blog/b/", "/blog/caps/", "/blog/sub/", "/blog/sub/c/", "/blogger/", "/fr/", "/fr/blog/", "/fr/blog/b/", "/other/", "/other/d/"}},
		{desc: "*", target: `path = "*"`},
		{desc: "/*", target: `path = "/*"`, hugo: []string{"/", "/blog/", "/blogger/", "/fr/", "/fr/blog/", "/other/"}},
		{desc: "/blog/{a,sub}/**", target: `path = "/blog/{a,sub}/**"`, hugo: []string{"/blog/sub/c/"}},
		{desc: "{/blog,/blog/sub/**}", target: `path = "{/blog,/blog/sub/**}"`, hugo: []string{"/blog/", "/blog/sub/c/", "/fr/blog/"}},
		{desc: "/blog/?", target: `path = "/blog/?"`, hugo: []string{"/blog/a/", "/blog/b/", "/fr/blog/b/"}},
		{desc: "upper case", target: `path = "/BLOG/**"`, hugo: []string{"/blog/a/", "/blog/b/", "/blog/caps/", "/blog/sub/", "/blog/sub/c/", "/fr/blog/b/"}},
		{desc: "a file name in upper case", target: `path = "/blog/Caps"`, hugo: []string{"/blog/caps/"}},
		{desc: "no leading slash", target: `path = "blog/**"`},
		{desc: "a trailing slash", target: `path = "/blog/a/"`},
		{desc: "a leaf bundle", target: `path = "/blog/a"`, hugo: []string{"/blog/a/"}},
		{desc: "a section", target: `path = "/blog/sub"`, hugo: []string{"/blog/sub/"}},
		{desc: "a section Hugo made", target: `path = "/other"`, hugo: []string{"/other/"}},
		{desc: "the home page", target: `path = "/"`, hugo: []string{"/", "/fr/"}},
		{desc: "a kind", target: "path = \"/blog**\"\nkind = \"section\"", hugo: []string{"/blog/", "/blog/sub/", "/fr/blog/"}},
		{desc: "kinds and a language", target: "path = \"/blog/**\"\nkind = \"{page,section}\"\n[cascade.target.sites.matrix]\nlanguages = [\"fr\"]", hugo: []string{"/fr/blog/b/"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			testtool.WriteFiles(t, dir, site)
			testtool.WriteFiles(t, dir, map[string]string{"hugo.toml": `baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
defaultContentLanguage = "en"
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
[[cascade]]
  robots = "noarchive"
[cascade.target]
` + tc.target + "\n"})
			cmd := exec.Command(hugo, "--quiet")
			cmd.Dir, cmd.Env = dir, append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, b)
			}
			var applied []string
			walkAll(t, filepath.Join(dir, "public"), func(rel string, b []byte) {
				if m := probeMark.FindSubmatch(b); m != nil && strings.Contains(string(m[1]), "noarchive") {
					applied = append(applied, "/"+strings.TrimSuffix(rel, "index.html"))
				}
			})
			sort.Strings(applied)
			if strings.Join(applied, " ") != strings.Join(tc.hugo, " ") {
				t.Errorf("Hugo gave noarchive to %q, the table says %q", applied, tc.hugo)
			}
			generatorAgrees(t, dir, filepath.Join(dir, "public"), nil)
		})
	}
}
