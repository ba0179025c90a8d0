//go:build linux

package main

import (
	"strings"
	"testing"
)

// TestCheckGeneratorServe: with --serve, hugo server's own live-reload script (which Hugo v0.165.0
// writes into every page on disk: `livereload.js?mindelay=10&v=2&port=1313`) would reload the
// browser on Hugo's write, before robotsmith fixed the page: a note says to leave it out.
func TestCheckGeneratorServe(t *testing.T) {
	const note = "add --disableLiveReload"
	tests := []struct {
		desc    string
		args    []string
		serving bool
		want    bool
	}{
		{desc: "hugo server with --serve", args: []string{"hugo", "server", "--disableFastRender"}, serving: true, want: true},
		{desc: "hugo server --disableLiveReload with --serve", args: []string{"hugo", "server", "--disableFastRender", "--disableLiveReload"}, serving: true},
		{desc: "hugo server without --serve", args: []string{"hugo", "server", "--disableFastRender"}},
		{desc: "hugo --watch with --serve", args: []string{"hugo", "--watch"}, serving: true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			notes, err := checkGenerator(tc.args, tc.serving)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(strings.Join(notes, "\n"), note); got != tc.want {
				t.Errorf("checkGenerator(%q, %v) notes %q: got the live-reload note %v, want %v", tc.args, tc.serving, notes, got, tc.want)
			}
		})
	}
}
