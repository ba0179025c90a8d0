package pipeline

import (
	"context"
	"flag"
	"testing"
)

var benchSite = flag.String("site", "", "BenchmarkCheckSite: the site to check (the site-level benchmark's, e.g. robotsmith-sitebench/site-10000-seed1 in the temporary folder)")

// BenchmarkCheckSite runs check, in this process, on the site -site names: with -cpuprofile it
// shows where check's CPU goes on the site-level benchmark's sites (internal/sitebench keeps them),
// which the benchmark itself, timing robotsmith's process, does not. docs/internals/performance.md
// ("Where the time goes") gives the share of the indexability model's reads (sitemaps, robots.txt,
// pages' canonical and hreflang links) measured so.
func BenchmarkCheckSite(b *testing.B) {
	if *benchSite == "" {
		b.Skip("no -site: run internal/sitebench first, then -site its site folder")
	}
	for b.Loop() {
		if _, err := Run(context.Background(), Options{Root: *benchSite}); err != nil {
			b.Fatal(err)
		}
	}
}
