package pipeline

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestProgressPhases: Run names each phase to Options.Progress as it begins, in order, and the
// files processed as they are. What the test does when a phase is named proves that it was named
// before the phase's work: a source page made noindex when reading sources is named is read
// noindex, a file added when listing the output is named is counted, so a progress line says what
// the run does from the moment it begins it, never after.
func TestProgressPhases(t *testing.T) {
	tests := []struct {
		desc  string
		write bool
		want  []string
	}{
		{"build", true, []string{"reading sources", "listing the output", "processing pages 0/6", "processing pages 6/6",
			"writing _headers, robots.txt, sitemaps", "committing"}},
		{"check", false, []string{"reading sources", "listing the output", "processing pages 0/6", "processing pages 6/6",
			"checking _headers, robots.txt, sitemaps"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := liveSite(t)
			var got []string
			opt := Options{Root: dir, Write: tc.write, Workers: 1, Progress: func(ph Phase, done, total int) {
				switch ph {
				case ReadingSources:
					writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\nrobots: noindex\n---\nalpha\n"})
				case ListingOutput:
					writeTree(t, dir, map[string]string{"public/files/late.pdf": "%PDF-1.4\n"})
				}
				s := ph.String()
				if ph == ProcessingPages {
					if done != 0 && done != total {
						return // the files between the first and the last
					}
					s += fmt.Sprintf(" %d/%d", done, total)
				}
				got = append(got, s)
			}}
			rep, err := Run(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("phases:\n got %q\nwant %q", got, tc.want)
			}
			if rep.NoIndex != 1 {
				t.Errorf("%d noindex pages, want 1: the source made noindex when reading sources was named", rep.NoIndex)
			}
			if rep.Files != 2 {
				t.Errorf("%d other files, want 2: the file added when listing the output was named", rep.Files)
			}
		})
	}
}
