package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// TestPathChunks: every path comes back whole and in order, whether chunks end between paths, a
// path fills a chunk exactly, or one path is longer than a chunk.
func TestPathChunks(t *testing.T) {
	long := strings.Repeat("x", pathChunkSize+10)
	exact := strings.Repeat("y", pathChunkSize-1) // with its "/", exactly one chunk
	tests := []struct {
		desc  string
		paths []string
	}{
		{"none", nil},
		{"one", []string{"index.html"}},
		{"a chunk exactly", []string{exact, "a.html"}},
		{"longer than a chunk", []string{"a.html", long, "b.html"}},
		{"many chunks", func() []string {
			var ps []string
			for i := range 20000 {
				ps = append(ps, fmt.Sprintf("blog/%d/post-%d/index.html", i%97, i))
			}
			return ps
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var c pathChunks
			for _, p := range tc.paths {
				c.add(p)
			}
			n := 0
			c.each(func(i int, got string) {
				if i != n {
					t.Fatalf("path %d came as %d", n, i)
				}
				if want := "/" + tc.paths[i]; got != want {
					t.Fatalf("path %d: got %.40q (%d bytes), want %.40q (%d bytes)", i, got, len(got), want, len(want))
				}
				n++
			})
			if n != len(tc.paths) {
				t.Errorf("got %d paths, want %d", n, len(tc.paths))
			}
			if len(tc.paths) > 1000 && len(c.chunks) < 2 {
				t.Errorf("%d paths in %d chunks, want several", len(tc.paths), len(c.chunks))
			}
		})
	}
}
