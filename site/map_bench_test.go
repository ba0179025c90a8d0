package site

import (
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
