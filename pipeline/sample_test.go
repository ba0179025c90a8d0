package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/testtool"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// sampleCopy copies the sample site's sources to a temporary folder and generates its output.
func sampleCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("..", "sample-site"), dir, "public", "gen", "standin")
	if err := standin.Generate(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSampleSiteInvariants checks STYLE 19's invariants over every page of the sample site: empty
// directives give byte-identical output, and rewriting with the page's decided directives twice gives
// what rewriting once gives.
func TestSampleSiteInvariants(t *testing.T) {
	dir := sampleCopy(t)
	j, err := prepare(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	files, err := j.walk()
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, f := range files {
		if !f.html {
			continue
		}
		src, err := os.ReadFile(filepath.Join(j.site.Output, filepath.FromSlash(f.rel)))
		if err != nil {
			t.Fatal(err)
		}
		var same bytes.Buffer
		if err := rewrite.Rewrite(&same, bytes.NewReader(src), rules.Directives{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(same.Bytes(), src) {
			t.Errorf("%s: empty directives changed the page", f.rel)
		}
		pg, err := rewrite.Scan(bytes.NewReader(src), j.agents)
		if err != nil {
			t.Fatal(err)
		}
		if !pg.HTML {
			continue
		}
		pages++
		d, _, err := j.res.Decide(j.item(f, pg))
		if err != nil {
			t.Fatalf("%s: %v", f.rel, err)
		}
		var once, twice bytes.Buffer
		if err := rewrite.Rewrite(&once, bytes.NewReader(src), d.Directives()); err != nil {
			t.Fatal(err)
		}
		// The second run decides again from the rewritten page, as a second build does.
		pg2, err := rewrite.Scan(bytes.NewReader(once.Bytes()), j.agents)
		if err != nil {
			t.Fatal(err)
		}
		d2, _, err := j.res.Decide(j.item(f, pg2))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := d2.Directives(), d.Directives(); !sameDirectives(got, want) {
			t.Errorf("%s: second decision %+v, first %+v", f.rel, got, want)
		}
		if err := rewrite.Rewrite(&twice, bytes.NewReader(once.Bytes()), d2.Directives()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Errorf("%s: rewriting twice differs from once", f.rel)
		}
		if d.Class == rules.Public && !strings.Contains(once.String(), `<meta name="googlebot"`) {
			t.Errorf("%s: public page without a googlebot tag", f.rel)
		}
	}
	if pages < 40 {
		t.Errorf("checked %d pages, want the sample site's 40 or more", pages)
	}
}

func sameDirectives(a, b rules.Directives) bool {
	if a.Clear != b.Clear || len(a.Tags) != len(b.Tags) {
		return false
	}
	for i := range a.Tags {
		if a.Tags[i] != b.Tags[i] {
			return false
		}
	}
	return true
}
