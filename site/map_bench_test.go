package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// BenchmarkMap10000 maps the sample site generator's synthetic Hugo site of 10,000 sources (YAML,
// TOML and JSON front matter, nested sections, cascades, about 250 MB of Markdown): reading every
// source's front matter and placing every page. Besides -benchmem's figures it reports live-B/op,
// the heap still in use once the map is made and the garbage collected: what the map keeps; and
// peak-B/op, the most the heap held live while one map was made (the file list, the readings in
// flight and the pages): with the collector's headroom on top, what sets the peak memory of a
// site's mapping.
// Run: go test ./site -run '^$' -bench Map10000 -benchmem
func BenchmarkMap10000(b *testing.B) {
	s := synthetic10000(b)
	b.ResetTimer()
	var m *Map
	var err error
	for i := 0; i < b.N; i++ {
		m = nil
		if m, err = s.Map(); err != nil {
			b.Fatal(err)
		}
		if len(m.Pages) < 10000 {
			b.Fatalf("%d pages, want at least 10,000", len(m.Pages))
		}
	}
	b.StopTimer()
	b.ReportMetric(heapHeld(func() { m = nil }), "live-B/op")
	b.ReportMetric(peakLive(func() {
		if _, err := s.Map(); err != nil {
			b.Fatal(err)
		}
	}), "peak-B/op")
}

// peakLive is the most heap that the collector found live while fn ran, less what was live before
// it: fn runs with the collector made to run often (at every tenth more of heap), so that the
// live heap is counted often enough to see its peak.
func peakLive(fn func()) float64 {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtime.GC()
	metrics.Read(live)
	base := live[0].Value.Uint64()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	done := make(chan uint64)
	stop := make(chan struct{})
	go func() {
		most := base
		for {
			metrics.Read(live)
			most = max(most, live[0].Value.Uint64())
			select {
			case <-stop:
				done <- most
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	return float64(<-done - base)
}

// BenchmarkRemap10000 maps the synthetic site of BenchmarkMap10000 again after one source's edit,
// as watch mode does (Remap): the edited source read, the pages placed where their place may have
// changed, and the rest of the mapping done anew. It reports kept-B, the heap
// the readings take beside the map, which watch mode holds too.
// Run: go test ./site -run '^$' -bench Remap10000 -benchmem
func BenchmarkRemap10000(b *testing.B) {
	s := synthetic10000(b)
	if _, err := s.Remap(nil); err != nil {
		b.Fatal(err)
	}
	var sources []string
	filepath.WalkDir(s.Content, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			sources = append(sources, p)
		}
		return nil
	})
	m := remapLoop(b, s, func(i int) string { return sources[(i*7919)%len(sources)] })
	b.ReportMetric(heapHeld(func() { s.kept = nil }), "kept-B")
	runtime.KeepAlive(m)
}

// BenchmarkRemapJekyll10000 is BenchmarkRemap10000 for a Jekyll site of 10,000 sources written
// here (6,000 posts, 3,000 pages in 100 folders, 1,000 documents of a collection, a default by
// type and one by a glob path): a page's edit, and the site mapped again.
// Run: go test ./site -run '^$' -bench RemapJekyll10000 -benchmem
func BenchmarkRemapJekyll10000(b *testing.B) {
	files := map[string]string{
		"_config.yml": "permalink: pretty\ncollections:\n  docs:\n    output: true\ndefaults:\n" +
			"  - scope: {path: \"\", type: posts}\n    values: {layout: post}\n" +
			"  - scope: {path: \"section-1*\"}\n    values: {robots: noarchive}\n",
		"index.md": "---\ntitle: Home\n---\n",
	}
	body := strings.Repeat("Lorem ipsum dolor sit amet. ", 200)
	for i := range 6000 {
		files[fmt.Sprintf("_posts/%d-%02d-%02d-post-%d.md", 2015+i%10, 1+i%12, 1+i%28, i)] =
			fmt.Sprintf("---\ntitle: Post %d\ncategories: [cat%d]\ntags: [a, b]\n---\n%s", i, i%7, body)
	}
	for i := range 3000 {
		files[fmt.Sprintf("section-%d/page-%d.md", i/30, i%30)] = fmt.Sprintf("---\ntitle: Page %d\n---\n%s", i, body)
	}
	for i := range 1000 {
		files[fmt.Sprintf("_docs/doc-%d.md", i)] = fmt.Sprintf("---\ntitle: Doc %d\n---\n", i)
	}
	s, err := Open(writeTree(b, files), Options{})
	if err != nil {
		b.Fatal(err)
	}
	m, err := s.Remap(nil)
	if err != nil || len(m.Pages) < 10000 {
		b.Fatalf("%d pages, %v; want 10,000", len(m.Pages), err)
	}
	m = remapLoop(b, s, func(i int) string {
		return filepath.Join(s.Root, fmt.Sprintf("section-%d/page-%d.md", i%100, i%30))
	})
	b.ReportMetric(heapHeld(func() { s.kept = nil }), "kept-B")
	runtime.KeepAlive(m)
}

// remapLoop is a Remap benchmark's loop: each time an edit appended to the source src(i), not
// timed, and the site mapped again, told of it. It returns the last Map.
func remapLoop(b *testing.B, s *Site, src func(i int) string) *Map {
	var m *Map
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := src(i)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nedit %d\n", i)
		f.Close()
		b.StartTimer()
		if m, err = s.Remap([]string{p}); err != nil {
			b.Fatal(err)
		}
		if len(m.Pages) < 10000 {
			b.Fatalf("%d pages, want at least 10,000", len(m.Pages))
		}
	}
	b.StopTimer()
	return m
}

// synthetic10000 opens a synthetic site of 10,000 sources written by the sample site's generator.
func synthetic10000(b *testing.B) *Site {
	dir := b.TempDir()
	if err := standin.Synthetic(dir, 10000, 1); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// heapHeld is the heap in use less what is in use once release let something go, each after a
// collection: what that held.
func heapHeld(release func()) float64 {
	var held, rest runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&held)
	release()
	runtime.GC()
	runtime.ReadMemStats(&rest)
	return float64(held.HeapAlloc) - float64(rest.HeapAlloc)
}
