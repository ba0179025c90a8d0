package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// valueSite writes a Hugo-layout site with files (content, config, static), builds it with the
// sample site's stand-in generator, and then applies edit to its output, as a theme that writes
// its own robots tags would have.
func valueSite(t *testing.T, files map[string]string, edit func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	files["hugo.toml"] = "baseURL = \"https://example.org/\"\ntitle = \"t\"\n"
	writeTree(t, dir, files)
	if err := standin.Generate(dir); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(dir)
	}
	return dir
}

// themeTag makes the robots tag the stand-in's theme writes into a page say content instead.
func themeTag(t *testing.T, dir, page, content string) {
	t.Helper()
	p := filepath.Join(dir, "public", filepath.FromSlash(page))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const theirs = `<meta name="robots" content="index, follow">`
	if !strings.Contains(string(b), theirs) {
		t.Fatalf("%s has no theme robots tag to change", page)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), theirs, `<meta name="robots" content="`+content+`">`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLooseSeparators builds a site whose directives are separated by spaces, semicolons and line
// breaks wherever a value is read: each page gets the noindex its author wrote and leaves the
// sitemap, and a warning at the value's file:line says to use commas (SPEC §4). Before, each such
// value was one unknown directive, dropped: the pages were written `index, follow` and stayed in
// the sitemap.
func TestLooseSeparators(t *testing.T) {
	fm := func(robots string) string { return "---\ntitle: P\nrobots: " + robots + "\n---\nP\n" }
	dir := valueSite(t, map[string]string{
		"content/posts/spaces.md":     fm("noindex nofollow"),
		"content/posts/semicolons.md": fm("noindex; nofollow"),
		"content/posts/block.md":      "---\ntitle: P\nrobots: |\n  noindex\n  nofollow\n---\nP\n",
		"content/posts/toml.md":       "+++\ntitle = \"P\"\nrobots = \"noindex nofollow\"\n+++\nP\n",
		"content/posts/unknown.md":    fm("noindex foo"),
		"content/posts/rule.md":       "---\ntitle: P\n---\nP\n",
		"content/posts/theme.md":      "---\ntitle: P\n---\nP\n",
		"content/posts/header.md":     "---\ntitle: P\n---\nP\n",
		"content/posts/public.md":     "---\ntitle: P\n---\nP\n",
		"robotsmith.yaml":             "rules:\n  - path: /posts/rule/\n    robots: \"noindex nofollow\"\n",
		"static/_headers":             "/posts/header/*\n  X-Robots-Tag: noindex nofollow\n",
	}, func(dir string) { themeTag(t, dir, "posts/theme/index.html", "noindex nofollow") })
	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	sitemap, err := os.ReadFile(filepath.Join(dir, "public", "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc, page, tag, warn string
	}{
		{"spaces in front matter", "spaces", "noindex, nofollow", `content/posts/spaces.md:3: front matter robots: directives separated by spaces are read as "noindex, nofollow"; separate them with commas`},
		{"semicolons in front matter", "semicolons", "noindex, nofollow", `content/posts/semicolons.md:3: front matter robots: directives separated by semicolons`},
		{"a YAML block scalar", "block", "noindex, nofollow", `content/posts/block.md:3: front matter robots: directives separated by line breaks`},
		{"TOML front matter", "toml", "noindex, nofollow", `content/posts/toml.md:3: front matter robots: directives separated by spaces`},
		{"an unknown word among them", "unknown", "noindex, follow", `content/posts/unknown.md:3: front matter robots: unknown directive "foo"; dropped`},
		{"a config rule", "rule", "noindex, nofollow", `robotsmith.yaml:3: rule 1: directives separated by spaces`},
		{"a theme's tag", "theme", "noindex, nofollow", `public/posts/theme/index.html:`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "public", "posts", tc.page, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			if want := `<meta name="robots" content="` + tc.tag + `">`; !strings.Contains(string(b), want) {
				t.Errorf("the page lacks %s:\n%s", want, b)
			}
			if loc := "https://example.org/posts/" + tc.page + "/"; strings.Contains(string(sitemap), loc) {
				t.Errorf("the sitemap still lists %s", loc)
			}
			if !slicesContain(texts(rep.Warnings), tc.warn) {
				t.Errorf("warnings: got\n%s\nwant one holding %q", strings.Join(texts(rep.Warnings), "\n"), tc.warn)
			}
		})
	}
	t.Run("the site's own _headers", func(t *testing.T) {
		for _, want := range []string{
			`_headers:2: rule /posts/header/*: X-Robots-Tag: directives separated by spaces are read as "noindex, nofollow"`,
			`_headers:2: rule /posts/header/* sends X-Robots-Tag: noindex nofollow for /posts/header/ (`,
		} {
			if !slicesContain(texts(rep.Warnings), want) {
				t.Errorf("warnings: got\n%s\nwant one holding %q", strings.Join(texts(rep.Warnings), "\n"), want)
			}
		}
	})
	if !strings.Contains(string(sitemap), "https://example.org/posts/public/") {
		t.Errorf("the sitemap lost the public page:\n%s", sitemap)
	}
	// The theme's tag, recorded in robotsmith's block, is read the same way the second time.
	again, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed != 0 {
		t.Errorf("a second build changed %q", again.ChangedFiles)
	}
}

func slicesContain(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestLongValueQuotedOnce: a 10 KB value makes a message of at most a few hundred characters that
// quotes it once, wherever it is written (SPEC §10). Before, each message quoted the value whole,
// twice: a 20 KB line.
func TestLongValueQuotedOnce(t *testing.T) {
	long := "max-snippet:" + strings.Repeat("9", 10000)
	plain := "---\ntitle: P\n---\nP\n"
	for _, tc := range []struct {
		desc  string
		files map[string]string
		theme string // the theme's tag on posts/p/, if set
		err   bool   // the message is an error, not a warning
	}{
		{"front matter", map[string]string{"content/posts/p.md": "---\ntitle: P\nrobots: " + long + "\n---\nP\n"}, "", true},
		{"front matter, among others", map[string]string{"content/posts/p.md": "---\ntitle: P\nrobots: noindex, " + long + "\n---\nP\n"}, "", true},
		{"the config", map[string]string{"content/posts/p.md": plain, "robotsmith.yaml": "rules:\n  - path: /posts/p/\n    robots: \"" + long + "\"\n"}, "", true},
		{"a theme's tag", map[string]string{"content/posts/p.md": plain}, long, true},
		{"the site's own _headers", map[string]string{"content/posts/p.md": plain, "static/_headers": "/posts/p/*\n  X-Robots-Tag: noindex, " + long + "\n"}, "", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := valueSite(t, tc.files, func(dir string) {
				if tc.theme != "" {
					themeTag(t, dir, "posts/p/index.html", tc.theme)
				}
			})
			rep, err := Run(context.Background(), Options{Root: dir})
			var msgs []string
			if tc.err {
				if err == nil {
					t.Fatal("got no error, want one about the value")
				}
				msgs = strings.Split(err.Error(), "\n")
			} else {
				if err != nil {
					t.Fatal(err)
				}
				msgs = texts(rep.Warnings)
			}
			nines := regexp.MustCompile(`9{20,}`)
			quoted := false
			for _, m := range msgs {
				m = strings.ReplaceAll(m, dir, "SITE") // the temporary folder's name is no value
				if len(m) > 300 {
					t.Errorf("a message of %d bytes, want at most 300: %.400s", len(m), m)
				}
				n := len(nines.FindAllString(m, -1))
				if n > 1 {
					t.Errorf("the value is quoted %d times, want once: %s", n, m)
				}
				quoted = quoted || n == 1
			}
			if !quoted {
				t.Errorf("no message quotes the value: %q", msgs)
			}
		})
	}
}

// TestTooManyAgents: a front matter or a config naming more agents than rules.MaxAgents fails the
// check with an error at the first agent over the limit (SPEC §10: refused with a clear limit);
// at the limit, the page gets a tag for each.
func TestTooManyAgents(t *testing.T) {
	agents := func(n int, indent string) string {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "%sx%06d: noindex\n", indent, i)
		}
		return sb.String()
	}
	plain := "---\ntitle: P\n---\nP\n"
	for _, tc := range []struct {
		desc, page, config, err string
	}{
		{"a front matter at the limit", "---\ntitle: P\nrobots:\n" + agents(rules.MaxAgents, "  ") + "---\nP\n", "", ""},
		{"a front matter over it", "---\ntitle: P\nrobots:\n" + agents(rules.MaxAgents+1, "  ") + "---\nP\n", "",
			fmt.Sprintf("content/posts/p.md:%d: front matter robots.x%06d: more than %d agent names", 4+rules.MaxAgents, rules.MaxAgents, rules.MaxAgents)},
		{"a config at the limit, with the built-in defaults' agents", plain, "rules:\n  - path: /posts/p/\n" + agents(rules.MaxAgents, "    "), ""},
		{"a config over it", plain, "rules:\n  - path: /posts/p/\n" + agents(rules.MaxAgents+1, "    "),
			fmt.Sprintf("robotsmith.yaml:%d: rule 1: more than %d agent names", 3+rules.MaxAgents, rules.MaxAgents)},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := valueSite(t, map[string]string{"content/posts/p.md": plain, "robotsmith.yaml": tc.config}, func(dir string) {
				writeTree(t, dir, map[string]string{"content/posts/p.md": tc.page})
			})
			_, err := Run(context.Background(), Options{Root: dir, Write: tc.err == ""})
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error: got %v, want it to hold %q", err, tc.err)
			case tc.err == "":
				b, err := os.ReadFile(filepath.Join(dir, "public", "posts", "p", "index.html"))
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(b), `content="index, follow, noindex`) + strings.Count(string(b), `content="noindex`); n < rules.MaxAgents {
					t.Errorf("the page has %d noindex tags, want one for each of %d agents", n, rules.MaxAgents)
				}
			}
		})
	}
}
