package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// BenchmarkMap10000 maps the sample site generator's synthetic Hugo site of 10,000 sources (YAML,
// TOML and JSON front matter, nested sections, cascades, about 250 MB of Markdown): reading every
// source's front matter and placing every page. Besides -benchmem's figures it reports live-B/op,
// the heap still in use once the map is made and the garbage collected: what the map keeps.
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
}

// BenchmarkRemap10000 maps the synthetic site of BenchmarkMap10000 again after one source's edit,
// as watch mode does (Remap): the folders checked, the edited source read, the pages placed where
// their place may have changed, and the rest of the mapping done anew. It reports kept-B, the heap
// the readings take beside the map, which watch mode holds too.
// Run: go test ./site -run '^$' -bench Remap10000 -benchmem
func BenchmarkRemap10000(b *testing.B) {
	s := synthetic10000(b)
	m, err := s.Remap(nil)
	if err != nil {
		b.Fatal(err)
	}
	var sources []string
	filepath.WalkDir(s.Content, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			sources = append(sources, p)
		}
		return nil
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		src := sources[(i*7919)%len(sources)]
		f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nedit %d\n", i)
		f.Close()
		b.StartTimer()
		if m, err = s.Remap([]string{src}); err != nil {
			b.Fatal(err)
		}
		if len(m.Pages) < 10000 {
			b.Fatalf("%d pages, want at least 10,000", len(m.Pages))
		}
	}
	b.StopTimer()
	b.ReportMetric(heapHeld(func() { s.kept = nil }), "kept-B")
	runtime.KeepAlive(m)
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
