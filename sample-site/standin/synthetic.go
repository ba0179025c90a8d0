package standin

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// syntheticSections are the top-level sections of a synthetic site.
// "private" has a cascade making it noindex; "archive" has a cascade with a
// target; "docs" and "guides" have nested sections (docs/reference,
// docs/reference/api, guides/<topic>).
var syntheticSections = [...]string{
	"blog", "docs", "news", "private", "archive", "guides", "recipes", "events",
	"projects", "talks", "notes", "reviews", "releases", "press", "jobs",
	"faq", "tutorials", "changelog", "community", "labs",
}

// guideTopics are the nested sections of "guides".
var guideTopics = [...]string{"getting-started", "deploy", "hosting", "migrate", "themes"}

var syntheticTags = [...]string{
	"go", "hugo", "seo", "robots", "static sites", "performance", "security",
	"design", "css", "javascript", "rust", "python", "testing", "devops",
	"cloud", "netlify", "cloudflare", "markdown", "search", "accessibility",
	"i18n", "tooling", "release", "howto",
}

var syntheticWords = strings.Fields(`the a site page robots crawler index follow snippet
image preview search engine static generator build deploy header meta tag rule section
bundle draft alias sitemap theme content markdown front matter cascade taxonomy term list
fast small large careful simple quiet public private news guide report diagram release note`)

// Synthetic writes a Hugo-layout site of about pages content pages into root
// for tests and benchmarks: hugo.toml, a robotsmith.yaml with rules (and no
// command), content/ spread over 20 sections (nested sections up to three
// deep, cascades), with YAML, TOML and JSON front matter in turn, robots keys
// on some pages and the theme's noindex (robotsNoIndex) on others, tags and
// categories, aliases, slugs, drafts, and a leaf bundle holding a PDF and a
// PNG in every twentieth page (so a tenth as many images and PDFs as pages);
// and static/ with a PDF and a PNG. Page sizes are spread as real sites'
// are: the Markdown of most pages is around 25 KB, and one page in 50 is a
// long reference page of 200 to 600 KB. The same seed gives the same site.
// root may exist, but must not hold a content folder yet. Generate then
// builds it.
func Synthetic(root string, pages int, seed int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("standin: internal error: %v", r)
		}
	}()
	if pages < 0 {
		return fmt.Errorf("standin: Synthetic: pages = %d, want >= 0", pages)
	}
	if _, err := os.Stat(filepath.Join(root, "content")); err == nil {
		return fmt.Errorf("standin: Synthetic: %s: %w", filepath.Join(root, "content"), fs.ErrExist)
	}
	pdf := pdfFile("Synthetic report")
	pngData, err := pngFile(8, 40)
	if err != nil {
		return err
	}
	w := &treeWriter{root: root}
	w.file("hugo.toml", syntheticConfig)
	w.file("robotsmith.yaml", syntheticRobotsmith)
	w.file("static/files/terms.pdf", string(pdf))
	w.file("static/images/logo.png", string(pngData))
	w.file("static/css/style.css", "body { font-family: sans-serif; }\n")

	for i, sec := range syntheticSections {
		fm := fmt.Sprintf("---\ntitle: %q\ndescription: %q\nweight: %d\n", titleCase(sec), "All about "+sec, i+1)
		switch sec {
		case "private":
			fm += "cascade:\n  robots: noindex\n"
		case "archive":
			fm += "cascade:\n  - _target:\n      path: /archive/**\n      kind: page\n    robots: noarchive\n"
		}
		w.file("content/"+sec+"/_index.md", fm+"---\n\nThe "+sec+" section.\n")
	}
	w.file("content/docs/reference/_index.md", "+++\ntitle = \"Reference\"\n+++\n\nReference pages.\n")
	w.file("content/docs/reference/api/_index.md", "+++\ntitle = \"API\"\n+++\n\nThe API, call by call.\n")
	for _, topic := range guideTopics {
		w.file("content/guides/"+topic+"/_index.md", fmt.Sprintf("---\ntitle: %q\n---\n\nGuides: %s.\n", titleCase(strings.ReplaceAll(topic, "-", " ")), topic))
	}
	w.file("content/_index.md", "---\ntitle: Synthetic site\n---\n\nA synthetic site for tests.\n")

	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	base := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	var body strings.Builder
	for k := range pages {
		sec := syntheticSections[k%len(syntheticSections)]
		dir := "content/" + sec
		switch {
		case sec == "docs" && k%9 == 0:
			dir += "/reference/api"
		case sec == "docs" && k%3 == 0:
			dir += "/reference"
		case sec == "guides":
			dir += "/" + guideTopics[(k/len(syntheticSections))%len(guideTopics)]
		}
		name := fmt.Sprintf("page-%05d", k)
		file := dir + "/" + name + ".md"
		if k%20 == 7 { // a leaf bundle with a PDF and a PNG
			file = dir + "/" + name + "/index.md"
			w.file(dir+"/"+name+"/report.pdf", string(pdf))
			w.file(dir+"/"+name+"/figure.png", string(pngData))
		}
		f := fields{
			{"title", fmt.Sprintf("Page %d: %s", k, words(rng, 3))},
			{"date", base.Add(time.Duration(k) * time.Hour).Format(time.RFC3339)},
			{"description", words(rng, 8)},
		}
		var tags []string
		for range rng.IntN(4) {
			tags = append(tags, syntheticTags[rng.IntN(len(syntheticTags))])
		}
		if len(tags) > 0 {
			f = append(f, field{"tags", tags})
		}
		f = append(f, field{"categories", []string{syntheticSections[rng.IntN(5)]}})
		switch {
		case k%7 == 3:
			f = append(f, field{"robots", "noindex, nofollow"})
		case k%11 == 5:
			f = append(f, field{"noindex", true})
		case k%13 == 6:
			f = append(f, field{"robots", map[string]string{"googlebot": "nosnippet", "bingbot": "noarchive"}})
		case k%17 == 8:
			f = append(f, field{"unavailable_after", "2030-06-30"})
		case k%29 == 9:
			f = append(f, field{"expiryDate", "2099-12-31"})
		case k%19 == 2: // the theme writes noindex, nofollow for it
			f = append(f, field{"robotsNoIndex", true})
		}
		if k%9 == 4 {
			f = append(f, field{"slug", fmt.Sprintf("Custom Slug %d", k)})
		}
		if k%50 == 10 {
			f = append(f, field{"aliases", []string{fmt.Sprintf("/old/%d/", k)}})
		}
		if k%41 == 12 {
			f = append(f, field{"draft", true})
		}
		body.Reset()
		body.WriteString(f.format(k % 3))
		syntheticBody(&body, rng, k, bodySize(rng))
		w.file(file, body.String())
	}
	return w.err
}

// treeWriter writes files below root and keeps the first error.
type treeWriter struct {
	root string
	err  error
	dirs map[string]bool
}

func (w *treeWriter) file(rel, data string) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	dir := filepath.Dir(p)
	if !w.dirs[dir] {
		if w.err = os.MkdirAll(dir, 0o755); w.err != nil {
			return
		}
		if w.dirs == nil {
			w.dirs = map[string]bool{}
		}
		w.dirs[dir] = true
	}
	w.err = os.WriteFile(p, []byte(data), 0o644)
	if w.err != nil {
		w.err = errors.Join(fmt.Errorf("standin: Synthetic: %s", rel), w.err)
	}
}

type field struct {
	key   string
	value any // string, bool, []string or map[string]string
}

type fields []field

// format writes the front matter as YAML (0), TOML (1) or JSON (2).
func (fs fields) format(kind int) string {
	var b strings.Builder
	open, end := "---\n", "---\n"
	switch kind {
	case 1:
		open, end = "+++\n", "+++\n"
	case 2:
		open, end = "{\n", "\n}\n"
	}
	b.WriteString(open)
	var tables []field // TOML tables go after the plain keys
	for i, f := range fs {
		if m, ok := f.value.(map[string]string); ok && kind == 1 {
			tables = append(tables, field{f.key, m})
			continue
		}
		switch kind {
		case 0:
			fmt.Fprintf(&b, "%s: %s\n", f.key, yamlValue(f.value))
		case 1:
			fmt.Fprintf(&b, "%s = %s\n", f.key, jsonValue(f.value))
		case 2:
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "  %q: %s", f.key, jsonValue(f.value))
		}
	}
	for _, t := range tables {
		fmt.Fprintf(&b, "[%s]\n", t.key)
		for _, k := range sortedKeys(t.value.(map[string]string)) {
			fmt.Fprintf(&b, "%s = %q\n", k, t.value.(map[string]string)[k])
		}
	}
	b.WriteString(end)
	b.WriteString("\n")
	return b.String()
}

// jsonValue formats a value as JSON, which is also valid TOML for these types.
func jsonValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case bool:
		return fmt.Sprint(v)
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = fmt.Sprintf("%q", s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case map[string]string:
		var q []string
		for _, k := range sortedKeys(v) {
			q = append(q, fmt.Sprintf("%q: %q", k, v[k]))
		}
		return "{" + strings.Join(q, ", ") + "}"
	}
	panic(fmt.Sprintf("jsonValue: %T", v))
}

// yamlValue formats a value as YAML flow style (JSON strings are YAML).
func yamlValue(v any) string {
	if s, ok := v.(string); ok && len(s) == 10 && s[4] == '-' && s[7] == '-' {
		return s // a bare date, as people write them
	}
	return jsonValue(v)
}

func words(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = syntheticWords[rng.IntN(len(syntheticWords))]
	}
	return strings.Join(ws, " ")
}

// bodySize draws a page's Markdown size in bytes: log-normal around 25 KB for most pages, as
// real sites' articles are spread, and one page in 50 a long reference page of 200 to 600 KB.
func bodySize(rng *rand.Rand) int {
	if rng.IntN(50) == 0 {
		return 200<<10 + rng.IntN(400<<10)
	}
	return int(min(max(25e3*math.Exp(0.5*rng.NormFloat64()), 3e3), 150e3))
}

// syntheticBody writes about size bytes of Markdown: an intro, sections of paragraphs, a list and a
// code block, and on a long page a reference table.
func syntheticBody(b *strings.Builder, rng *rand.Rand, k, size int) {
	start := b.Len()
	fmt.Fprintf(b, "Intro to page %d: %s.\n\n", k, words(rng, 20))
	for n := 0; b.Len()-start < size; n++ {
		if n%4 == 0 {
			fmt.Fprintf(b, "## %s\n\n", titleCase(words(rng, 2)))
		}
		if size > 100<<10 && n%8 == 7 {
			b.WriteString("| name | value | notes |\n|---|---|---|\n")
			for r := range 40 {
				fmt.Fprintf(b, "| `%s-%d` | %d | %s |\n", syntheticWords[rng.IntN(len(syntheticWords))], r, rng.IntN(1000), words(rng, 6))
			}
			b.WriteString("\n")
			continue
		}
		b.WriteString(titleCase(words(rng, 30+rng.IntN(40))) + ".\n\n")
	}
	fmt.Fprintf(b, "- %s\n- %s\n- [home](/)\n\n```go\nfmt.Println(%d)\n```\n", words(rng, 4), words(rng, 4), k)
}

const syntheticConfig = `baseURL = "https://example.org/"
languageCode = "en-us"
title = "Synthetic site"

[pagination]
pagerSize = 10

[taxonomies]
tag = "tags"
category = "categories"

[params]
description = "A synthetic site for robotsmith tests"
author = "robotsmith"
`

const syntheticRobotsmith = `# Written by standin.Synthetic; the site is built by Generate, so no command.
generator: hugo
rules:
  - path: /tags/**
    robots: noindex, follow
  - path: /categories/**
    robots: noindex, follow
  - path: /**/*.pdf
    robots: noindex
  - path: /news/**
    googlebot-news: nosnippet
  - path: /private/**
    robots: noindex
`
