package watch_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/watch"
)

var (
	latencyPages = flag.Int("watch.pages", 10000, "pages of the synthetic site BenchmarkLatency writes")
	latencySite  = flag.String("watch.site", "", "a synthetic site written before (go run ./sample-site/gen -C DIR -synthetic N) for BenchmarkLatency to use instead of writing one")
)

// latencySample is how many pages the benchmark edits in turn.
const latencySample = 200

// BenchmarkLatency measures `robotsmith watch` on a synthetic Hugo-layout site written by the
// sample site's stand-in generator: the time from a generator's write of one page to robotsmith's
// own write of that page, fixed, less the debounce (watch.DefaultQuiet), which SPEC §8's debounce
// makes on purpose. Each iteration rewrites one output page in place as Hugo does (truncate,
// write, close; the generator's page, without robotsmith's block), and then, as robotsmith watch
// does, waits for the batch, gives it to pipeline.Live and stops the clock when Live has written
// the page. It reports the median and the 95th percentile (ms-median, ms-p95), and the same up to
// the watcher's delivery of the batch alone (watch-ms-median, watch-ms-p95).
//
//   - page: the generator rewrote the page alone (a template edit, hugo server rendering a page a
//     browser asked for): the page alone is processed.
//   - front-matter: a source was edited too, in the same batch (an author's edit, and the page the
//     generator wrote for it): the site is mapped again before the page is processed (site.Remap:
//     the edited source read again, the other sources' readings kept).
//
// The figures of docs/internals/performance.md, "Watch mode" (50 edits on a 10,000-page site; the
// site is written once, first):
//
//	go run ./sample-site/gen -C /tmp/latency -synthetic 10000 -seed 1
//	go test ./watch -run '^$' -bench Latency -benchtime 50x -watch.site /tmp/latency
//
// and a quick check that it works: go test ./watch -run '^$' -bench Latency -benchtime 5x -watch.pages 300
func BenchmarkLatency(b *testing.B) {
	site := *latencySite
	if site == "" {
		site = b.TempDir()
		if err := standin.Synthetic(site, *latencyPages, 1); err != nil {
			b.Fatal(err)
		}
	}
	// The generator's output, afresh: the pages as the generator writes them.
	if err := standin.Generate(site); err != nil {
		b.Fatal(err)
	}
	public := filepath.Join(site, "public")
	var pages, sources []string
	filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "index.html" {
			pages = append(pages, p)
		}
		return nil
	})
	filepath.WalkDir(filepath.Join(site, "content"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			sources = append(sources, p)
		}
		return nil
	})
	if len(pages) < latencySample || len(sources) == 0 {
		b.Fatalf("the synthetic site has %d pages and %d sources", len(pages), len(sources))
	}
	// The pages edited, as the generator wrote them (before robotsmith's first pass fixes them):
	// candidates spread over the site (7919 is prime), of which the first pass rewrote, so that
	// robotsmith rewrites each again when the generator does (not a redirect stub, say).
	candidates := map[string][]byte{}
	for i := range min(4*latencySample, len(pages)) {
		p := pages[(i*7919)%len(pages)]
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		candidates[p] = data
	}

	ctx := context.Background()
	own := watch.NewOwn()
	l, err := pipeline.NewLive(ctx, pipeline.Options{Root: site}, own)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	first := l.Build(ctx)
	if len(first.Errs) > 0 {
		b.Fatal(first.Errs)
	}
	b.Logf("first pass over %d pages: %v", len(pages), time.Since(start).Round(time.Millisecond))
	var sample []string
	var orig [][]byte
	for i := range min(4*latencySample, len(pages)) {
		p := pages[(i*7919)%len(pages)]
		rel, _ := filepath.Rel(public, p)
		if _, ok := slices.BinarySearch(first.Wrote, filepath.ToSlash(rel)); ok && len(sample) < latencySample && candidates[p] != nil {
			sample, orig = append(sample, p), append(orig, candidates[p])
			candidates[p] = nil
		}
	}
	if len(sample) < latencySample/2 {
		b.Fatalf("only %d pages to edit", len(sample))
	}
	roots, skip := l.Watch()
	w, err := watch.New(watch.Options{Roots: roots, Skip: skip, Own: own})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()

	edit := 0
	for _, frontMatter := range []bool{false, true} {
		name := "page"
		if frontMatter {
			name = "front-matter"
		}
		b.Run(name, func(b *testing.B) {
			var lat, delivery []time.Duration
			for b.Loop() {
				k := edit % len(sample)
				edit++
				p := sample[k]
				rel, _ := filepath.Rel(public, p)
				if frontMatter {
					// An edit of a page's body: the site is mapped again, no decision changes.
					src := sources[(edit*104729)%len(sources)]
					f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					fmt.Fprintf(f, "\nedit %d\n", edit)
					f.Close()
				}
				// Hugo's publisher: os.Create (truncate in place), write, close.
				f, err := os.Create(p)
				if err != nil {
					b.Fatal(err)
				}
				_, err = fmt.Fprintf(f, "%s<!-- edit %d -->\n", orig[k], edit)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					b.Fatal(err)
				}
				wrote := time.Now()
				retry := false
				for done := false; !done; {
					// As robotsmith watch: files left for later (the generator was writing) go
					// again once the folders are quiet. The bound only keeps a broken run from
					// hanging.
					limit := 30 * time.Second
					if retry {
						limit = watch.DefaultQuiet
					}
					next, cancel := context.WithTimeout(ctx, limit)
					batch, err := w.Next(next)
					cancel()
					if err != nil && !(retry && errors.Is(err, context.DeadlineExceeded)) {
						b.Fatalf("edit %d of %s: %v", edit, rel, err)
					}
					got := time.Now()
					u := l.Apply(ctx, batch)
					if len(u.Errs) > 0 {
						b.Fatal(u.Errs)
					}
					retry = u.Retry
					if slices.Contains(u.Wrote, filepath.ToSlash(rel)) {
						done = true
						lat = append(lat, time.Since(wrote)-watch.DefaultQuiet)
						delivery = append(delivery, got.Sub(wrote)-watch.DefaultQuiet)
					}
				}
			}
			report(b, lat, "ms")
			report(b, delivery, "watch-ms")
		})
	}
}

// report reports the median and the 95th percentile of ds, in milliseconds.
func report(b *testing.B, ds []time.Duration, unit string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(ds[len(ds)/2]), unit+"-median")
	b.ReportMetric(ms(ds[(len(ds)*95+99)/100-1]), unit+"-p95")
}
