package watch

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

var latencyPages = flag.Int("watch.pages", 10000, "pages of the synthetic site BenchmarkLatency watches")

// BenchmarkLatency measures, on a synthetic Hugo-layout site written by the sample site's
// stand-in generator, the time from a generator's write of one page to the watcher's delivery of
// the batch that holds it, less the debounce (Options.Quiet): what robotsmith adds to the wait
// that SPEC §8's debounce makes on purpose. Each iteration rewrites one output page in place as
// Hugo does (truncate, write, close) and waits for its batch; it reports the median and the 95th
// percentile.
//
// The figure for the README (50 edits on a 10,000-page site):
//
//	go test ./watch -run '^$' -bench Latency -benchtime 50x
//
// and a quick check that it works: go test ./watch -run '^$' -bench Latency -benchtime 5x -watch.pages 500
//
// It measures the watcher alone. Once the pipeline's per-file step can process a batch, this
// benchmark must run it on each batch and take the time after robotsmith's own write of the page
// (SPEC §8 target: under 50 ms after the debounce).
func BenchmarkLatency(b *testing.B) {
	site := b.TempDir()
	if err := standin.Synthetic(site, *latencyPages, 1); err != nil {
		b.Fatal(err)
	}
	if err := standin.Generate(site); err != nil {
		b.Fatal(err)
	}
	public := filepath.Join(site, "public")
	var pages []string
	filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "index.html" {
			pages = append(pages, p)
		}
		return nil
	})
	if len(pages) < *latencyPages {
		b.Fatalf("the synthetic site has %d pages, want at least %d", len(pages), *latencyPages)
	}
	w, err := New(Options{Roots: []string{public, filepath.Join(site, "content"), filepath.Join(site, "hugo.toml")}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()

	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		p := pages[(i*7919)%len(pages)] // spread over the site; 7919 is prime
		content, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		content = fmt.Appendf(content, "<!-- edit %d -->\n", i)
		// Hugo's publisher: os.Create (truncate in place), write, close.
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(content); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		wrote := time.Now()
		for seen := false; !seen; {
			batch, err := w.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range batch.Changes {
				seen = seen || c.Path == p
			}
		}
		lat = append(lat, time.Since(wrote)-w.quiet)
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[(len(lat)*95+99)/100-1]), "ms-p95")
}
