package plan

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// sample copies the sample site's sources to a temporary folder, generates its output, and reads
// its plan; files are the output's files, sorted by path, each located.
func sample(t *testing.T) (p *Plan, files []Record) {
	t.Helper()
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("..", "sample-site"), dir, "public", "gen", "standin")
	if err := standin.Generate(dir); err != nil {
		t.Fatal(err)
	}
	p, err := Open(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = p.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	err = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, path)
		files = append(files, NewRecord("/"+filepath.ToSlash(rel), false))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(files, func(a, b Record) int { return strings.Compare(a.path, b.path) })
	p.Locate(files)
	return p, files
}

// TestLetPagesGo checks that once a run has let the site's map go, every output file of the sample
// site takes its decision from the page the map gives it: the same source, compiled directives,
// kinds and language, and none for an alias stub or a file of no page.
func TestLetPagesGo(t *testing.T) {
	p, files := sample(t)
	want := make([]*pageInfo, len(files))
	sourced, none := 0, 0
	for i := range files {
		if o := p.pages.Owner(files[i].Rel()); o.Page != nil && o.Role != site.RoleAlias {
			want[i] = &p.info[o.Index]
			if want[i].source != o.Page.Source {
				t.Fatalf("%s: page %d has source %q in the plan, %q in the map", files[i].Rel(), o.Index, want[i].source, o.Page.Source)
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
	lean, out := p.LetPagesGo()
	if lean.pages != nil {
		t.Fatal("the map is still kept")
	}
	if p.pages == nil {
		t.Fatal("letting the pages go changed the plan it was asked of")
	}
	again := slices.Clone(files)
	for i := range again {
		again[i].page = 0
	}
	out.Locate(again)
	for i := range again {
		got := lean.pageOf(&again[i])
		if (got == nil) != (want[i] == nil) || got != nil && *got != *want[i] {
			t.Errorf("%s: page %+v, want %+v", again[i].Rel(), got, want[i])
		}
	}
}

// TestPlanNeverChanges: nothing that uses a plan changes it: applying it to every file of the
// sample site, letting its pages go, remapping it (a new plan) and asking what the new one decides
// otherwise leave its pages, their compiled sources (with their problems) and its tables as they
// were.
func TestPlanNeverChanges(t *testing.T) {
	p, files := sample(t)
	// What the plan holds: its values, compared whole, and the objects it shares with other
	// plans or keeps as caches (the site's readings, the rules' memo), compared by identity.
	type snapshot struct {
		info                   []pageInfo
		sources                []Source
		kls                    []kindLang
		warnings, pageWarnings []problem.Problem
		urls                   string
		shared                 [8]any
	}
	take := func() snapshot {
		s := snapshot{info: slices.Clone(p.info), kls: slices.Clone(p.kindLangs),
			warnings: slices.Clone(p.warnings), pageWarnings: slices.Clone(p.pageWarnings), urls: fmt.Sprint(p.urls),
			shared: [8]any{p.cfg, p.site, p.res, p.memo, p.compiler, p.env, p.aiMeta, p.pages}}
		for _, pi := range p.info {
			if pi.src != nil {
				s.sources = append(s.sources, *pi.src)
			}
		}
		return s
	}
	before := take()
	var a Applier
	for i := range files {
		var src []byte
		if files[i].Opened() {
			var err error
			if src, err = os.ReadFile(filepath.Join(p.site.Output, filepath.FromSlash(files[i].Rel()))); err != nil {
				t.Fatal(err)
			}
		}
		if r := a.Apply(p, &files[i], src, files); r.Err != nil {
			t.Fatal(r.Err)
		}
		p.SourceProblems(files[i : i+1])
		p.NoindexSource(&files[i], "robots")
	}
	p.LetPagesGo()
	np, _, err := p.Remap(context.Background(), []string{p.site.Root})
	if err != nil {
		t.Fatal(err)
	}
	np.Changed(p, files)
	after := take()
	for i := range before.shared {
		if after.shared[i] != before.shared[i] {
			t.Errorf("the plan's %T is another", after.shared[i])
		}
	}
	before.shared, after.shared = [8]any{}, [8]any{}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("the plan changed:\nbefore %+v\nafter  %+v", before, after)
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
		pg := site.Page{Source: fmt.Sprintf("content/%d.md", i)}
		pg.SetClass("page", "en", r)
		m.Pages = append(m.Pages, pg)
	}
	o := (&Plan{pages: m}).Outputs()
	for i := range m.Pages {
		if got := o.noOutput(i); got != m.Pages[i].NoOutput() {
			t.Fatalf("page %d: noOutput %q, want %q", i, got, m.Pages[i].NoOutput())
		}
	}
}

func TestURLPath(t *testing.T) {
	tests := []struct{ rel, want string }{
		{"index.html", "/"},
		{"posts/a/index.html", "/posts/a/"},
		{"files/x.pdf", "/files/x.pdf"},
		{"404.html", "/404.html"},
		{"about.html", "/about.html"},
	}
	for _, tc := range tests {
		if got := URLPath(tc.rel); got != tc.want {
			t.Errorf("URLPath(%q): got %q, want %q", tc.rel, got, tc.want) // SPEC §2 "URL paths are as served"
		}
	}
}
