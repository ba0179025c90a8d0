package pipeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// FirstPass is Update.Why for the first pass over the output.
const FirstPass = "first pass"

// Update is what Live did with one batch of changes.
type Update struct {
	// Changes are the batch's paths, relative to the working folder (a folder ends in /).
	Changes []string
	Full    bool   // every file went through the step
	Why     string // for a full pass, why: FirstPass, "configuration changed", "events lost"
	// Roots says the folders and files to watch changed (a new output folder in the
	// configuration): watch Live.Watch's roots from now on.
	Roots     bool
	Processed int      // files put through the step
	Wrote     []string // files written, slash paths relative to the output folder
	Removed   int      // files gone from the output
	Flips     []Flip   // pages whose indexability changed
	Busy      int      // files the generator rewrote while robotsmith read them, or removed before robotsmith could write: left for the next batch
	// Retry asks for Apply to be called again once the folders are quiet, even with no change (an
	// empty Batch): Busy files, or the site steps' files, are waiting.
	Retry bool
	Took  time.Duration
	// Notes are what the author should know that is not a problem.
	Notes    []string
	Warnings []problem.Problem // new warnings (each is reported once a session)
	Findings []problem.Problem // new findings of SPEC §7 (each is reported once a session)
	// Errs are the batch's problems, each naming its file and line where it has them. The files a
	// problem touches were left as the generator wrote them; the rest was done.
	Errs []error
	// Report is a full pass's counts, as build reports them; nil otherwise.
	Report *Report
}

// Flip is a page whose indexability changed: it became noindex or public, or it came or went.
type Flip struct {
	URL  string
	From string // "public" or "noindex"; "" for a new page
	To   string // "public" or "noindex"; "" for a page gone
}

func (f Flip) String() string {
	switch {
	case f.From == "":
		return f.URL + " new, " + f.To
	case f.To == "":
		return f.URL + " gone (was " + f.From + ")"
	}
	return f.URL + " " + f.From + " → " + f.To
}

// flipOf names the change of indexability from the record old to nw of a page, if any.
func flipOf(old, nw *plan.Record) (Flip, bool) {
	if !nw.HTML() || nw.Skipped() {
		return Flip{}, false
	}
	to := indexability(nw.Verdict())
	if to == "" {
		return Flip{}, false
	}
	from := indexability(old.Verdict())
	if from == to {
		return Flip{}, false
	}
	return Flip{URL: nw.URL(), From: from, To: to}, true
}

// indexability is "public" or "noindex" for a page with that verdict, "" for anything else (an
// error page, a redirect, no verdict).
func indexability(v *rules.Verdict) string {
	if v == nil || v.Class != rules.Public && v.Class != rules.NonPublic {
		return ""
	}
	return v.Class.String()
}

// Line is the one line a batch gets: what changed, what was done and how long it took, and the
// pages whose indexability changed.
//
//	content/blog/a.md, public/blog/a/index.html: 1 file processed, 1 written in 12ms; /blog/a/ public → noindex
func (u *Update) Line() string {
	var b strings.Builder
	b.WriteString(listSome(u.Changes, 3))
	if len(u.Changes) == 0 && !u.Full {
		b.WriteString("(again)") // the files that changed while read, once the generator is quiet
	}
	if u.Full {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("(" + u.Why + ")")
	}
	b.WriteString(": ")
	switch {
	case u.Processed == 0 && len(u.Wrote) == 0 && u.Removed == 0 && len(u.Errs) == 0 && u.Busy == 0:
		b.WriteString("no decision changed")
	default:
		fmt.Fprintf(&b, "%s processed, %d written", Plural(u.Processed, "file"), len(u.Wrote))
		if u.Removed > 0 {
			fmt.Fprintf(&b, ", %d removed", u.Removed)
		}
		if n := len(u.Errs); n > 0 {
			fmt.Fprintf(&b, ", %s", Plural(n, "error"))
		}
	}
	fmt.Fprintf(&b, " in %s", Elapsed(u.Took))
	if len(u.Flips) > 0 {
		names := make([]string, len(u.Flips))
		for i, f := range u.Flips {
			names[i] = f.String()
		}
		b.WriteString("; " + listSome(names, 5))
	}
	if u.Busy > 0 {
		fmt.Fprintf(&b, "; %s changed while robotsmith read them, again shortly", Plural(u.Busy, "file"))
	}
	return b.String()
}

// listSome joins the first n of xs, and says how many more there are.
func listSome(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
}

// Elapsed is how long a run or a batch took, as every line that says so prints it (watch's batch
// line, the end of build's and check's summary): to the millisecond, or to the hundredth of a
// second above a second: 28ms, 2.35s.
func Elapsed(d time.Duration) string {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// watchWarning is a problem the watcher met (a folder it could not watch, a switch to polling) as
// the warning watch mode reports: of its own code, or problem.WatchDegraded.
func watchWarning(err error) problem.Problem {
	p, ok := problem.Of(err)
	if !ok {
		p.Code = problem.WatchDegraded
	}
	p.Severity = problem.Warning
	return p
}
