package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/internal/excerpt"
)

// Format is how Run writes its report.
type Format int

// The formats.
const (
	Text     Format = iota // for a person at a terminal or in a CI log
	JSON                   // for tools: schema/diff.schema.json
	Markdown               // for a pull-request comment or a GitHub Actions job summary
)

// Options are Run's.
type Options struct {
	Format  Format
	FailOn  FailOn // the rules whose failures Report.Failures lists; nil for none
	Version string // robotsmith's version, for the JSON report
	// TempDir is where the changes wait, once past spoolMemory, while the summary that comes first
	// is counted; "" for the system's temporary folder.
	TempDir string
}

// Report is what a comparison found.
type Report struct {
	Old, New string // the records' names, as their readers have them
	FailOn   FailOn
	Summary  *Summary
	Failures []Failure // the rules of FailOn it meets; empty when the run passes
}

// spoolMemory is how much of the rendered changes Run holds in memory before it moves them to a
// temporary file.
const spoolMemory = 4 << 20

// Run compares the records old and new in one pass and writes the report to w: the summary first,
// then every change (Text, JSON; Markdown lists them up to a pull-request comment's size). Each side
// is read once, one record at a time; the rendered changes wait in memory, or past spoolMemory in a
// temporary file, until the summary is written. On an error (a record that is not whole, a URL out
// of order) nothing is written to w.
func Run(w io.Writer, old, new *indexability.Reader, opt Options) (*Report, error) {
	sp := &spool{dir: opt.TempDir}
	defer sp.close()
	rd := renderer{format: opt.Format}
	sum, err := Compare(old, new, func(c *Change) error { return rd.change(sp, c) })
	if err != nil {
		return nil, err
	}
	rep := &Report{Old: old.Name(), New: new.Name(), FailOn: opt.FailOn, Summary: sum, Failures: opt.FailOn.Check(sum)}
	if rep.FailOn == nil {
		rep.FailOn = FailOn{}
	}
	if err := rd.head(w, rep, opt.Version); err != nil {
		return nil, err
	}
	if err := sp.copyTo(w); err != nil {
		return nil, err
	}
	return rep, rd.tail(w, rep)
}

// spool holds bytes in memory, then in a temporary file once they pass spoolMemory.
type spool struct {
	dir  string
	mem  bytes.Buffer
	file *os.File
}

func (s *spool) Write(p []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(p) > spoolMemory {
		f, err := os.CreateTemp(s.dir, "robotsmith-diff-*")
		if err != nil {
			return 0, err
		}
		s.file = f
		if _, err := s.mem.WriteTo(f); err != nil {
			return 0, err
		}
	}
	if s.file != nil {
		return s.file.Write(p)
	}
	return s.mem.Write(p)
}

func (s *spool) copyTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
	}
}

// renderer writes one format: head (the summary), a change at a time, tail.
type renderer struct {
	format Format
	n      int // changes rendered
	// Markdown: the bytes of the table of changes so far, and the changes left out past
	// markdownBudget.
	mdBytes, mdLeft int
}

// markdownBudget is how many bytes of changed URLs the Markdown report lists: GitHub takes a
// comment of at most 65,536 characters, and the summary and the table's frame need some.
const markdownBudget = 56 << 10

func (rd *renderer) change(w io.Writer, c *Change) error {
	rd.n++
	switch rd.format {
	case JSON:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("    ", "  ")
		enc.SetEscapeHTML(false) // as every report robotsmith prints: a URL's & stays &
		if err := enc.Encode(c); err != nil {
			return err
		}
		sep := ","
		if rd.n == 1 {
			sep = ""
		}
		_, err := fmt.Fprintf(w, "%s\n    %s", sep, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		return err
	case Markdown:
		row := markdownRow(c)
		if rd.mdLeft > 0 || rd.mdBytes+len(row) > markdownBudget {
			rd.mdLeft++
			return nil
		}
		rd.mdBytes += len(row)
		_, err := io.WriteString(w, row)
		return err
	}
	_, err := io.WriteString(w, textChange(c))
	return err
}

func (rd *renderer) head(w io.Writer, rep *Report, version string) error {
	var s string
	switch rd.format {
	case JSON:
		return jsonHead(w, rep, version)
	case Markdown:
		s = markdownHead(rep)
	default:
		s = textHead(rep)
	}
	_, err := io.WriteString(w, s)
	return err
}

func (rd *renderer) tail(w io.Writer, rep *Report) error {
	var b strings.Builder
	switch rd.format {
	case JSON:
		if rd.n > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("],\n  \"errors\": []\n}\n")
	case Markdown:
		if rep.Summary.Changed > 0 {
			if rd.mdLeft > 0 {
				fmt.Fprintf(&b, "\n… and %s more (`robotsmith diff --json` lists them all).\n", plural(rd.mdLeft, "changed URL"))
			}
			b.WriteString("\n</details>\n")
		}
	default:
		for _, f := range rep.Failures {
			fmt.Fprintf(&b, "robotsmith diff: fails on %s: %s\n", f.Rule, f.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// document is the JSON report's beginning; Changes and Errors follow it.
type document struct {
	Command  string    `json:"command"`
	Version  string    `json:"version"`
	OK       bool      `json:"ok"`
	Old      string    `json:"old"`
	New      string    `json:"new"`
	FailOn   []string  `json:"fail_on"`
	Failures []Failure `json:"failures"`
	Summary  *Summary  `json:"summary"`
}

func jsonHead(w io.Writer, rep *Report, version string) error {
	doc := document{Command: "diff", Version: version, OK: len(rep.Failures) == 0, Old: rep.Old, New: rep.New,
		FailOn: []string{}, Failures: rep.Failures, Summary: rep.Summary}
	for _, r := range rep.FailOn {
		doc.FailOn = append(doc.FailOn, r.String())
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	// The object stays open for the changes: `{..., "summary": {...}` then `, "changes": [`.
	head := bytes.TrimSuffix(bytes.TrimRight(b.Bytes(), "\n"), []byte("}"))
	head = bytes.TrimRight(head, "\n")
	if _, err := w.Write(head); err != nil {
		return err
	}
	_, err := io.WriteString(w, ",\n  \"changes\": [")
	return err
}

// ErrorJSON is the JSON report of a comparison that could not be made: no summary, no change, the
// errors (each a message as the other commands' JSON reports give them).
func ErrorJSON(w io.Writer, version, old, new string, failOn FailOn, errs any) error {
	doc := struct {
		document
		Changes []Change `json:"changes"`
		Errors  any      `json:"errors"`
	}{document{Command: "diff", Version: version, Old: old, New: new, FailOn: []string{}, Failures: []Failure{}, Summary: newSummary()}, []Change{}, errs}
	for _, r := range failOn {
		doc.FailOn = append(doc.FailOn, r.String())
	}
	doc.Summary.finish()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// label names what an item is about: "robots", "googlebot", "sitemap", "robots.txt, training
// crawlers", "canonical".
func label(it Item) string {
	switch it.Aspect {
	case Added, Removed, Class, Sitemap, Canonical:
		return string(it.Aspect)
	case RobotsTxt:
		who := it.Who
		if who != indexability.Googlebot && who != indexability.Bingbot {
			who += " crawlers"
		}
		return "robots.txt, " + who
	case XRobotsTag:
		return "X-Robots-Tag"
	}
	return it.Who
}

// shown is a value as the text and Markdown reports print it: "(none)" for none, at most about 80
// characters of it.
func shown(v string) string {
	if v == "" {
		return "(none)"
	}
	return excerpt.Cut(v)
}

// state is what happens to a URL's place in the index: "leaves the index: noindex", "enters the
// index", "".
func state(c *Change) string {
	switch {
	case len(c.Left) > 0:
		s := "leaves the index: " + c.Why
		if len(c.Left) < len(indexability.SearchEngines) {
			s = "leaves " + c.Left[0] + "'s index: " + c.Why
		}
		return s
	case len(c.Joined) > 0 && c.Items[0].Aspect != Added:
		if len(c.Joined) < len(indexability.SearchEngines) {
			return "enters " + c.Joined[0] + "'s index"
		}
		return "enters the index"
	}
	return ""
}

func textChange(c *Change) string {
	var b strings.Builder
	b.WriteString(c.URL)
	if c.Home {
		b.WriteString("  (home page)")
	}
	if s := state(c); s != "" {
		b.WriteString("  " + s)
	}
	b.WriteByte('\n')
	for _, it := range c.Items {
		switch it.Aspect {
		case Added:
			fmt.Fprintf(&b, "  added: %s", it.New)
		case Removed:
			fmt.Fprintf(&b, "  removed: %s", it.Old)
		default:
			fmt.Fprintf(&b, "  %s: %s -> %s", label(it), shown(it.Old), shown(it.New))
		}
		if it.Source.Text != "" {
			fmt.Fprintf(&b, "  (%s)", excerpt.Cut(it.Source.Text))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// headline is the few changes that matter most, as phrases: "12 URLs leave the index", "3 URLs
// leave the sitemap", "robots.txt now blocks googlebot from 40 URLs (public/robots.txt:5: Disallow:
// /docs/)".
func headline(s *Summary) []string {
	var out []string
	if s.LeaveIndex > 0 {
		out = append(out, plural(s.LeaveIndex, "URL")+verb(s.LeaveIndex, " leaves", " leave")+" the index")
	}
	for _, h := range s.Home {
		if h.Why == string(Removed) {
			out = append(out, "the home page "+h.URL+" is removed")
		} else {
			out = append(out, "the home page "+h.URL+" leaves the index")
		}
	}
	if s.LeaveSitemap > 0 {
		out = append(out, plural(s.LeaveSitemap, "URL")+verb(s.LeaveSitemap, " leaves", " leave")+" the sitemap")
	}
	for _, l := range s.RobotsTxt {
		if l.Blocks && (l.Who == indexability.Googlebot || l.Who == indexability.Bingbot) {
			out = append(out, robotsPhrase(l))
		}
	}
	if s.Removed > 0 {
		out = append(out, plural(s.Removed, "URL")+verb(s.Removed, " is", " are")+" removed")
	}
	return out
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// robotsPhrase is "robots.txt now blocks googlebot from 40 URLs (public/robots.txt:5: Disallow:
// /docs/)".
func robotsPhrase(l RobotsLine) string {
	who := l.Who
	if who != indexability.Googlebot && who != indexability.Bingbot {
		who += " crawlers"
	}
	s := "robots.txt now blocks " + who + " from " + plural(l.URLs, "URL")
	if !l.Blocks {
		s = "robots.txt now lets " + who + " fetch " + plural(l.URLs, "URL")
	}
	if l.Source.Text != "" {
		s += " (" + excerpt.Cut(l.Source.Text) + ")"
	}
	return s
}

// because is "9 noindex, 3 robots.txt".
func because(b Because) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{b.Noindex, "noindex"}, {b.RobotsTxt, "robots.txt"}, {b.Canonical, "canonical to another URL"}, {b.Class, "no longer a page"}} {
		if p.n > 0 {
			parts = append(parts, strconv.Itoa(p.n)+" "+p.what)
		}
	}
	return strings.Join(parts, ", ")
}

// others is "follow 4, snippet 2" for the aspects the summary's other lines do not count.
func others(s *Summary) string {
	var parts []string
	for _, a := range aspects {
		switch a {
		case Added, Removed, Class, Index, Sitemap, RobotsTxt:
			continue // counted by the lines before
		}
		if n := s.Aspects[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", a, n))
		}
	}
	return strings.Join(parts, ", ")
}

func textHead(rep *Report) string {
	s := rep.Summary
	var b strings.Builder
	if s.Changed == 0 {
		fmt.Fprintf(&b, "robotsmith diff: no change (%s)\n", plural(s.NewURLs, "URL"))
		return b.String()
	}
	fmt.Fprintf(&b, "robotsmith diff: %s -> %s: %s changed\n", plural(s.OldURLs, "URL"), plural(s.NewURLs, "URL"), plural(s.Changed, "URL"))
	if s.LeaveIndex > 0 || s.EnterIndex > 0 || s.OldIndexed != s.NewIndexed {
		fmt.Fprintf(&b, "  %s%s the index", plural(s.LeaveIndex, "URL"), verb(s.LeaveIndex, " leaves", " leave"))
		if s.LeaveIndex > 0 {
			fmt.Fprintf(&b, " (%s)", because(s.LeaveBecause))
		}
		fmt.Fprintf(&b, ", %d %s it; in the index: %s\n", s.EnterIndex, verb(s.EnterIndex, "enters", "enter"), indexCounts(s))
		for _, c := range s.Causes {
			fmt.Fprintf(&b, "    %d %s\n", c.URLs, causeText(c))
		}
		if s.OtherCauses > 0 {
			fmt.Fprintf(&b, "    %d by other causes\n", s.OtherCauses)
		}
	}
	for _, h := range s.Home {
		if h.Why == string(Removed) {
			fmt.Fprintf(&b, "  the home page %s is removed\n", h.URL)
			continue
		}
		fmt.Fprintf(&b, "  the home page %s leaves the index: %s", h.URL, h.Why)
		if h.Source.Text != "" {
			fmt.Fprintf(&b, " (%s)", excerpt.Cut(h.Source.Text))
		}
		b.WriteByte('\n')
	}
	if s.LeaveSitemap > 0 || s.EnterSitemap > 0 {
		fmt.Fprintf(&b, "  %s%s the sitemap, %d %s it: %d -> %d listed\n", plural(s.LeaveSitemap, "URL"), verb(s.LeaveSitemap, " leaves", " leave"),
			s.EnterSitemap, verb(s.EnterSitemap, "enters", "enter"), s.OldListed, s.NewListed)
	}
	for _, l := range s.RobotsTxt {
		fmt.Fprintf(&b, "  %s\n", robotsPhrase(l))
	}
	if s.OtherRobotsTxt > 0 {
		fmt.Fprintf(&b, "  robots.txt changes its verdict on %s more at other lines\n", plural(s.OtherRobotsTxt, "URL"))
	}
	if s.Added > 0 || s.Removed > 0 {
		fmt.Fprintf(&b, "  %s added, %d removed\n", plural(s.Added, "URL"), s.Removed)
	}
	if o := others(s); o != "" {
		fmt.Fprintf(&b, "  other changes (URLs): %s\n", o)
	}
	b.WriteByte('\n')
	return b.String()
}

// indexCounts is "23 -> 0" when the search engines' indexes change alike, else "googlebot 23 ->
// 13, bingbot 23 -> 23".
func indexCounts(s *Summary) string {
	alike := true
	for _, e := range s.Engines {
		alike = alike && e == Engine{Engine: e.Engine, Old: s.Engines[0].Old, New: s.Engines[0].New}
	}
	if alike {
		return fmt.Sprintf("%d -> %d", s.Engines[0].Old, s.Engines[0].New)
	}
	var parts []string
	for _, e := range s.Engines {
		parts = append(parts, fmt.Sprintf("%s %d -> %d", e.Engine, e.Old, e.New))
	}
	return strings.Join(parts, ", ")
}

// causeText is a cause as the summary prints it: "noindex: rule 2 at robotsmith.yaml:14 (first
// /blog/a/)", "canonical to /blog/ (noindex) (first /blog/a/, public/blog/a/index.html:6)".
func causeText(c Cause) string {
	switch {
	case c.Why == string(indexability.OutCanonical):
		return fmt.Sprintf("canonical to %s (first %s, %s)", excerpt.Cut(c.What), c.First, shownSource(c.Source))
	case c.What != "":
		return fmt.Sprintf("%s: %s (first %s)", c.Why, excerpt.Cut(c.What), c.First)
	}
	return fmt.Sprintf("%s: %s (first %s)", c.Why, shownSource(c.Source), c.First)
}

// shownSource is a source as the summary prints it: "(no source)" for none.
func shownSource(s indexability.Source) string {
	if s.Text == "" {
		return "(no source)"
	}
	return excerpt.Cut(s.Text)
}
