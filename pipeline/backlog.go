package pipeline

import (
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
)

// maxTries is how many updates in a row may ask to be retried (the generator wrote a page while
// robotsmith read it) before Live gives those files up with an error: a generator does not write
// the same page for seconds on end.
const maxTries = 10

// backlog is what watch mode has still to do, between batches: the files (record paths) and the
// site-level steps to do again once the generator is quiet (retry: they changed while read, or
// their commit found a file changed under it), and those to do with the next change (pending: a
// problem in a site-level file stopped the batch they were in, or they were retried too often). It
// is Live's alone, and knows nothing of plans or records.
type backlog struct {
	retry     map[string]bool // record paths to process again once quiet
	siteRetry bool            // the site steps' writes were not put in place: run them again
	// emptied are the pages last read empty, once: a generator that truncates a page before it
	// writes it (Hugo) can be caught in between, so an empty page is read again once quiet, and
	// taken as it is only if it is still empty then.
	emptied map[string]bool
	tries   int   // updates in a row that asked to be retried
	lastErr error // why the last commit failed, for the error after maxTries

	pending     map[string]bool // record paths to process with the next batch
	sitePending bool            // the site steps, likewise
}

func newBacklog() backlog {
	return backlog{retry: map[string]bool{}, emptied: map[string]bool{}, pending: map[string]bool{}}
}

// waiting says whether the site steps wait for the next batch.
func (b *backlog) waiting() bool { return b.siteRetry || b.sitePending }

// take moves every file waiting, to retry or pending, into todo, and the site steps with them:
// the batch about to run does them all (waiting said whether it has the site steps to do).
func (b *backlog) take(todo map[string]bool) {
	for _, m := range []map[string]bool{b.retry, b.pending} {
		for p := range m {
			todo[p] = true
		}
		clear(m)
	}
	b.siteRetry, b.sitePending = false, false
}

// clear forgets everything waiting: a full pass does it all.
func (b *backlog) clear() {
	clear(b.retry)
	clear(b.pending)
	b.siteRetry, b.sitePending = false, false
}

// later keeps the file p, and the site steps when site, for the next change.
func (b *backlog) later(p string, site bool) {
	if p != "" {
		b.pending[p] = true
	}
	b.sitePending = b.sitePending || site
}

// again keeps the file p for once the generator is quiet.
func (b *backlog) again(p string) { b.retry[p] = true }

// forget drops the file p, gone from the output.
func (b *backlog) forget(p string) {
	delete(b.retry, p)
	delete(b.pending, p)
}

// emptyOnce reports whether the page p, read empty when empty, is to be read again once quiet: the
// first time in a row it is read so. A page read with content, or empty a second time (then taken
// as it is), is forgotten.
func (b *backlog) emptyOnce(p string, empty bool) bool {
	if empty && !b.emptied[p] {
		b.emptied[p], b.retry[p] = true, true
		return true
	}
	delete(b.emptied, p)
	return false
}

// failed notes a commit that put nothing in place, for the retries: err says why.
func (b *backlog) failed(err error, site bool) {
	b.lastErr = err
	b.siteRetry = b.siteRetry || site
}

// committed notes a commit that put the batch in place.
func (b *backlog) committed() { b.lastErr = nil }

// finish counts the updates in a row that ask to be retried, and says whether this one does
// (Update.Retry). After maxTries it gives up the files that keep changing, with the error it
// returns (name names a record path in it), and keeps them for the next change, without a timer.
func (b *backlog) finish(name func(p string) string) (retry bool, err error) {
	if len(b.retry) == 0 && !b.siteRetry {
		b.tries = 0
		return false, nil
	}
	b.tries++
	if b.tries <= maxTries {
		return true, nil
	}
	var names []string
	for p := range b.retry {
		names = append(names, name(p))
	}
	if b.siteRetry {
		names = append(names, "the site-level files (_headers, robots.txt, sitemaps)")
	}
	slices.Sort(names)
	why := "changed while robotsmith read them"
	if b.lastErr != nil {
		why = b.lastErr.Error()
	}
	err = problem.Newf(problem.FileKeepsChanging, problem.Position{}, "%s: not written %d times in a row (%s); left as they are until the next change", strings.Join(names, ", "), b.tries, why)
	for p := range b.retry {
		b.pending[p] = true
	}
	b.sitePending = b.sitePending || b.siteRetry
	clear(b.retry)
	b.siteRetry, b.tries, b.lastErr = false, 0, nil
	return false, err
}
