package diff_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/robotsmith/robotsmith/diff"
	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/testsupport/recordtest"
)

// benchRecords writes the records of a site of n URLs to dir/old.jsonl and dir/new.jsonl, one in
// ten pages of NEW made noindex by a rule, and returns their paths.
func benchRecords(b *testing.B, dir string, n int) (string, string) {
	b.Helper()
	write := func(name string, changed bool) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		w := indexability.NewWriter(f)
		for i := range n {
			r := recordtest.Page(fmt.Sprintf("/section-%02d/page-%06d/", i*50/n, i))
			if changed && i%10 == 0 {
				recordtest.Noindex(&r, recordtest.Rule(4, 30))
			}
			if err := w.Write(&r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		return p
	}
	return write("old.jsonl", false), write("new.jsonl", true)
}

// BenchmarkDiff compares two records of 1,000, 10,000 and 100,000 URLs, a tenth of the pages
// changed, rendered as text: time and allocations per comparison, the bytes of the records read,
// and the live heap the comparison reaches (sampled after each 1,000 changes).
func BenchmarkDiff(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			old, new := benchRecords(b, b.TempDir(), n)
			fi, _ := os.Stat(old)
			b.SetBytes(2 * fi.Size())
			var peak uint64
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				fo, _ := os.Open(old)
				fn, _ := os.Open(new)
				_, err := diff.Run(io.Discard, indexability.NewReader(fo, "old"), indexability.NewReader(fn, "new"), diff.Options{Format: diff.Text, TempDir: b.TempDir()})
				fo.Close()
				fn.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// The live heap while comparing: Compare's visit samples it.
			fo, _ := os.Open(old)
			fn, _ := os.Open(new)
			defer fo.Close()
			defer fn.Close()
			runtime.GC()
			var ms runtime.MemStats
			k := 0
			_, err := diff.Compare(indexability.NewReader(fo, "old"), indexability.NewReader(fn, "new"), func(c *diff.Change) error {
				if k++; k%1000 == 0 {
					runtime.GC()
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(peak)/(1<<20), "live-MiB")
			b.ReportMetric(float64(fi.Size())/float64(n), "B/record")
		})
	}
}
