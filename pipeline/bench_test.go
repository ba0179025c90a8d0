package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// BenchmarkCheck measures the whole check (read config and front matter, scan, decide and rewrite
// every page in memory) on a synthetic 2,000-page Hugo-layout site written by the sample site's
// stand-in generator. Run: go test -run '^$' -bench . -benchmem ./pipeline
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	if err := standin.Synthetic(dir, 2000, 1); err != nil {
		b.Fatal(err)
	}
	if err := standin.Generate(dir); err != nil {
		b.Fatal(err)
	}
	var size int64
	filepath.Walk(filepath.Join(dir, "public"), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			size += fi.Size()
		}
		return nil
	})
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := Run(context.Background(), Options{Root: dir})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Pages < 2000 {
			b.Fatalf("pages: got %d, want at least 2000", rep.Pages)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2000/1e3, "µs/page")
}

// BenchmarkManyAgents measures a check of a site whose one page's front matter, or whose config's
// one rule, names n distinct agents (SPEC §10: a front matter naming 100,000 agents is read in
// seconds and tens of MiB, or refused with a clear limit): up to rules.MaxAgents each name is
// checked against the crawler catalogue for a typo and the page gets a tag for each; beyond it the
// check fails, naming the limit. Run: go test -run '^$' -bench ManyAgents -benchmem ./pipeline
func BenchmarkManyAgents(b *testing.B) {
	// Names far from every crawler token, short enough for a config of 45,000 under its 1 MiB cap.
	agents := func(n int, indent string) string {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "%sx%06d: noindex\n", indent, i)
		}
		return sb.String()
	}
	plain := "---\ntitle: A\n---\nA\n"
	for _, tc := range []struct {
		desc         string
		page, config string
		refused      bool
	}{
		{"front matter, 10,000 agents", "---\ntitle: A\nrobots:\n" + agents(rules.MaxAgents, "  ") + "---\nA\n", "", false},
		{"front matter, 40,000 agents", "---\ntitle: A\nrobots:\n" + agents(40000, "  ") + "---\nA\n", "", true},
		{"front matter, 100,000 agents", "---\ntitle: A\nrobots:\n" + agents(100000, "  ") + "---\nA\n", "", true},
		{"config, 10,000 agents", plain, "rules:\n  - path: /posts/a/\n" + agents(rules.MaxAgents, "    "), false},
		{"config, 45,000 agents", plain, "rules:\n  - path: /posts/a/\n" + agents(45000, "    "), true},
	} {
		b.Run(tc.desc, func(b *testing.B) {
			dir := b.TempDir()
			writeTree(b, dir, map[string]string{
				"hugo.toml":          "baseURL = \"https://example.org/\"\ntitle = \"t\"\n",
				"content/posts/a.md": plain,
				"content/posts/b.md": "---\ntitle: B\n---\nB\n",
				"robotsmith.yaml":    tc.config,
			})
			if err := standin.Generate(dir); err != nil {
				b.Fatal(err)
			}
			// Written after the generator, whose front matter reader is not robotsmith's.
			writeTree(b, dir, map[string]string{"content/posts/a.md": tc.page})
			b.ReportAllocs()
			for b.Loop() {
				rep, err := Run(context.Background(), Options{Root: dir})
				switch {
				case tc.refused && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d agent names", rules.MaxAgents))):
					b.Fatalf("got %v, want the limit", err)
				case !tc.refused && err != nil:
					b.Fatal(err)
				case !tc.refused && rep.Pages < 2:
					b.Fatalf("pages: got %d, want at least 2", rep.Pages)
				}
			}
		})
	}
}

// BenchmarkCheckRecord measures check --record against check alone on the synthetic 2,000-page
// site of BenchmarkCheck: what writing the indexability record in the same run costs in time and
// allocations. Run: go test -run '^$' -bench CheckRecord -benchmem ./pipeline
func BenchmarkCheckRecord(b *testing.B) {
	dir := b.TempDir()
	if err := standin.Synthetic(dir, 2000, 1); err != nil {
		b.Fatal(err)
	}
	if err := standin.Generate(dir); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		desc   string
		record bool
	}{{"check", false}, {"check --record", true}} {
		b.Run(tc.desc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opt := Options{Root: dir}
				var n countWriter
				if tc.record {
					opt.Record = &n
				}
				if _, err := Run(context.Background(), opt); err != nil {
					b.Fatal(err)
				}
				if tc.record {
					b.ReportMetric(float64(n), "record-bytes")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2000/1e3, "µs/page")
		})
	}
}

type countWriter int64

func (w *countWriter) Write(p []byte) (int, error) { *w += countWriter(len(p)); return len(p), nil }

// BenchmarkRecordOrder measures the one sort writing the record adds to a run: the files' indexes
// in URL order, for a site of 100,000 output files (a page and a file in each of 50,000 folders,
// which the walk lists by path: /a/b.pdf before /a/index.html, served at /a/).
// Run: go test -run '^$' -bench RecordOrder -benchmem ./pipeline
func BenchmarkRecordOrder(b *testing.B) {
	files := make([]plan.Record, 0, 100000)
	for i := range 50000 {
		dir := fmt.Sprintf("/section-%02d/page-%06d/", i%50, i)
		files = append(files, plan.NewRecord(dir+"cover.pdf", false), plan.NewRecord(dir+"index.html", false))
	}
	slices.SortFunc(files, func(a, b plan.Record) int { return strings.Compare(a.Path(), b.Path()) })
	b.ReportAllocs()
	for b.Loop() {
		if o := urlOrder(files); len(o) != len(files) {
			b.Fatal(len(o))
		}
	}
}
