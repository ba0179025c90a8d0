package standin

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// buildTime is the clock for the tests: the sample site's expiryDate
// (2099-12-31) lies after it.
var buildTime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// copySample copies the sample site's sources (not its public/) into a
// temporary folder and returns it.
func copySample(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{"hugo.toml", "content", "static"} {
		src := filepath.Join("..", name)
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", p)
			target := filepath.Join(dst, rel)
			if d.IsDir() {
				return os.MkdirAll(target, 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// outputFiles lists the files below dir/public, slash-separated and sorted.
func outputFiles(t *testing.T, dir string) []string {
	t.Helper()
	public := filepath.Join(dir, "public")
	var files []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(public, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func readOut(t *testing.T, dir, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(file)))
	if err != nil {
		t.Fatalf("reading output: %v", err)
	}
	return string(data)
}

func aliasStub(target string) string {
	return `<!DOCTYPE html><html lang="en-us"><head><title>` + target + `</title><link rel="canonical" href="` + target +
		`"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=` + target + `"></head></html>`
}

func TestGenerateSampleLayout(t *testing.T) {
	dir := copySample(t)
	if err := generate(dir, buildTime); err != nil {
		t.Fatalf("generate: %v", err)
	}

	// The whole file list, against a golden file (go test -update rewrites it).
	got := strings.Join(outputFiles(t, dir), "\n") + "\n"
	golden := filepath.Join("testdata", "sample-files.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output files differ from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
	}

	exists := []struct {
		desc, file string
		contains   []string
	}{
		{"home", "index.html", []string{`<html lang="en-us"`, `<link rel="canonical" href="https://example.org/">`}},
		{"home page 2", "page/2/index.html", []string{`href="https://example.org/page/2/"`, `class="prev" href="/"`}},
		{"section from _index.md", "blog/index.html", []string{"<h1>Blog</h1>", `class="next" href="/blog/page/2/"`}},
		{"section page 2", "blog/page/2/index.html", []string{`class="prev" href="/blog/"`}},
		{"implicit section", "legal/index.html", []string{"<h1>Legal</h1>", `href="/legal/privacy/"`}},
		{"nested section", "docs/reference/index.html", []string{"<h1>Reference</h1>", `href="/docs/reference/config/"`}},
		{"regular page", "blog/hello-world/index.html", []string{"<title>Hello, world | Robotsmith Sample</title>", `<meta name="robots" content="index, follow">`}},
		{"page at the root", "about/index.html", []string{"<h1 class=\"post-title entry-hint-parent\">About this site</h1>"}},
		{"slug, sanitised and lower-cased", "blog/better-robots-tags/index.html", []string{"Better robots tags"}},
		{"file name with a space", "blog/seasonal-offer/index.html", []string{"Seasonal offer"}},
		{"url front matter", "docs/cli-reference/index.html", []string{"Command line"}},
		{"leaf bundle", "docs/guide/index.html", []string{`<img src="diagram.png"`, `<a href="report.pdf">`}},
		{"raw HTML kept (unsafe)", "blog/raw-html/index.html", []string{`<meta name="googlebot" content="noarchive">`}},
		{"theme noindex (robotsNoIndex)", "legal/imprint/index.html", []string{`<meta name="robots" content="noindex, nofollow">`}},
		{"taxonomy list", "tags/index.html", []string{`<a href="/tags/robots/">robots <sup>`}},
		{"term", "tags/robots/index.html", []string{`class="next" href="/tags/robots/page/2/"`}},
		{"term page 2", "tags/robots/page/2/index.html", []string{`class="prev" href="/tags/robots/"`}},
		{"categories", "categories/announcements/index.html", []string{`href="/news/launch/"`}},
		{"404 with the theme's robots tag", "404.html", []string{`<meta name="robots" content="index, follow">`, "404"}},
		{"script with </head> in a string", "news/launch/index.html", []string{`'<link rel="stylesheet" href="/css/style.css"></head>';`}},
		{"sitemap", "sitemap.xml", []string{`<loc>https://example.org/blog/hello-world/</loc>`, `<lastmod>2024-03-01T09:00:00+00:00</lastmod>`}},
	}
	for _, tc := range exists {
		t.Run(tc.desc, func(t *testing.T) {
			got := readOut(t, dir, tc.file)
			for _, want := range tc.contains {
				if !strings.Contains(got, want) {
					t.Errorf("%s: does not contain %q; got:\n%s", tc.file, want, got)
				}
			}
			if strings.HasSuffix(tc.file, ".html") && !strings.HasPrefix(got, "<!DOCTYPE html>") {
				t.Errorf("%s: does not start with a doctype", tc.file)
			}
		})
	}

	aliases := []struct{ desc, file, target string }{
		{"aliases front matter", "old-path/index.html", "https://example.org/about/"},
		{"section page/1", "blog/page/1/index.html", "https://example.org/blog/"},
		{"home page/1", "page/1/index.html", "https://example.org/"},
		{"term page/1", "tags/robots/page/1/index.html", "https://example.org/tags/robots/"},
	}
	for _, tc := range aliases {
		t.Run(tc.desc, func(t *testing.T) {
			if got, want := readOut(t, dir, tc.file), aliasStub(tc.target); got != want {
				t.Errorf("%s:\ngot  %s\nwant %s", tc.file, got, want)
			}
		})
	}

	absent := []struct{ desc, file string }{
		{"draft", "blog/work-in-progress/index.html"},
		{"draft's tag", "tags/drafts/index.html"},
		{"page with url at its folder path", "docs/reference/cli/index.html"},
		{"slug replaces the file name", "blog/second-post/index.html"},
		{"blog has two pages", "blog/page/3/index.html"},
		{"bundle's Markdown is not copied", "docs/guide/index.md"},
	}
	for _, tc := range absent {
		t.Run(tc.desc, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, "public", tc.file)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: got err %v, want it not to exist", tc.file, err)
			}
		})
	}

	verbatim := []struct{ src, out string }{
		{"content/docs/guide/report.pdf", "docs/guide/report.pdf"},
		{"content/docs/guide/diagram.png", "docs/guide/diagram.png"},
		{"static/google1234567890abcdef.html", "google1234567890abcdef.html"},
		{"static/files/terms.pdf", "files/terms.pdf"},
		{"static/_headers", "_headers"},
	}
	for _, tc := range verbatim {
		t.Run("copied "+tc.out, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := readOut(t, dir, tc.out); got != string(want) {
				t.Errorf("%s: got %q, want the bytes of %s", tc.out, got, tc.src)
			}
		})
	}
}

// TestSitemapListsEveryPage checks that sitemap.xml lists exactly the HTML
// pages that are neither alias stubs, page/N/ continuations nor the 404 page.
func TestSitemapListsEveryPage(t *testing.T) {
	dir := copySample(t)
	if err := generate(dir, buildTime); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range outputFiles(t, dir) {
		if !strings.HasSuffix(f, "index.html") || regexp.MustCompile(`(^|/)page/\d+/`).MatchString(f) ||
			strings.Contains(readOut(t, dir, f), `http-equiv="refresh"`) {
			continue
		}
		want = append(want, "https://example.org/"+strings.TrimSuffix(f, "index.html"))
	}
	var got []string
	for _, m := range regexp.MustCompile(`<loc>([^<]*)</loc>`).FindAllStringSubmatch(readOut(t, dir, "sitemap.xml"), -1) {
		got = append(got, m[1])
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sitemap locs:\ngot  %q\nwant %q", got, want)
	}
}

func TestGenerateCleansPublic(t *testing.T) {
	dir := copySample(t)
	stale := filepath.Join(dir, "public", "stale", "index.html")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := generate(dir, buildTime); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale file: got err %v, want it removed", err)
	}
}

// writeSite writes a minimal site with the given content files.
func writeSite(t *testing.T, config string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["hugo.toml"] = config
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const minimalConfig = "baseURL = \"https://example.com/sub/\"\ntitle = \"T\"\n"

func TestFrontMatterPaths(t *testing.T) {
	cases := []struct {
		desc, file, source string
		now                time.Time
		want               string // output file, "" if none
		notWant            string // a file that must not exist
	}{
		{"yaml", "content/a/b.md", "---\ntitle: B\n---\nx\n", buildTime, "a/b/index.html", ""},
		{"toml", "content/a/b.md", "+++\ntitle = \"B\"\n+++\nx\n", buildTime, "a/b/index.html", ""},
		{"json", "content/a/b.md", "{\n  \"title\": \"B\"\n}\n\nx\n", buildTime, "a/b/index.html", ""},
		{"no front matter", "content/a/b.md", "just text\n", buildTime, "a/b/index.html", ""},
		{"upper case and spaces", "content/My Docs/Some File.md", "---\ntitle: B\n---\n", buildTime, "my-docs/some-file/index.html", ""},
		{"slug", "content/a/b.md", "---\nslug: \"-Hello World!-\"\n---\n", buildTime, "a/hello-world/index.html", "a/b/index.html"},
		{"url with slash", "content/a/b.md", "---\nurl: /X/y/\n---\n", buildTime, "X/y/index.html", "a/b/index.html"},
		{"url naming a file", "content/a/b.md", "---\nurl: /feed/b.json\n---\n", buildTime, "feed/b.json", "a/b/index.html"},
		{"url cannot leave public", "content/a/b.md", "---\nurl: ../../escape/\n---\n", buildTime, "escape/index.html", ""},
		{"bundle slug", "content/a/b/index.md", "---\nslug: c\n---\n", buildTime, "a/c/index.html", "a/b/index.html"},
		{"draft", "content/a/b.md", "---\ndraft: true\n---\n", buildTime, "", "a/b/index.html"},
		{"headless", "content/a/b/index.md", "---\nheadless: true\n---\n", buildTime, "", "a/b/index.html"},
		{"render never", "content/a/b.md", "---\nbuild:\n  render: never\n---\n", buildTime, "", "a/b/index.html"},
		{"expired", "content/a/b.md", "---\nexpiryDate: 2025-01-01\n---\n", buildTime, "", "a/b/index.html"},
		{"not yet expired", "content/a/b.md", "---\nexpiryDate: 2025-01-01\n---\n", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "a/b/index.html", ""},
		{"future", "content/a/b.md", "+++\npublishDate = 2030-01-01\n+++\n", buildTime, "", "a/b/index.html"},
		{"relative alias", "content/a/b.md", "---\naliases: [c]\n---\n", buildTime, "a/c/index.html", ""},
		{"alias with .html", "content/a/b.md", "---\naliases: [/x.html]\n---\n", buildTime, "x.html", ""},
		{"cascaded draft", "content/a/b.md", "", buildTime, "", "a/b/index.html"},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			files := map[string]string{tc.file: tc.source}
			if tc.desc == "cascaded draft" {
				files["content/a/_index.md"] = "---\ncascade:\n  - _target:\n      kind: page\n    draft: true\n---\n"
			}
			dir := writeSite(t, minimalConfig, files)
			if err := generate(dir, tc.now); err != nil {
				t.Fatalf("generate: %v", err)
			}
			if tc.want != "" {
				if _, err := os.Stat(filepath.Join(dir, "public", filepath.FromSlash(tc.want))); err != nil {
					t.Errorf("got %v, want %s written; files: %q", err, tc.want, outputFiles(t, dir))
				}
			}
			if tc.notWant != "" {
				if _, err := os.Stat(filepath.Join(dir, "public", filepath.FromSlash(tc.notWant))); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s: got err %v, want it not written", tc.notWant, err)
				}
			}
			for _, f := range outputFiles(t, dir) {
				if strings.Contains(f, "..") {
					t.Errorf("output file %q outside public/", f)
				}
			}
		})
	}
}

func TestCascade(t *testing.T) {
	files := map[string]string{
		"content/a/_index.md":      "---\ncascade:\n  robotsNoIndex: true\n---\n",
		"content/a/p.md":           "---\ntitle: P\n---\n",
		"content/a/own.md":         "---\nrobotsNoIndex: false\n---\n",
		"content/b/_index.md":      "+++\n[[cascade]]\nrobotsNoIndex = true\n[cascade._target]\npath = \"/b/deep/**\"\n+++\n",
		"content/b/top.md":         "",
		"content/b/deep/_index.md": "",
		"content/b/deep/d.md":      "",
	}
	dir := writeSite(t, minimalConfig, files)
	if err := generate(dir, buildTime); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file    string
		noindex bool
	}{
		{"a/index.html", true}, // the declaring page too
		{"a/p/index.html", true},
		{"a/own/index.html", false}, // the page's own value wins
		{"b/top/index.html", false},
		{"b/deep/index.html", false}, // /b/deep/** needs the "/b/deep/" prefix
		{"b/deep/d/index.html", true},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			got := strings.Contains(readOut(t, dir, tc.file), `content="noindex, nofollow"`)
			if got != tc.noindex {
				t.Errorf("%s: theme noindex = %v, want %v", tc.file, got, tc.noindex)
			}
		})
	}
}

func TestGenerateErrors(t *testing.T) {
	cases := []struct {
		desc, config string
		files        map[string]string
		wantFiles    []string // each must be named by an *Error
		wantIs       error
	}{
		{"bad yaml", minimalConfig, map[string]string{"content/a.md": "---\ntitle: [\n---\n", "content/b.md": "+++\nx = \n+++\n"},
			[]string{"content/a.md", "content/b.md"}, nil},
		{"bad date", minimalConfig, map[string]string{"content/a.md": "---\ndate: someday\n---\n"}, []string{"content/a.md"}, nil},
		{"bad cascade", minimalConfig, map[string]string{"content/s/_index.md": "---\ncascade: 3\n---\n"}, []string{"content/s/_index.md"}, nil},
		{"uglyURLs", minimalConfig + "uglyURLs = true\n", map[string]string{}, []string{"hugo.toml"}, ErrUnsupported},
		{"bad config", "title = \n", map[string]string{}, []string{"hugo.toml"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			dir := writeSite(t, tc.config, tc.files)
			err := generate(dir, buildTime)
			if err == nil {
				t.Fatal("got nil error, want one")
			}
			for _, f := range tc.wantFiles {
				if !strings.Contains(err.Error(), f+": ") {
					t.Errorf("error %q does not name %s", err, f)
				}
			}
			var fe *Error
			if !errors.As(err, &fe) {
				t.Errorf("error %v is not an *Error", err)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("got %v, want it to wrap %v", err, tc.wantIs)
			}
			if _, err := os.Stat(filepath.Join(dir, "public")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("public/ written despite the error")
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Scratch", "scratch"},
		{"My File", "my-file"},
		{"a  b\tc", "a-b-c"},
		{" lead", "lead"},
		{"trail ", "trail"},
		{"Hello, World!", "hello-world"},
		{"C++ & Go", "c++-go"},
		{"100%", "100"},
		{"%C3%A9t%C3%A9", "%c3%a9t%c3%a9"},
		{"Été à Paris", "été-à-paris"},
		{"a/B/c", "a/b/c"},
		{"keep._~+#@-", "keep._~+#@-"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := sanitize(tc.in); got != tc.want {
				t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"Scratch", "My File", "Hello, World!", "%C3%A9", "a/B/c", " x ", "\u00e9\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := sanitize(s)
		if strings.ContainsAny(got, " \t\n?&=\"'<>") {
			t.Errorf("sanitize(%q) = %q holds a character Hugo drops", s, got)
		}
		if again := sanitize(got); again != got {
			t.Errorf("sanitize not idempotent: %q -> %q -> %q", s, got, again)
		}
		if u := urlize(s); strings.Contains(u, "/") {
			t.Errorf("urlize(%q) = %q holds a slash", s, u)
		}
	})
}

func TestAliasFile(t *testing.T) {
	cases := []struct{ rel, alias, want string }{
		{"/about/", "/old-path/", "old-path/index.html"},
		{"/about/", "/old-path", "old-path/index.html"},
		{"/about/", "/old.html", "old.html"},
		{"/blog/post/", "older", "blog/older/index.html"},
		{"/blog/post/", "../../../x/", "x/index.html"},
		{"/a/", "/", "index.html"},
	}
	for _, tc := range cases {
		t.Run(tc.alias, func(t *testing.T) {
			if got := aliasFile(tc.rel, tc.alias); got != tc.want {
				t.Errorf("aliasFile(%q, %q) = %q, want %q", tc.rel, tc.alias, got, tc.want)
			}
		})
	}
}

// TestPDFIsValid checks the cross-reference table of the hand-written PDF:
// each offset must point at its "N 0 obj", and startxref at "xref".
func TestPDFIsValid(t *testing.T) {
	for _, text := range []string{"hello", `paren ( ) and \ back`} {
		t.Run(text, func(t *testing.T) {
			pdf := pdfFile(text)
			xref := bytes.LastIndex(pdf, []byte("startxref\n"))
			rest := strings.Fields(string(pdf[xref+len("startxref\n"):]))
			off, err := strconv.Atoi(rest[0])
			if err != nil || !bytes.HasPrefix(pdf[off:], []byte("xref\n")) {
				t.Fatalf("startxref %q does not point at xref", rest[0])
			}
			lines := strings.Split(string(pdf[off:]), "\n")
			for i := 1; i <= 5; i++ {
				entry := lines[2+i]
				if len(entry)+1 != 20 {
					t.Errorf("xref entry %q is %d bytes, want 20", entry, len(entry)+1)
				}
				o, _ := strconv.Atoi(entry[:10])
				if want := strconv.Itoa(i) + " 0 obj"; !bytes.HasPrefix(pdf[o:], []byte(want)) {
					t.Errorf("object %d: offset %d points at %q", i, o, pdf[o:o+10])
				}
			}
		})
	}
}
