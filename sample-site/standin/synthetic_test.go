package standin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var draftRE = regexp.MustCompile(`(?m)^\s*"?draft"?\s*[:=]\s*true`)

// contentPages counts the content pages Synthetic wrote, and the drafts.
func contentPages(t *testing.T, dir string) (pages, drafts int) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || filepath.Base(p) == "_index.md" {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if draftRE.MatchString(string(data)) {
			drafts++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages, drafts
}

func TestSyntheticGenerate(t *testing.T) {
	for _, n := range []int{0, 1, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			if err := Synthetic(dir, n, 7); err != nil {
				t.Fatalf("Synthetic: %v", err)
			}
			pages, drafts := contentPages(t, dir)
			if pages != n {
				t.Errorf("content pages: got %d, want %d", pages, n)
			}
			if err := generate(dir, buildTime); err != nil {
				t.Fatalf("Generate: %v", err)
			}
			// Every non-draft page is written once: count the single pages.
			singles := 0
			formats := map[string]int{}
			for _, f := range outputFiles(t, dir) {
				if strings.HasSuffix(f, "index.html") && strings.Contains(readOut(t, dir, f), `<body class="single"`) {
					singles++
				}
			}
			if got, want := singles, pages-drafts; got != want {
				t.Errorf("single pages written: got %d, want %d (%d pages, %d drafts)", got, want, pages, drafts)
			}
			if n < 100 {
				return
			}
			if drafts == 0 {
				t.Error("no drafts among 100 pages")
			}
			_ = filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
					data, _ := os.ReadFile(p)
					formats[string(data[:3])]++
				}
				return nil
			})
			for _, open := range []string{"---", "+++", "{\n "} {
				if formats[open] == 0 {
					t.Errorf("no page with front matter opening %q; got %v", open, formats)
				}
			}
			for _, want := range []string{"docs/reference/index.html", "tags/index.html", "blog/page/1/index.html", "404.html", "sitemap.xml", "files/terms.pdf"} {
				if _, err := os.Stat(filepath.Join(dir, "public", want)); err != nil {
					t.Errorf("missing %s: %v", want, err)
				}
			}
			var pdfs, pngs int
			for _, f := range outputFiles(t, dir) {
				switch filepath.Ext(f) {
				case ".pdf":
					pdfs++
				case ".png":
					pngs++
				}
			}
			if pdfs < 2 || pngs < 2 {
				t.Errorf("bundle files: got %d PDFs and %d PNGs, want bundles beside the static ones", pdfs, pngs)
			}
		})
	}
}

func TestSyntheticDeterministic(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	for _, run := range []struct {
		dir  string
		seed int64
	}{{a, 3}, {b, 3}, {c, 4}} {
		if err := Synthetic(run.dir, 60, run.seed); err != nil {
			t.Fatal(err)
		}
	}
	read := func(dir string) string {
		var all strings.Builder
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				data, _ := os.ReadFile(p)
				fmt.Fprintf(&all, "%s\n%s\n", rel, data)
			}
			return nil
		})
		return all.String()
	}
	if read(a) != read(b) {
		t.Error("same seed: got different sites, want identical ones")
	}
	if read(a) == read(c) {
		t.Error("different seeds: got identical sites")
	}
}

func TestSyntheticRefusesExistingContent(t *testing.T) {
	dir := t.TempDir()
	if err := Synthetic(dir, 5, 1); err != nil {
		t.Fatal(err)
	}
	if err := Synthetic(dir, 5, 1); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second Synthetic: got %v, want fs.ErrExist", err)
	}
	if err := Synthetic(t.TempDir(), -1, 1); err == nil {
		t.Error("pages = -1: got nil error")
	}
}

func BenchmarkGenerate1000(b *testing.B) {
	dir := b.TempDir()
	if err := Synthetic(dir, 1000, 1); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := Generate(dir); err != nil {
			b.Fatal(err)
		}
	}
}
