package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

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
