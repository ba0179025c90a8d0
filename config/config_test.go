package config

import (
	"errors"
	"github.com/robotsmith/robotsmith/problem"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

const fullYAML = `# a comment
generator: hugo
content: content
output: public
command: hugo --minify
tags: single
existing: replace
previews: noindex
production_branch: prod
defaults:
  robots: index, follow
  googlebot: [max-snippet:-1, max-image-preview:large]
rules:
  - path: /tags/**
    robots: noindex, follow
  - path: [/**/*.pdf, /downloads/**]
    robots: noindex
    GoogleBot-News: nosnippet
  - kind: [taxonomy, term]
    lang: fr
    robots: noindex, follow
error_pages: [/404.html, /**/404.html]
headers: {format: cloudflare, html: true}
sitemap: keep
`

const fullTOML = `generator = "hugo"
content = "content"
output = "public"
command = "hugo --minify"
tags = "single"
existing = "replace"
previews = "noindex"
production_branch = "prod"
error_pages = ["/404.html", "/**/404.html"]
sitemap = "keep"

[defaults]
robots = "index, follow"
googlebot = ["max-snippet:-1", "max-image-preview:large"]

[headers]
format = "cloudflare"
html = true

[[rules]]
path = "/tags/**"
robots = "noindex, follow"

[[rules]]
path = ["/**/*.pdf", "/downloads/**"]
robots = "noindex"
GoogleBot-News = "nosnippet"

[[rules]]
kind = ["taxonomy", "term"]
lang = "fr"
robots = "noindex, follow"
`

const fullJSON = `{
  "generator": "hugo",
  "content": "content",
  "output": "public",
  "command": "hugo --minify",
  "tags": "single",
  "existing": "replace",
  "previews": "noindex",
  "production_branch": "prod",
  "defaults": {
    "robots": "index, follow",
    "googlebot": ["max-snippet:-1", "max-image-preview:large"]
  },
  "rules": [
    {"path": "/tags/**",
     "robots": "noindex, follow"},
    {"path": ["/**/*.pdf", "/downloads/**"],
     "robots": "noindex",
     "GoogleBot-News": "nosnippet"},
    {"kind": ["taxonomy", "term"], "lang": "fr",
     "robots": "noindex, follow"}
  ],
  "error_pages": ["/404.html", "/**/404.html"],
  "headers": {"format": "cloudflare", "html": true},
  "sitemap": "keep"
}
`

// TestParseFormats reads the same configuration written in YAML, TOML and JSON (SPEC §2: "YAML, TOML
// or JSON") and checks every field, and that rule values carry their file and line.
func TestParseFormats(t *testing.T) {
	tests := []struct {
		desc, file, src string
		rule2Line       int // line of rule 2's GoogleBot-News key
	}{
		{"yaml", "robotsmith.yaml", fullYAML, 18},
		{"toml", "robotsmith.toml", fullTOML, 27},
		{"json", "robotsmith.json", fullJSON, 19},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, err := Parse(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if c.Generator != "hugo" || c.Content != "content" || c.Output != "public" || c.Command != "hugo --minify" {
				t.Errorf("paths: got %q %q %q %q", c.Generator, c.Content, c.Output, c.Command)
			}
			if c.Tags != rules.Single || !c.ReplaceExisting() || c.Previews != "noindex" || c.ProductionBranch != "prod" || c.Sitemap != "keep" {
				t.Errorf("switches: got tags %v existing %q previews %q branch %q sitemap %q", c.Tags, c.Existing, c.Previews, c.ProductionBranch, c.Sitemap)
			}
			if want := (Headers{Formats: []string{"cloudflare"}, HTML: true}); !slices.Equal(c.Headers.Formats, want.Formats) || c.Headers.HTML != want.HTML {
				t.Errorf("headers: got %+v, want %+v", c.Headers, want)
			}
			if want := []string{"/404.html", "/**/404.html"}; !reflect.DeepEqual(c.ErrorPages, want) {
				t.Errorf("error_pages: got %q, want %q", c.ErrorPages, want)
			}
			var defaults []string
			for _, in := range c.Defaults {
				defaults = append(defaults, in.Agent+"="+in.Value)
			}
			if want := []string{"robots=index, follow", "googlebot=max-snippet:-1, max-image-preview:large"}; !reflect.DeepEqual(defaults, want) {
				t.Errorf("defaults: got %q, want %q", defaults, want)
			}
			if len(c.RuleList) != 3 {
				t.Fatalf("rules: got %d, want 3", len(c.RuleList))
			}
			r3 := c.RuleList[2]
			if len(r3.Paths) != 0 || !reflect.DeepEqual(r3.Kinds, []string{"taxonomy", "term"}) || !reflect.DeepEqual(r3.Langs, []string{"fr"}) {
				t.Errorf("rule 3 selectors: got paths %q kinds %q langs %q, want none, [taxonomy term], [fr]", r3.Paths, r3.Kinds, r3.Langs)
			}
			r := c.RuleList[1]
			if want := []string{"/**/*.pdf", "/downloads/**"}; !reflect.DeepEqual(r.Paths, want) {
				t.Errorf("rule 2 paths: got %q, want %q", r.Paths, want)
			}
			if len(r.Values) != 2 {
				t.Fatalf("rule 2 values: got %+v", r.Values)
			}
			v := r.Values[1]
			if v.Agent != "googlebot-news" || v.Value != "nosnippet" {
				t.Errorf("rule 2 value: got %s=%q, want googlebot-news=nosnippet", v.Agent, v.Value)
			}
			wantSrc := rules.Source{Kind: rules.FromRule, File: tc.file, Line: tc.rule2Line, Rule: 2, Key: "googlebot-news"}
			if v.Source != wantSrc {
				t.Errorf("rule 2 source: got %+v, want %+v", v.Source, wantSrc)
			}
		})
	}
}

// TestErrors checks that every bad key or value is an error naming file:line (SPEC §2: "A config with
// an unknown key or a bad value is an error naming the file and line").
func TestErrors(t *testing.T) {
	tests := []struct {
		desc, file, src string
		want            []string // each must appear in the error text
	}{
		{"unknown key", "robotsmith.yaml", "tags: three\nsitemaps: prune\n", []string{`robotsmith.yaml:2: unknown key "sitemaps"`, `; did you mean "sitemap"?`}},
		{"bad enum", "robotsmith.yaml", "tags: four\n", []string{`robotsmith.yaml:1: tags: "four" is not one of three, single`}},
		{"misspelt enum", "robotsmith.yaml", "tags: tree\n", []string{`robotsmith.yaml:1: tags: "tree" is not one of three, single; did you mean "three"?`}},
		{"bad generator", "robotsmith.yaml", "\ngenerator: gatsby\n", []string{`robotsmith.yaml:2: generator: "gatsby"`}},
		{"rule without selector", "robotsmith.yaml", "rules:\n  - robots: noindex\n", []string{`robotsmith.yaml:2: rules[1]: no path, kind or lang given`}},
		{"empty kind", "robotsmith.yaml", "rules:\n  - kind: \"\"\n    robots: noindex\n", []string{`robotsmith.yaml:2: rules[1]: kind: an empty value`}},
		{"empty kind list", "robotsmith.yaml", "rules:\n  - kind: []\n    robots: noindex\n", []string{`robotsmith.yaml:2: rules[1]: kind: an empty list`}},
		{"kind not a string", "robotsmith.yaml", "rules:\n  - kind: {a: b}\n    robots: noindex\n", []string{`robotsmith.yaml:2: rules[1]: kind: want a string`}},
		{"empty lang in a list names its line", "robotsmith.yaml", "rules:\n  - lang:\n      - fr\n      - \"\"\n    robots: noindex\n", []string{`robotsmith.yaml:4: rules[1]: lang: an empty value`}},
		{"rule without directives", "robotsmith.yaml", "rules:\n  - path: /a/**\n", []string{`robotsmith.yaml:2: rules[1]: no directives given`}},
		{"relative glob", "robotsmith.yaml", "rules:\n  - path: tags/**\n    robots: noindex\n", []string{`robotsmith.yaml:2: rules[1]: path: "tags/**" must be a URL path`}},
		{"rules not a list", "robotsmith.yaml", "rules:\n  path: /a\n", []string{`robotsmith.yaml:2: rules: want a list`}},
		{"bad agent name", "robotsmith.yaml", "rules:\n  - path: /a\n    \"my bot\": noindex\n", []string{`robotsmith.yaml:3: "my bot" is not an agent name`}},
		{"headers html not bool", "robotsmith.yaml", "headers:\n  html: yes please\n", []string{`robotsmith.yaml:2: headers: html: want true or false`}},
		{"headers unknown", "robotsmith.yaml", "headers:\n  formats: netlify\n", []string{`robotsmith.yaml:2: headers: unknown key "formats"`}},
		{"two problems", "robotsmith.yaml", "tags: four\nexisting: keep\n", []string{"robotsmith.yaml:1:", "robotsmith.yaml:2: existing"}},
		{"yaml syntax", "robotsmith.yaml", "rules:\n  - path: [/a\n", []string{"robotsmith.yaml:"}},
		{"not a map", "robotsmith.yaml", "- a\n- b\n", []string{"robotsmith.yaml:1: the configuration must be a map"}},
		{"toml unknown key", "robotsmith.toml", "tags = \"three\"\n\n[headers]\nformat = \"netlify\"\nhtlm = true\n", []string{`robotsmith.toml:5: headers: unknown key "htlm"`}},
		{"toml bad value in rule", "robotsmith.toml", "[[rules]]\npath = \"/a\"\nrobots = \"noindex\"\n\n[[rules]]\npath = \"b\"\nrobots = \"noindex\"\n", []string{`robotsmith.toml:6: rules[2]: path: "b"`}},
		{"toml syntax", "robotsmith.toml", "tags = \n", []string{"robotsmith.toml:1:"}},
		{"json unknown key", "robotsmith.json", "{\n  \"tags\": \"three\",\n  \"output\": 3\n}\n", []string{`robotsmith.json:3: output: want a string`}},
		{"bad glob in a block list names its own line", "robotsmith.yaml", "rules:\n  - path:\n      - /ok/**\n      - bad\n    robots: noindex\n", []string{`robotsmith.yaml:4: rules[1]: path: "bad" must be a URL path`}},
		{"bad error page in a block list", "robotsmith.yaml", "error_pages:\n  - /404.html\n  - 404.html\n", []string{`robotsmith.yaml:3: error_pages: "404.html" must be a URL path`}},
		{"json bad glob on its own line", "robotsmith.json", "{\n \"rules\": [\n  {\"path\": [\"/b\",\n     \"c\"],\n   \"robots\": \"noindex\"}\n ]\n}\n", []string{`robotsmith.json:4: rules[1]: path: "c" must be a URL path`}},
		{"duplicate key", "robotsmith.yaml", "rules:\n  - path: /a/**\n    robots: noindex\ntags: single\nrules:\n  - path: /b/**\n    robots: noindex\n", []string{`robotsmith.yaml:5: key "rules" is written twice (first at line 1)`}},
		{"duplicate key in a rule", "robotsmith.yaml", "rules:\n  - path: /a/**\n    robots: noindex\n    path: /b/**\n", []string{`robotsmith.yaml:4: key "path" is written twice (first at line 2)`}},
		{"duplicate key differing in case", "robotsmith.json", "{\n  \"tags\": \"three\",\n  \"Tags\": \"single\"\n}\n", []string{`robotsmith.json:3: key "Tags" is written twice (first at line 2)`}},
		{"toml keys differing in case", "robotsmith.toml", "tags = \"three\"\n\n[[rules]]\npath = \"/a/**\"\nrobots = \"noindex\"\nRobots = \"nofollow\"\n", []string{`robotsmith.toml:6: key "Robots" is written twice (first at line 5)`}},
		{"json syntax", "robotsmith.json", "{\n  \"tags\": \"three\",,\n}\n", []string{"robotsmith.json:"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse(tc.file, []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse: got no error, want one containing %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error: got %q, want it to contain %q", err, w)
				}
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *config.Error", err)
			}
		})
	}
}

// TestLoad finds the file by name and treats a site without one as the zero Config.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir, "")
	if err != nil || c.File != "" || !reflect.DeepEqual(*c, Config{}) {
		t.Fatalf("no file: got %+v, %v; want the zero Config", c, err)
	}
	p := filepath.Join(dir, "robotsmith.yml")
	if err := os.WriteFile(p, []byte("sitemap: keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(dir, "")
	if err != nil || c.File != p || c.Sitemap != "keep" {
		t.Fatalf("robotsmith.yml: got %+v, %v", c, err)
	}
	if _, err := Load(dir, filepath.Join(dir, "missing.yaml")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing file: got %v, want ErrNotFound", err)
	}
}

// TestZeroValues: an empty file and the zero Config mean the built-in behaviour (STYLE 10).
func TestZeroValues(t *testing.T) {
	c, err := Parse("robotsmith.yaml", []byte("# nothing\n"))
	if err != nil {
		t.Fatal(err)
	}
	rc := c.Rules()
	if rc.Defaults != nil || rc.Rules != nil || rc.ErrorPages != nil || rc.Style != rules.Three {
		t.Errorf("Rules(): got %+v, want the zero rules.Config", rc)
	}
	// An explicitly empty list is kept apart from an absent one.
	c, err = Parse("robotsmith.yaml", []byte("error_pages: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ErrorPages == nil || len(c.ErrorPages) != 0 {
		t.Errorf("error_pages: []: got %#v, want an empty non-nil list", c.ErrorPages)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("robotsmith.yaml", fullYAML)
	f.Add("robotsmith.toml", fullTOML)
	f.Add("robotsmith.json", fullJSON)
	f.Add("robotsmith.yaml", "rules:\n  - path: [/a\n")
	f.Add("robotsmith.toml", "command = \"\"\"\n[rules]\n\"\"\"\nexisting = \"bogus\"\n")
	f.Add("robotsmith.yaml", "base: &b {robots: noindex}\nrules:\n  - <<: *b\n    path: /a\n")
	f.Add("robotsmith.yaml", "tags: a\ntags: b\nTags: c\n")
	f.Add("robotsmith.yaml", "rules:\n  - path: /a\n\trobots: x\n")
	f.Add("robotsmith.json", "\ufeff{\"tags\": \"tree\"}\n{}")
	f.Fuzz(func(t *testing.T, file, src string) {
		c, err := Parse(file, []byte(src))
		if err == nil && c == nil {
			t.Fatal("nil Config without an error")
		}
	})
}

// TestMisspeltSelectors: a rule's key that looks like path, kind or lang (or a word people write
// for them) is an error with "did you mean", not a crawler's name that silently leaves the rule
// selecting less or nothing (SPEC §4: nothing a user wrote is silently dropped); a crawler's name
// near none of them stays an agent, however unknown.
func TestMisspeltSelectors(t *testing.T) {
	for _, tc := range []struct {
		desc, key, want string // want "" for an agent
	}{
		{"two letters swapped", "paht", "path"},
		{"one letter dropped", "pth", "path"},
		{"one letter doubled", "kindd", "kind"},
		{"plural kinds", "kinds", "kind"},
		{"plural langs", "langs", "lang"},
		{"plural paths", "paths", "path"},
		{"the long word language", "language", "lang"},
		{"languages", "languages", "lang"},
		{"language misspelt", "langauge", "lang"},
		{"Jekyll's word type", "type", "kind"},
		{"types", "types", "kind"},
		{"glob", "glob", "path"},
		{"upper case", "PAHT", "path"},
		{"hyphenated", "la-ng", "lang"},
		{"a Cyrillic lookalike", "kіnd", "kind"},
		{"a legitimately unknown agent", "otherbot", ""},
		{"a short unknown agent two edits from kind", "kinbot", ""},
		{"a well-known agent", "yeti", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			src := "rules:\n  - path: /a/**\n    " + tc.key + ": noindex\n    robots: nofollow\n"
			c, err := Parse("robotsmith.yaml", []byte(src))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse: %v; want %q read as an agent", err, tc.key)
				}
				if got := c.RuleList[0].Values[0].Agent; got != strings.ToLower(tc.key) {
					t.Errorf("agent: got %q, want %q", got, strings.ToLower(tc.key))
				}
				return
			}
			want := `robotsmith.yaml:3: rules[1]: unknown key "` + tc.key + `" (did you mean "` + tc.want + `"?)`
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Parse: got %v, want an error containing %q", err, want)
			}
		})
	}
	// A rule whose only selector is misspelt says so once, not also that it has none.
	_, err := Parse("robotsmith.yaml", []byte("rules:\n  - paht: /tags/**\n    robots: noindex\n"))
	if err == nil || strings.Contains(err.Error(), "no path, kind or lang given") || !strings.Contains(err.Error(), `did you mean "path"?`) {
		t.Errorf("Parse: got %v, want only the misspelt key", err)
	}
}

// TestCheckSite: kinds and languages are the generator's; a wrong one is an error at its own line
// with the nearest valid one.
func TestCheckSite(t *testing.T) {
	hugo := Site{Generator: "hugo", Kinds: []string{"home", "section", "page", "taxonomy", "term", "404"}, Langs: []string{"en", "fr", "pt-br"}}
	jekyll := Site{Generator: "jekyll", Kinds: []string{"pages", "posts", "drafts", "recipes"}}
	plain := Site{Generator: "none"}
	for _, tc := range []struct {
		desc  string
		site  Site
		rules string
		want  []string // nil: no error
	}{
		{"every Hugo kind", hugo, "  - kind: [home, section, page, taxonomy, term, 404, html, file]\n", nil},
		{"every Jekyll kind", jekyll, "  - kind: [pages, posts, drafts, recipes, html, file]\n", nil},
		{"any site's kinds", plain, "  - kind: [html, file]\n", nil},
		{"kinds in another case", hugo, "  - kind: [Taxonomy, TERM]\n", nil},
		{"a language in another case", hugo, "  - lang: [FR, pt-BR]\n", nil},
		{"a Hugo kind misspelt", hugo, "  - kind: [taxonmy]\n", []string{`robotsmith.yaml:3: rules[1]: kind: a Hugo site has no kind "taxonmy" (did you mean "taxonomy"?); its kinds are home, section, page, taxonomy, term, 404, and any site's html and file`}},
		{"a Hugo kind in the plural", hugo, "  - kind: taxonomies\n", []string{`(did you mean "taxonomy"?)`}},
		{"a Hugo kind with a hyphen", hugo, "  - kind: sec-tion\n", []string{`(did you mean "section"?)`}},
		{"a Jekyll kind on Hugo", hugo, "  - kind: pages\n", []string{`a Hugo site has no kind "pages" (did you mean "page"?)`}},
		{"a Hugo kind on Jekyll", jekyll, "  - kind: page\n", []string{`a Jekyll site has no kind "page" (did you mean "pages"?)`}},
		{"a Jekyll collection misspelt", jekyll, "  - kind: recipies\n", []string{`(did you mean "recipes"?)`}},
		{"a Jekyll kind in the singular", jekyll, "  - kind: post\n", []string{`(did you mean "posts"?)`}},
		{"a kind with a Cyrillic lookalike", hugo, "  - kind: pаge\n", []string{`(did you mean "page"?)`}},
		{"a kind far from every one", hugo, "  - kind: tags\n", []string{`a Hugo site has no kind "tags"; its kinds are home`}},
		{"a generator kind on a plain folder", plain, "  - kind: page\n", []string{`a site without a generator has no kind "page"; it has only the kinds of any site, html and file`}},
		{"each bad value at its line", hugo, "  - kind:\n      - page\n      - pagez\n      - termz\n", []string{"robotsmith.yaml:5: rules[1]: kind:", "robotsmith.yaml:6: rules[1]: kind:"}},
		{"an undefined language", hugo, "  - lang: de\n", []string{`robotsmith.yaml:3: rules[1]: lang: "de" is not a language of the site; its configuration defines en, fr, pt-br`}},
		{"a language misspelt", hugo, "  - lang: pt-rb\n", []string{`(did you mean "pt-br"?)`}},
		{"a language on Jekyll", jekyll, "  - lang: fr\n", []string{`robotsmith.yaml:3: rules[1]: lang: a Jekyll site defines no languages (lang selects Hugo's languages); select a language's pages by path instead (path: /fr/**)`}},
		{"a language on a plain folder", plain, "  - lang: fr\n", []string{`a site without a generator defines no languages`}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c, err := Parse("robotsmith.yaml", []byte("tags: three\nrules:\n"+tc.rules+"    robots: noindex\n"))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			err = c.CheckSite(tc.site)
			if tc.want == nil {
				if err != nil {
					t.Errorf("CheckSite: %v, want no error", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckSite: no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("CheckSite: got %q, want it to contain %q", err, w)
				}
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *config.Error", err)
			}
		})
	}
}

// TestHeaderFormats reads headers.format as one format, a list of several, none or auto (SPEC §6:
// "a format may be given as a list to write several"), and refuses the lists that cannot be
// written: none or auto beside another format, netlify beside cloudflare (both read _headers).
func TestHeaderFormats(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		want      []string
		code      problem.Code // 0: no error
		msg       string
	}{
		{"absent", "tags: three\n", nil, 0, ""},
		{"one", "headers: {format: nginx}\n", []string{"nginx"}, 0, ""},
		{"any case", "headers: {format: Vercel}\n", []string{"vercel"}, 0, ""},
		{"a list", "headers:\n  format: [vercel, apache, caddy]\n", []string{"vercel", "apache", "caddy"}, 0, ""},
		{"listed twice is once", "headers:\n  format: [nginx, nginx]\n", []string{"nginx"}, 0, ""},
		{"none", "headers: {format: none}\n", []string{"none"}, 0, ""},
		{"auto", "headers: {format: auto}\n", []string{"auto"}, 0, ""},
		{"misspelt", "headers: {format: ngnix}\n", nil, problem.ConfigUnknownValue, `did you mean "nginx"?`},
		{"misspelt in a list", "headers:\n  format:\n    - vercel\n    - firebsae\n", nil, problem.ConfigUnknownValue, `robotsmith.yaml:4: headers: format: "firebsae" is not one of`},
		{"empty list", "headers: {format: []}\n", nil, problem.ConfigWrongType, "an empty list"},
		{"none with another", "headers:\n  format: [none, nginx]\n", nil, problem.HeaderFormatsConflict, `robotsmith.yaml:2: headers: format: "none" stands alone`},
		{"auto with another", "headers:\n  format: [nginx, auto]\n", nil, problem.HeaderFormatsConflict, `"auto" stands alone`},
		{"netlify and cloudflare", "headers:\n  format: [netlify, cloudflare]\n", nil, problem.HeaderFormatsConflict, "netlify and cloudflare both read _headers"},
		{"not a string", "headers: {format: {a: b}}\n", nil, problem.ConfigWrongType, "want a string"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c, err := Parse("robotsmith.yaml", []byte(tc.src))
			if tc.code == 0 {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !slices.Equal(c.Headers.Formats, tc.want) {
					t.Errorf("Formats: got %q, want %q", c.Headers.Formats, tc.want)
				}
				return
			}
			if got := codes(t, err, false); !slices.Contains(got, tc.code) {
				t.Errorf("codes: got %v, want %v", got, tc.code)
			}
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error: got %v, want it to contain %q", err, tc.msg)
			}
		})
	}
}
