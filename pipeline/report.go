package pipeline

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/rules"
)

// Report is what a build or check did. With --json it is printed as JSON; its field names are part of
// the user contract (README "JSON report").
type Report struct {
	Site      string `json:"site"`      // the site's root folder
	Config    string `json:"config"`    // the configuration file read, "" for none
	Generator string `json:"generator"` // hugo, jekyll or none
	Output    string `json:"output"`    // the output folder

	Pages      int `json:"pages"`       // HTML documents seen
	Public     int `json:"public"`      // pages with the public (three-tag or single-tag) form
	NoIndex    int `json:"noindex"`     // pages with the noindex-only form
	ErrorPages int `json:"error_pages"` // error pages (no robots tag)
	Redirects  int `json:"redirects"`   // redirect stubs (no robots tag)
	Skipped    int `json:"skipped"`     // .html files that are not HTML documents, left byte-identical
	Files      int `json:"files"`       // non-HTML files
	NoOutput   int `json:"no_output"`   // source pages the generator writes nothing for (drafts, ...)
	// Unpublished lists those pages with the reason: "content/blog/wip.md (draft)".
	Unpublished []string `json:"unpublished"`

	HeaderRules int `json:"header_rules"` // files (and pages) given an X-Robots-Tag rule in _headers

	Changed      int      `json:"changed"`       // files written (build) or that build would write (check)
	ChangedFiles []string `json:"changed_files"` // their paths, relative to the output folder
	Wrote        bool     `json:"wrote"`         // build wrote files

	Warnings []string `json:"warnings"` // unknown or obsolete values, each naming its source
	Findings []string `json:"findings"` // lint findings: check exits 1 when there is any
}

func (rep *Report) count(r *result) {
	if r.changed {
		rep.Changed++
		rep.ChangedFiles = append(rep.ChangedFiles, r.f.rel)
	}
	switch {
	case r.skipped:
		rep.Skipped++
	case !r.f.html:
		rep.Files++
	default:
		rep.Pages++
		switch r.decision.Class {
		case rules.Public:
			rep.Public++
		case rules.NonPublic:
			rep.NoIndex++
		case rules.ErrorPage:
			rep.ErrorPages++
		case rules.Redirect:
			rep.Redirects++
		}
	}
}

// maxShown is how many warnings the summary lists; a theme's typo repeats on every page.
const maxShown = 20

// Summary is the few lines a person reads after a build or check.
func (rep *Report) Summary(write bool) string {
	var b strings.Builder
	verb := "changed"
	if !write {
		verb = "would change"
	}
	fmt.Fprintf(&b, "%d pages: %d public, %d noindex, %d error pages, %d redirects", rep.Pages, rep.Public, rep.NoIndex, rep.ErrorPages, rep.Redirects)
	if rep.Skipped > 0 {
		fmt.Fprintf(&b, ", %d not HTML documents (left alone)", rep.Skipped)
	}
	fmt.Fprintf(&b, "\n%d other files, %d with an X-Robots-Tag rule in _headers\n", rep.Files, rep.HeaderRules)
	fmt.Fprintf(&b, "%s %d files", verb, rep.Changed)
	if rep.NoOutput > 0 {
		fmt.Fprintf(&b, "; %d source pages not published (drafts, future, expired, render: never; --json lists them)", rep.NoOutput)
	}
	b.WriteString("\n")
	if n := len(rep.Warnings); n > 0 {
		fmt.Fprintf(&b, "%d warnings:\n", n)
		for i, w := range rep.Warnings {
			if i == maxShown {
				fmt.Fprintf(&b, "  ... and %d more (--json lists them all)\n", n-maxShown)
				break
			}
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
	}
	if n := len(rep.Findings); n > 0 {
		fmt.Fprintf(&b, "%d findings:\n", n)
		for _, f := range rep.Findings {
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	return b.String()
}

// UnpublishedText lists the source pages not published, one a line with the reason, for a
// verbose summary; the plain summary only counts them, as they are not problems.
func (rep *Report) UnpublishedText() string {
	var b strings.Builder
	for _, u := range rep.Unpublished {
		fmt.Fprintf(&b, "  not published: %s\n", u)
	}
	return b.String()
}
