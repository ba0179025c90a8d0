// Package diff compares two indexability records (package indexability) URL by URL and says what
// a change to a site does to what search engines and AI crawlers are told (SPEC §11): which URLs
// leave or enter the index and why, which leave the sitemaps, what robots.txt newly keeps each
// crawler from, and every change of directives, canonical, AI preferences and X-Robots-Tag, each
// with the source of its new value.
//
// The two records are read side by side in URL order (a merge join): memory holds one record of
// each side and the summary's bounded lists, whatever the size of the site.
//
// Usage:
//
//	failOn, err := diff.ParseFailOn(diff.DefaultFailOn) // "home,noindex:10%"
//	old := indexability.NewReader(oldFile, "old.jsonl")
//	new := indexability.NewReader(newFile, "new.jsonl")
//	rep, err := diff.Run(os.Stdout, old, new, diff.Options{Format: diff.Text, FailOn: failOn})
//	if err != nil { ... }             // a record that is not whole, or out of order: file:line
//	if len(rep.Failures) > 0 { ... }  // a rule of --fail-on is met: exit 1
//
// Compare is the comparison alone: it calls a function for each changed URL and returns the
// Summary, for a caller that renders changes its own way.
//
// A URL is in the index when Googlebot or Bingbot indexes it as itself: a page or file (not an
// error page or redirect stub), not noindex for that crawler, that robots.txt lets it fetch, whose
// canonical link (if any) names itself. A URL leaves the index when one of them did and no longer
// does. Sources never count as changes: a rule moved within robotsmith.yaml changes no URL.
package diff
