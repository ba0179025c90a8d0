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
	dir := b.TempDir()
	if err := standin.Synthetic(dir, 10000, 1); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var m *Map
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
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	m = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportMetric(float64(after.HeapAlloc)-float64(before.HeapAlloc), "live-B/op")
}

// BenchmarkRemap10000 maps the synthetic site of BenchmarkMap10000 again after one source's edit,
// as watch mode does (Remap): the folders listed, one source read, every page placed anew from
// the readings kept. It reports kept-B, the heap the readings take beside the map, which watch
// mode holds too (the heap in use with them, less without them, after a collection).
// Run: go test ./site -run '^$' -bench Remap10000 -benchmem
func BenchmarkRemap10000(b *testing.B) {
	dir := b.TempDir()
	if err := standin.Synthetic(dir, 10000, 1); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
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
	var m *Map
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
	var with, without runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&with)
	s.kept = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	runtime.KeepAlive(m)
	b.ReportMetric(float64(with.HeapAlloc)-float64(without.HeapAlloc), "kept-B")
}
