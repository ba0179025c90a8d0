package safefs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
)

// txCost is what a transaction costs per created file, with every file written and closed and
// nothing committed yet: the moment a build holds the most.
type txCost struct {
	live   float64 // bytes still reachable after a collection: what the transaction keeps
	allocs float64 // objects allocated, garbage included (the collector's work grows with it)
	bytes  float64 // bytes allocated, garbage included
}

// measureTx stages n replacements with names like a generated site's pages (the caller's
// strings, made before the measurement, as the pipeline passes its own records' names) and
// measures what the transaction holds and allocates for them. The transaction is aborted.
func measureTx(tb testing.TB, n int) txCost {
	tb.Helper()
	dir := tb.TempDir()
	const perFolder = 100
	names := make([]string, n)
	for i := range names {
		folder := fmt.Sprintf("blog/section-%03d", i/perFolder)
		if i%perFolder == 0 {
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(folder)), 0o755); err != nil {
				tb.Fatal(err)
			}
		}
		names[i] = fmt.Sprintf("%s/a-post-about-something-%d.html", folder, i)
	}
	orig := filepath.Join(dir, "orig.html")
	if err := os.WriteFile(orig, []byte("<p>old</p>"), 0o644); err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Lstat(orig)
	if err != nil {
		tb.Fatal(err)
	}
	data := []byte("<p>new</p>")

	tx, err := Begin(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Abort()
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:objects"}, {Name: "/gc/heap/allocs:bytes"}}
	read := func() [3]float64 {
		runtime.GC()
		metrics.Read(samples)
		var v [3]float64
		for i, s := range samples {
			v[i] = float64(s.Value.Uint64())
		}
		return v
	}
	before := read()
	for _, name := range names {
		if err := tx.WriteFile(name, fi, data); err != nil {
			tb.Fatal(err)
		}
	}
	after := read()
	runtime.KeepAlive(names)
	per := func(k int) float64 { return (after[k] - before[k]) / float64(n) }
	return txCost{live: per(0), allocs: per(1), bytes: per(2)}
}

// BenchmarkTxPerFile reports what a transaction keeps for each created file (live-B/file) and
// what creating one allocates, garbage included, for 100,000 files. Run it with -benchtime 1x:
// each iteration is a whole transaction.
func BenchmarkTxPerFile(b *testing.B) {
	var c txCost
	for b.Loop() {
		c = measureTx(b, 100000)
	}
	b.ReportMetric(c.live, "live-B/file")
	b.ReportMetric(c.allocs, "allocs/file")
	b.ReportMetric(c.bytes, "alloc-B/file")
}

// TestTxHeapPerFile: a transaction keeps 48 bytes per created file (its entry; the name is the
// caller's), and creating one allocates little besides what the os package's open, stat and
// close do. It held 132 bytes a file (125 at 100,000 files) when each entry was allocated apart,
// listed in a slice of pointers grown by doubling, and its name put in a map to refuse it twice;
// creating one made 21.5 allocations, the journal's tmp record and the temporary file's name
// built with fmt among them.
func TestTxHeapPerFile(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 5000
	}
	c := measureTx(t, n)
	t.Logf("%d files: %.1f live bytes, %.1f allocations (%.0f bytes) a file", n, c.live, c.allocs, c.bytes)
	const maxLive, maxAllocs = 60, 16
	if c.live > maxLive {
		t.Errorf("the transaction keeps %.1f bytes a file, want at most %d", c.live, maxLive)
	}
	if c.allocs > maxAllocs {
		t.Errorf("creating a file allocates %.1f times, want at most %d", c.allocs, maxAllocs)
	}
}
