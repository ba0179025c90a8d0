package site

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestMapStops: once the mapping's context ends (SIGINT, SIGTERM), no further source is opened, and
// the mapping returns the context's error alone. Before, every source was read, however long that
// took: seconds on a site of 10,000 pages.
func TestMapStops(t *testing.T) {
	const pages, stopAt = 1000, 50
	for _, tc := range []struct {
		gen    string
		layout func(t *testing.T, dir string)
	}{
		{"hugo", func(t *testing.T, dir string) {
			files := map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\n"}
			for i := range pages {
				files[fmt.Sprintf("content/s%d/p%d.md", i%20, i)] = fmt.Sprintf("---\ntitle: P%d\nrobots: noindex\n---\nbody\n", i)
			}
			testtool.WriteFiles(t, dir, files)
		}},
		{"jekyll", func(t *testing.T, dir string) {
			files := map[string]string{"_config.yml": "title: t\n"}
			for i := range pages {
				files[fmt.Sprintf("_posts/2024-01-%02d-p%d.md", i%28+1, i)] = fmt.Sprintf("---\ntitle: P%d\nrobots: noindex\n---\nbody\n", i)
			}
			testtool.WriteFiles(t, dir, files)
		}},
	} {
		t.Run(tc.gen, func(t *testing.T) {
			dir := t.TempDir()
			tc.layout(t, dir)
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.kept = &readings{onOpen: func(n int64) {
				if n >= stopAt {
					cancel()
				}
			}}
			m, err := s.RemapContext(ctx, nil)
			if !errors.Is(err, context.Canceled) || m != nil {
				t.Fatalf("got %v and a map %v, want context.Canceled alone", err, m != nil)
			}
			// A worker that had passed the check as the context ended opens its file: one each.
			if n, most := s.kept.opened.Load(), int64(stopAt+2*runtime.GOMAXPROCS(0)); n > most {
				t.Errorf("opened %d of %d sources, want no more than %d once the context ended at the %dth", n, pages, most, stopAt)
			}

			// Mapped again with a context that is not done: every source, the site as it is.
			s.kept.onOpen = nil
			m, err = s.RemapContext(context.Background(), nil)
			if err != nil || len(m.Pages) != pages {
				t.Fatalf("mapped again: %v, %d pages; want %d", err, len(m.Pages), pages)
			}
			if _, err := s.MapContext(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("MapContext with the context ended: %v, want context.Canceled", err)
			}
		})
	}
}
