package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// prepareWalk opens the output (closed when the test ends), reads the plan and lists the output: a
// pass over every file, as Explain makes one.
func prepareWalk(t *testing.T, opt Options) *pass {
	t.Helper()
	ctx := context.Background()
	p, out, err := open(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.close() })
	if p, err = p.Read(ctx); err != nil {
		t.Fatal(err)
	}
	files, _, err := out.walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.Locate(files)
	return &pass{p: p, out: out, files: files, links: plan.NewLinks()}
}

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

// TestSampleSiteInvariants checks STYLE 19's invariants over every page of the sample site, through
// the step every command uses: empty directives give byte-identical output, and processing the
// processed site again changes no file and decides every file as the first pass did.
func TestSampleSiteInvariants(t *testing.T) {
	dir := sampleCopy(t)
	ctx := context.Background()
	ps := prepareWalk(t, Options{Root: dir, Write: true})
	first := ps.files
	for _, f := range first {
		if !f.HTML() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(ps.out.name, filepath.FromSlash(f.Rel())))
		if err != nil {
			t.Fatal(err)
		}
		var same bytes.Buffer
		if err := rewrite.Rewrite(&same, bytes.NewReader(src), rules.Directives{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(same.Bytes(), src) {
			t.Errorf("%s: empty directives changed the page", f.Rel())
		}
	}
	b := ps.process(ctx, first)
	if errs := b.errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, _, err := ps.out.commit(ctx); err != nil {
		t.Fatal(err)
	}

	ps2 := prepareWalk(t, Options{Root: dir})
	second := ps2.files
	if len(second) != len(first) {
		t.Fatalf("second pass: %d files, want %d", len(second), len(first))
	}
	ps2.process(ctx, second)
	pages := 0
	for i := range second {
		f, g := &first[i], &second[i]
		if f.Path() != g.Path() {
			t.Fatalf("second pass: file %d is %s, want %s", i, g.Path(), f.Path())
		}
		if g.Changed() {
			t.Errorf("%s: the second pass changes it again", g.Rel())
		}
		if !f.HTML() || f.Skipped() {
			continue
		}
		pages++
		if got, want := g.Verdict().Directives, f.Verdict().Directives; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: second decision %+v, first %+v", g.Rel(), got, want)
		}
		if f.Verdict().Class == rules.Public {
			out, err := os.ReadFile(filepath.Join(ps.out.name, filepath.FromSlash(f.Rel())))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(out, []byte(`<meta name="googlebot"`)) {
				t.Errorf("%s: public page without a googlebot tag", f.Rel())
			}
		}
	}
	if pages < 40 {
		t.Errorf("checked %d pages, want the sample site's 40 or more", pages)
	}
}

// TestSourceReport checks what the run says of the source pages whose output is not in the
// output folder, once it has let the site's map go before listing the folder: a draft the
// generator did not write is not published, with its reason; a published page whose file is gone
// is a finding that names the file expected; every other page is neither.
func TestSourceReport(t *testing.T) {
	dir := sampleCopy(t)
	if err := os.Remove(filepath.Join(dir, "public", "blog", "hello-world", "index.html")); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"content/blog/work-in-progress.md (draft)"}; !slices.Equal(rep.Unpublished, want) || rep.NoOutput != 1 {
		t.Errorf("unpublished %d %q, want 1 %q", rep.NoOutput, rep.Unpublished, want)
	}
	var missing []string
	for _, f := range texts(rep.Findings) {
		if strings.Contains(f, "no output found") {
			missing = append(missing, f)
		}
	}
	if want := []string{"content/blog/hello-world.md: no output found (expected " + filepath.Join(dir, "public", "blog", "hello-world", "index.html") + ")"}; !slices.Equal(missing, want) {
		t.Errorf("findings of missing output %q, want %q", missing, want)
	}
}
