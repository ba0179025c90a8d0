package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/testsupport/testtool"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/site"
)

// prepareWalk prepares a job (closed when the test ends) and lists its output.
func prepareWalk(t *testing.T, opt Options) (*job, []record) {
	t.Helper()
	j, err := prepare(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.close() })
	files, _, err := j.walk()
	if err != nil {
		t.Fatal(err)
	}
	return j, files
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
	j, first := prepareWalk(t, Options{Root: dir, Write: true})
	for _, f := range first {
		if !f.html() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(j.site.Output, filepath.FromSlash(f.rel())))
		if err != nil {
			t.Fatal(err)
		}
		var same bytes.Buffer
		if err := rewrite.Rewrite(&same, bytes.NewReader(src), rules.Directives{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(same.Bytes(), src) {
			t.Errorf("%s: empty directives changed the page", f.rel())
		}
	}
	b := j.process(ctx, first)
	if errs := b.errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, _, err := j.commit(ctx); err != nil {
		t.Fatal(err)
	}

	j2, err := prepare(ctx, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.close()
	second, _, err := j2.walk()
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != len(first) {
		t.Fatalf("second pass: %d files, want %d", len(second), len(first))
	}
	j2.process(ctx, second)
	pages := 0
	for i := range second {
		f, g := &first[i], &second[i]
		if f.path != g.path {
			t.Fatalf("second pass: file %d is %s, want %s", i, g.path, f.path)
		}
		if g.changed() {
			t.Errorf("%s: the second pass changes it again", g.rel())
		}
		if !f.html() || f.skipped() {
			continue
		}
		pages++
		if got, want := g.verdict.Directives, f.verdict.Directives; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: second decision %+v, first %+v", g.rel(), got, want)
		}
		if f.verdict.Class == rules.Public {
			out, err := os.ReadFile(filepath.Join(j.site.Output, filepath.FromSlash(f.rel())))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(out, []byte(`<meta name="googlebot"`)) {
				t.Errorf("%s: public page without a googlebot tag", f.rel())
			}
		}
	}
	if pages < 40 {
		t.Errorf("checked %d pages, want the sample site's 40 or more", pages)
	}
}

// TestLetPagesGo checks that once Run has let the site's map go, every output file of the sample
// site takes its decision from the page the map gives it: the same source, compiled directives,
// kinds and language, and none for an alias stub or a file of no page.
func TestLetPagesGo(t *testing.T) {
	j, files := prepareWalk(t, Options{Root: sampleCopy(t)})
	want := make([]*pageInfo, len(files))
	sourced, none := 0, 0
	for i := range files {
		if o := j.pages.Owner(files[i].rel()); o.Page != nil && o.Role != site.RoleAlias {
			want[i] = &j.info[o.Index]
			if want[i].source != o.Page.Source {
				t.Fatalf("%s: page %d has source %q in the run, %q in the map", files[i].rel(), o.Index, want[i].source, o.Page.Source)
			}
		}
		switch {
		case want[i] == nil:
			none++
		case want[i].source != "":
			sourced++
		}
	}
	if sourced == 0 || none == 0 {
		t.Fatalf("%d files of a source page, %d of none: the sample site should have both", sourced, none)
	}
	out := j.letPagesGo()
	if j.pages != nil {
		t.Fatal("the map is still kept")
	}
	out.givePages(files)
	for i := range files {
		got := j.pageOf(&files[i])
		if (got == nil) != (want[i] == nil) || got != nil && *got != *want[i] {
			t.Errorf("%s: page %+v, want %+v", files[i].rel(), got, want[i])
		}
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
	for _, f := range rep.Findings {
		if strings.Contains(f, "no output found") {
			missing = append(missing, f)
		}
	}
	if want := []string{"content/blog/hello-world.md: no output found (expected " + filepath.Join(dir, "public", "blog", "hello-world", "index.html") + ")"}; !slices.Equal(missing, want) {
		t.Errorf("findings of missing output %q, want %q", missing, want)
	}
}

// TestOutputsReasons: what a run keeps of why a page has no output is every page's own reason,
// however many pages share one and however many distinct reasons there are.
func TestOutputsReasons(t *testing.T) {
	m := &site.Map{}
	for i := range 1000 {
		r := ""
		switch {
		case i%3 == 0:
			r = "future"
		case i%3 == 1:
			r = fmt.Sprintf("reason %d", i) // 333 distinct: past what one byte indexes
		}
		p := site.Page{Source: fmt.Sprintf("content/%d.md", i)}
		p.SetClass("page", "en", r)
		m.Pages = append(m.Pages, p)
	}
	o := outputsOf(m)
	for i := range m.Pages {
		if got := o.noOutput(i); got != m.Pages[i].NoOutput() {
			t.Fatalf("page %d: noOutput %q, want %q", i, got, m.Pages[i].NoOutput())
		}
	}
}
