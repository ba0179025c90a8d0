package site

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// jekyllBin finds Jekyll: $JEKYLL, else jekyll on PATH; the test skips without it.
func jekyllBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("JEKYLL"); p != "" {
		return p
	}
	p, err := exec.LookPath("jekyll")
	if err != nil {
		testtool.Missing(t, "jekyll not found: install it with `apt-get install jekyll` (as .ci/run does) or set $JEKYLL")
	}
	return p
}

type jekyllTruth struct {
	Source  string `json:"source"`
	Dest    string `json:"dest"`
	Entries []struct {
		Source *string `json:"source"`
		Dest   *string `json:"dest"`
		Kind   string  `json:"kind"`
		Twin   *string `json:"twin"`
	} `json:"entries"`
}

// TestJekyllIntegration builds every fixture in testdata/jekyll with the real Jekyll, whose truth
// plugin records each page's and document's source and destination, and checks that our mapping
// gives the same output file for every rendered page, and no output where Jekyll wrote none.
func TestJekyllIntegration(t *testing.T) {
	bin := jekyllBin(t)
	fixtures, err := os.ReadDir("testdata/jekyll")
	if err != nil {
		t.Fatal(err)
	}
	truthPlugin, err := os.ReadFile("testdata/jekyll/truth.rb")
	if err != nil {
		t.Fatal(err)
	}
	var totalPages, totalMapped int
	for _, fx := range fixtures {
		if !fx.IsDir() {
			continue
		}
		t.Run(fx.Name(), func(t *testing.T) {
			if fx.Name() == "paginate" {
				if err := exec.Command("ruby", "-e", `require "jekyll"; require "jekyll-paginate"`).Run(); err != nil {
					testtool.Missing(t, "the jekyll-paginate plugin is not installed: apt-get install ruby-jekyll-paginate")
				}
			}
			root := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata/jekyll", fx.Name()), root)
			if err := os.MkdirAll(filepath.Join(root, "_plugins"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "_plugins", "truth.rb"), truthPlugin, 0o644); err != nil {
				t.Fatal(err)
			}
			truthFile := filepath.Join(t.TempDir(), "truth.json")
			// Run from the root without -s/-d so that _config.yml's source and destination count.
			cmd := exec.Command(bin, "build", "--quiet")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true", "ROBOTSMITH_TRUTH="+truthFile)
			now := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("jekyll build: %v\n%s", err, out)
			}
			b, err := os.ReadFile(truthFile)
			if err != nil {
				t.Fatalf("truth plugin wrote nothing: %v", err)
			}
			var truth jekyllTruth
			if err := json.Unmarshal(b, &truth); err != nil {
				t.Fatal(err)
			}

			s, err := Open(root, Options{Now: now, Env: func(k string) string { return os.Getenv(k) }})
			if err != nil {
				t.Fatal(err)
			}
			if s.Generator != Jekyll {
				t.Fatalf("Generator = %q, want jekyll", s.Generator)
			}
			if got, want := filepath.Clean(s.Output), filepath.Clean(truth.Dest); got != want {
				t.Errorf("Output folder = %s, want %s", got, want)
			}
			m, err := s.Map()
			if err != nil {
				t.Fatalf("Map: %v", err)
			}
			pages := m.Pages
			ours := map[string]Page{}
			for _, p := range pages {
				ours[p.Source] = p
			}
			// Jekyll's real paths may differ from the temp root through symlinks (/tmp).
			realRoot, _ := filepath.EvalSymlinks(root)
			rel := func(base, p string) string {
				r, err := filepath.Rel(base, p)
				if err != nil {
					t.Fatal(err)
				}
				return filepath.ToSlash(r)
			}
			pagesN, mapped, pagers, twins := 0, 0, 0, 0
			unmapped := map[string]int{}
			written := map[string]bool{}
			for _, e := range truth.Entries {
				if e.Source == nil {
					continue // a page that no file made (plugins); none in these fixtures
				}
				if _, ok := sourceOf(realSources(s), realPath(*e.Source)); !ok {
					t.Errorf("jekyll read %s, under none of Sources() = %v", *e.Source, srcPaths(s.Sources()))
				}
				src := rel(realRoot, *e.Source)
				if e.Dest == nil {
					if p, ok := ours[src]; ok && p.Output != "" && p.NoOutput() == "" {
						t.Errorf("%s: Output = %q, want none (Jekyll writes nothing)", src, p.Output)
					}
					continue
				}
				dest := rel(filepath.Clean(truth.Dest), *e.Dest)
				if e.Kind == "pager" {
					// A jekyll-paginate page N >= 2, a copy of the list page src: PagerParent must
					// name the URL of the page src is.
					pagers++
					u := "/" + strings.TrimSuffix(dest, "index.html")
					got, ok := pagerParent(t, s, u)
					if p, found := ours[src]; !found || !ok || got != p.URL {
						t.Errorf("PagerParent(%q) = %q, %v; want %q, the URL of %s", u, got, ok, p.URL, src)
					}
					continue
				}
				written[src] = true
				pagesN++
				if e.Twin != nil {
					// The Markdown the fixture's plugin published beside the page is the page's.
					twin := strings.TrimPrefix(*e.Twin, "/")
					if _, err := os.Stat(filepath.Join(truth.Dest, twin)); err != nil {
						t.Errorf("%s: the plugin wrote no twin %s: %v", src, twin, err)
					}
					if o := m.Owner(twin); o.Role != RoleFormat || o.Page.Source != src || m.page(uint32(o.Index)) != o.Page {
						t.Errorf("%s: Owner(%q) = %s of %v (index %d), want output format of %s", src, twin, o.Role, o.Page, o.Index, src)
					}
					twins++
				}
				p, ok := ours[src]
				switch {
				case !ok:
					unmapped["not found by robotsmith"]++
					t.Errorf("%s: Jekyll writes %s, robotsmith has no page", src, dest)
				case p.Output == "":
					unmapped["NoOutput: "+p.NoOutput()]++
					t.Errorf("%s: NoOutput = %q, but Jekyll writes %s", src, p.NoOutput(), dest)
				case p.Output != dest:
					unmapped["wrong output"]++
					t.Errorf("%s: Output = %q, want %q", src, p.Output, dest)
				default:
					mapped++
				}
			}
			for _, p := range pages {
				if p.Output != "" && p.NoOutput() == "" && !written[p.Source] {
					t.Errorf("%s: Output = %q, but Jekyll writes nothing for it", p.Source, p.Output)
				}
			}
			var reasons []string
			for r, n := range unmapped {
				reasons = append(reasons, r+": "+strconv.Itoa(n))
			}
			sort.Strings(reasons)
			noOut := 0
			for _, p := range pages {
				if p.NoOutput() != "" {
					noOut++
				}
			}
			t.Logf("%s: pages %d, mapped %d, unmapped %d [%s]; source pages without output %d; pagers %d; markdown twins %d",
				fx.Name(), pagesN, mapped, pagesN-mapped, strings.Join(reasons, ", "), noOut, pagers, twins)
			totalPages += pagesN
			totalMapped += mapped
		})
	}
	t.Logf("all fixtures: pages %d, mapped %d, unmapped %d", totalPages, totalMapped, totalPages-totalMapped)
}
