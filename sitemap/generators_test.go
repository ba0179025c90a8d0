package sitemap

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The golden inputs hugo-*.input.xml and jekyll.input.xml are what the real generators write for
// the fixtures in testdata/hugo-multilingual and testdata/jekyll-sitemap. These tests build the
// fixtures again and check that the committed inputs are still exactly what the generators
// write; `go test -run 'Hugo|Jekyll' -update` rewrites them.

// TestHugoSitemaps builds testdata/hugo-multilingual with Hugo: a sitemap index at the root and
// one sitemap per language, with xhtml:link hreflang alternates; and again with --minify, as the
// host guides (docs/guides/netlify.md, cloudflare-pages.md) build, which puts each sitemap on one
// line.
func TestHugoSitemaps(t *testing.T) {
	hugo, version := testtool.Hugo(t)
	if version != testtool.HugoVersion {
		testtool.Missing(t, "hugo at %s is %s; the inputs were generated with %s", hugo, version, testtool.HugoVersion)
	}
	src := t.TempDir()
	testtool.CopyTree(t, "testdata/hugo-multilingual", src)
	build := func(flags ...string) string {
		out := t.TempDir()
		cmd := exec.Command(hugo, append([]string{"--source", src, "--destination", out, "--quiet"}, flags...)...)
		cmd.Env = append(os.Environ(), "TZ=UTC")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hugo %v: %v\n%s", flags, err, b)
		}
		return out
	}
	out := build()
	for _, f := range []struct{ built, input string }{
		{"sitemap.xml", "hugo-index.input.xml"},
		{"en/sitemap.xml", "hugo-en.input.xml"},
		{"fr/sitemap.xml", "hugo-fr.input.xml"},
		{"de/sitemap.xml", "hugo-de.input.xml"},
	} {
		compareBuilt(t, filepath.Join(out, f.built), f.input)
	}
	out = build("--minify")
	compareBuilt(t, filepath.Join(out, "sitemap.xml"), "hugo-minify-index.input.xml")
	compareBuilt(t, filepath.Join(out, "en/sitemap.xml"), "hugo-minify-en.input.xml")
}

// TestJekyllSitemap builds testdata/jekyll-sitemap with Jekyll and jekyll-sitemap.
func TestJekyllSitemap(t *testing.T) {
	jekyll := testtool.Jekyll(t)
	if err := exec.Command("ruby", "-e", `require "jekyll"; require "jekyll-sitemap"`).Run(); err != nil {
		testtool.Missing(t, "the jekyll-sitemap plugin is not installed: apt-get install ruby-jekyll-sitemap (as .ci/run does)")
	}
	src, out := t.TempDir(), t.TempDir()
	testtool.CopyTree(t, "testdata/jekyll-sitemap", src)
	// jekyll-sitemap dates a static file by its modification time.
	mod := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(src, "docs", "guide.pdf"), mod, mod); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jekyll, "build", "--quiet", "--source", src, "--destination", out)
	cmd.Env = append(os.Environ(), "TZ=UTC", "JEKYLL_ENV=production")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jekyll build: %v\n%s", err, b)
	}
	compareBuilt(t, filepath.Join(out, "sitemap.xml"), "jekyll.input.xml")
}

// compareBuilt checks a file the generator built against its committed copy in testdata.
func compareBuilt(t *testing.T, built, input string) {
	t.Helper()
	got, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", input), got)
}
