package pipeline

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/lighthouse"
)

// TestLighthouseRobotsTxt runs Lighthouse's robots-txt audit on the output of a real build of a
// site with an ai policy, in each placement. What Lighthouse said:
//
//	placement: both, Lighthouse 12.8.2: "robots.txt is not valid", Unknown directive on the
//	  Content-Signal and the Content-Usage lines;
//	placement: both, Lighthouse 13.5.0: Unknown directive on the Content-Usage line alone;
//	placement: headers, both releases: the audit passes (the ai.block groups stay in robots.txt,
//	  and Content-Usage goes out as an HTTP header, in _headers).
func TestLighthouseRobotsTxt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Lighthouse")
	}
	tests := []struct {
		desc      string
		placement string
		release   lighthouse.Release
		unknown   []string // the lines Lighthouse reports as unknown directives; nil: it passes
	}{
		{"both, 12.8.2", "both", lighthouse.V12, []string{"Content-Signal: search=yes, ai-input=yes, ai-train=no", "Content-Usage: train-ai=n, search=y"}},
		{"both, 13.5.0", "both", lighthouse.V13, []string{"Content-Usage: train-ai=n, search=y"}},
		{"headers, 12.8.2", "headers", lighthouse.V12, nil},
		{"headers, 13.5.0", "headers", lighthouse.V13, nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, aiPolicy+"  placement: "+tc.placement+"\n", "")
			writeTree(t, dir, map[string]string{"public/index.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title><meta name="description" content="A site built with an ai policy"></head><body><h1>Home</h1></body></html>` + "\n"})
			if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
				t.Fatal(err)
			}
			robots := readTree(t, dir)["public/robots.txt"]
			res := lighthouse.Run(t, filepath.Join(dir, "public"), lighthouse.Options{Release: tc.release, Audits: []string{"robots-txt"}})
			a, ok := res.Audits["robots-txt"]
			if !ok {
				t.Fatalf("no robots-txt audit in Lighthouse %s's report", res.Version)
			}
			var got []string
			for _, e := range a.RobotsTxtErrors() {
				got = append(got, e.Content)
				if e.Message != "Unknown directive" {
					t.Errorf("line %d %q: %s, want Unknown directive", e.Line, e.Content, e.Message)
				}
			}
			if a.Passed() != (tc.unknown == nil) || !slices.Equal(got, tc.unknown) {
				t.Errorf("Lighthouse %s: robots-txt passed %v, unknown directives %q; want %q\nrobots.txt:\n%s",
					res.Version, a.Passed(), got, tc.unknown, robots)
			}
			if tc.placement == "headers" && !strings.Contains(readTree(t, dir)["public/_headers"], "Content-Usage: train-ai=n, search=y") {
				t.Errorf("placement: headers sent no Content-Usage header")
			}
		})
	}
}
