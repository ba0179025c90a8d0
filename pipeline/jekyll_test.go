package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// jekyllBuild builds the Jekyll site at dir (its own _config.yml, plugins from the system's gems,
// as Debian packages them) into dir/_site.
func jekyllBuild(t *testing.T, dir string) {
	t.Helper()
	jekyll := testtool.Jekyll(t)
	if err := exec.Command("ruby", "-e", `require "jekyll"; require "jekyll-sitemap"`).Run(); err != nil {
		testtool.Missing(t, "the jekyll-sitemap plugin is not installed: apt-get install ruby-jekyll-sitemap (as .ci/run does)")
	}
	cmd := exec.Command(jekyll, "build", "--quiet")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true", "JEKYLL_ENV=production", "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jekyll build: %v\n%s", err, out)
	}
}

// TestErrorPageInSitemap: an error page never belongs in a sitemap. testdata/jekyll-404 is laid
// out like just-the-docs: its error page is 404.html with permalink: /404. Jekyll writes it to
// _site/404.html, and jekyll-sitemap 1.4.0, which leaves out only a page whose URL is
// "/404.html", lists it as <loc>https://example.org/404</loc>, with or without robots: noindex in
// its front matter (an error page gets no robots tag, so the noindex never shows). `sitemap:
// prune` leaves the entry out, and error_pages written as the URL a host serves it at (/404)
// name the page as well as /404.html does; with `sitemap: keep` the entry is a finding.
func TestErrorPageInSitemap(t *testing.T) {
	tests := []struct {
		desc    string
		robots  bool   // robots: noindex in 404.html's front matter
		config  string // robotsmith.yaml
		pruned  bool   // build leaves the entry out
		finding string // what check reports after the sitemap's name and the entry's line
	}{
		{desc: "prune", pruned: true},
		{desc: "prune, the page noindex in its own front matter", robots: true, pruned: true},
		{desc: "prune, error_pages as the URL served", config: "error_pages: [/404]\n", pruned: true},
		{desc: "keep", config: "sitemap: keep\n",
			finding: ": sitemap lists https://example.org/404, which is an error page (error_pages: /404.html); with `sitemap: keep` robotsmith leaves it there"},
		{desc: "keep, the page noindex in its own front matter", robots: true, config: "sitemap: keep\nerror_pages: [/404]\n",
			finding: ": sitemap lists https://example.org/404, which is an error page (error_pages: /404); with `sitemap: keep` robotsmith leaves it there"},
	}
	built := map[bool]string{} // a Jekyll build for each front matter, kept for the later cases
	top := t
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if built[tc.robots] == "" {
				src := top.TempDir()
				testtool.CopyTree(t, filepath.Join("testdata", "jekyll-404"), src)
				if tc.robots {
					b, err := os.ReadFile(filepath.Join(src, "404.html"))
					if err != nil {
						t.Fatal(err)
					}
					b = []byte(strings.Replace(string(b), "permalink: /404\n", "permalink: /404\nrobots: noindex\n", 1))
					writeTree(t, src, map[string]string{"404.html": string(b)})
				}
				jekyllBuild(t, src)
				built[tc.robots] = src
			}
			dir := t.TempDir()
			testtool.CopyTree(t, built[tc.robots], dir)
			if tc.config != "" {
				writeTree(t, dir, map[string]string{"robotsmith.yaml": tc.config})
			}
			sitemap := filepath.Join(dir, "_site", "sitemap.xml")
			before, err := os.ReadFile(sitemap)
			if err != nil {
				t.Fatal(err)
			}
			const loc = "<loc>https://example.org/404</loc>"
			i := strings.Index(string(before), loc)
			if i < 0 {
				t.Fatalf("jekyll-sitemap no longer lists the error page; the test's premise is gone:\n%s", before)
			}
			line := strings.Count(string(before[:i]), "\n") + 1

			rep, err := Run(context.Background(), Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			var found []string
			for _, f := range texts(rep.Findings) {
				if strings.Contains(f, "/404") {
					found = append(found, f)
				}
			}
			if tc.finding == "" && len(found) > 0 {
				t.Errorf("check: findings %q, want none about /404", found)
			}
			if want := filepath.Join(dir, "_site", "sitemap.xml") + ":" + strconv.Itoa(line) + tc.finding; tc.finding != "" && (len(found) != 1 || found[0] != want) {
				t.Errorf("check: findings about /404\ngot  %q\nwant %q", found, want)
			}

			if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(sitemap)
			if err != nil {
				t.Fatal(err)
			}
			if got := !strings.Contains(string(after), loc); got != tc.pruned {
				t.Errorf("after build, the entry left out: got %v, want %v:\n%s", got, tc.pruned, after)
			}
			if !strings.Contains(string(after), "<loc>https://example.org/docs/guide.html</loc>") || !strings.Contains(string(after), "<loc>https://example.org/</loc>") {
				t.Errorf("after build, the pages' entries are gone:\n%s", after)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "_site", "404.html")); strings.Contains(string(b), `name="robots"`) {
				t.Errorf("the error page got a robots tag:\n%s", b)
			}
		})
	}
}
