package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/rules"
)

// Report is what a build or check did. With --json it is printed as a Document; its field names are
// part of the user contract (docs/reference/json-report.md, schema/report.schema.json).
type Report struct {
	Site      string `json:"site"`      // the site's root folder
	Config    string `json:"config"`    // the configuration file read, "" for none
	Generator string `json:"generator"` // hugo, jekyll or none
	Output    string `json:"output"`    // the output folder
	// Symlinks are the symbolic links followed to the site's folder and the output folder (SPEC
	// §1), each with the folder it names.
	Symlinks []Symlink `json:"symlinks"`

	Pages      int `json:"pages"`       // HTML documents seen
	Public     int `json:"public"`      // pages with the public (three-tag or single-tag) form
	NoIndex    int `json:"noindex"`     // pages with the noindex-only form
	ErrorPages int `json:"error_pages"` // error pages (no robots tag)
	Redirects  int `json:"redirects"`   // redirect stubs (no robots tag)
	Skipped    int `json:"skipped"`     // .html files left byte-identical: not HTML documents, or links
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

// Symlink is a symbolic link followed to a folder of the run: the site's folder or the output
// folder given as a link (or a path through one), and the folder it names, every link on the way
// resolved.
type Symlink struct {
	Path   string `json:"path"`   // as given: "site/public"
	Target string `json:"target"` // the folder robotsmith works in: "elsewhere"
}

// newReport is the report of a run of the plan p over the output out, before it counts anything.
func newReport(p *plan.Plan, out *output) *Report {
	return &Report{Site: p.Options().Root, Generator: p.Site().Generator, Output: out.name, Symlinks: out.symlinks, Config: p.Config().File}
}

// sources counts the source pages the generator publishes nothing for, and reports those whose
// output cannot be found (SPEC §2), by the output's files as listed (plan.Outputs.Unpublished).
func (rep *Report) sources(p *plan.Plan, pages *plan.Outputs, files []plan.Record) {
	unpublished, missing := pages.Unpublished(files)
	rep.NoOutput += len(unpublished)
	rep.Unpublished = append(rep.Unpublished, unpublished...)
	for _, m := range missing {
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s: no output found (expected %s)", m.Source, p.OutName(m.File)))
	}
}

// count counts the file in the report; listChanged lists it among ChangedFiles if it changed.
func (rep *Report) count(f *plan.Record) {
	if f.Changed() {
		rep.Changed++
	}
	v := f.Verdict()
	switch {
	case f.Skipped():
		rep.Skipped++
	case !f.HTML():
		rep.Files++
	case v == nil: // not processed: a read error, reported as such
	default:
		rep.Pages++
		switch v.Class {
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

// listChanged adds the files that changed to ChangedFiles. Run calls it once the build's
// transaction is committed and has let its entries go: a path a file is 16 bytes a changed file,
// 2 MB at 100,000 pages, which the run need not hold beside the transaction's.
func (rep *Report) listChanged(files []plan.Record) {
	for i := range files {
		if files[i].Changed() {
			rep.ChangedFiles = append(rep.ChangedFiles, files[i].Rel())
		}
	}
}

// maxShown is how many warnings the summary lists without -v; a theme's typo repeats on every page.
const maxShown = 20

// Summary is the few lines a person reads after a build (write) or check. Lists that are not
// problems (the changed files, the source pages a generator did not publish on purpose) are counted,
// and listed only when verbose; warnings are listed up to maxShown (all when verbose), findings all.
// Warnings and findings are printed unindented, in the form editors jump to (file:line: message).
func (rep *Report) Summary(write, verbose bool) string {
	var b strings.Builder
	for _, l := range rep.Symlinks {
		fmt.Fprintf(&b, "%s → %s (a symbolic link, followed)\n", l.Path, l.Target)
	}
	fmt.Fprintf(&b, "%s: %d public, %d noindex, %s, %s", Plural(rep.Pages, "page"), rep.Public, rep.NoIndex,
		Plural(rep.ErrorPages, "error page"), Plural(rep.Redirects, "redirect"))
	if rep.Skipped > 0 {
		fmt.Fprintf(&b, "; %s not HTML (left alone)", Plural(rep.Skipped, ".html file"))
	}
	fmt.Fprintf(&b, "\n%s, %d with an X-Robots-Tag rule in _headers\n", Plural(rep.Files, "other file"), rep.HeaderRules)
	verb := "changed"
	if !write {
		verb = "would change"
	}
	fmt.Fprintf(&b, "%s %s\n", verb, Plural(rep.Changed, "file"))
	if verbose {
		for _, f := range rep.ChangedFiles {
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	if rep.NoOutput > 0 {
		fmt.Fprintf(&b, "%s not published by the generator (drafts, future, expired, render: never)", Plural(rep.NoOutput, "source page"))
		if verbose {
			b.WriteString(":\n")
			for _, u := range rep.Unpublished {
				fmt.Fprintf(&b, "  %s\n", u)
			}
		} else {
			b.WriteString("; -v lists them\n")
		}
	}
	if n := len(rep.Warnings); n > 0 {
		fmt.Fprintf(&b, "%s:\n", Plural(n, "warning"))
		for i, w := range rep.Warnings {
			if i == maxShown && !verbose {
				fmt.Fprintf(&b, "... and %d more (-v or --json lists them all)\n", n-maxShown)
				break
			}
			fmt.Fprintf(&b, "%s\n", w)
		}
	}
	if n := len(rep.Findings); n > 0 {
		fmt.Fprintf(&b, "%s:\n", Plural(n, "finding"))
		for _, f := range rep.Findings {
			fmt.Fprintf(&b, "%s\n", f)
		}
	}
	return b.String()
}

// Plural is "1 page", "2 pages": n and the noun, with an s unless n is 1. Every noun robotsmith
// counts takes a plain s.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Severity is how bad a Message is.
type Severity string

// The severities. An error fails the command; a warning does not.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Message is one error, warning or finding with its place, as the JSON report and GitHub Actions
// workflow commands show it.
type Message struct {
	File     string   `json:"file"`     // the file it is about, as printed; "" when none
	Line     int      `json:"line"`     // 1-based; 0 when not known
	Col      int      `json:"col"`      // 1-based; 0 when not known
	Severity Severity `json:"severity"` // error or warning
	Message  string   `json:"message"`  // the text after the place
	Text     string   `json:"text"`     // the whole message as printed: "file:line: message"
}

// placeRE is the place at the start of a message in the form editors jump to: "file:line: " or
// "file:line:col: ". The file may hold spaces ("content/blog/Seasonal Offer.md:3: ...").
var placeRE = regexp.MustCompile(`^([^:\n]+):([0-9]+)(?::([0-9]+))?: `)

// ParseMessage splits text, a message robotsmith printed, into its place and message. Every message
// names its place first, in the form editors jump to (SPEC §1): "file:line:col: msg",
// "file:line: msg", or "file: msg" for a file without a line, where the file is a path (holds a '/'
// or a '.', and no blank). Anything else has no place.
func ParseMessage(sev Severity, text string) Message {
	m := Message{Severity: sev, Message: text, Text: text}
	if s := placeRE.FindStringSubmatch(text); s != nil {
		m.File = s[1]
		m.Line, _ = strconv.Atoi(s[2])
		m.Col, _ = strconv.Atoi(s[3])
		m.Message = text[len(s[0]):]
		return m
	}
	if file, msg, ok := strings.Cut(text, ": "); ok && file != "" && !strings.ContainsAny(file, " \t") && strings.ContainsAny(file, "/.") {
		m.File, m.Message = file, msg
	}
	return m
}

// ErrorMessages is err as Messages of severity error: one for each error that errors.Join put
// together, and one for each line of an error that spans lines.
func ErrorMessages(err error) []Message {
	var out []Message
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		for line := range strings.SplitSeq(e.Error(), "\n") {
			if line == "" {
				continue
			}
			m := ParseMessage(SeverityError, line)
			if errors.Is(e, ErrUnknownPath) {
				// It names the path asked for (/blog/post/), not a file.
				m.File, m.Line, m.Col, m.Message = "", 0, 0, line
			}
			out = append(out, m)
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

// Messages are the report's warnings (severity warning) and findings (severity error: they fail
// check) as Messages.
func (rep *Report) Messages() (warnings, findings []Message) {
	for _, w := range rep.Warnings {
		warnings = append(warnings, ParseMessage(SeverityWarning, w))
	}
	for _, f := range rep.Findings {
		findings = append(findings, ParseMessage(SeverityError, f))
	}
	return warnings, findings
}

// Unpublished is a source page the generator writes nothing for, and why.
type Unpublished struct {
	Source string `json:"source"` // the source page: content/blog/wip.md
	Reason string `json:"reason"` // draft, future, expired, ...
}

// ParseUnpublished splits an entry of Report.Unpublished, "content/blog/wip.md (draft)".
func ParseUnpublished(s string) Unpublished {
	if i := strings.LastIndex(s, " ("); i >= 0 && strings.HasSuffix(s, ")") {
		return Unpublished{Source: s[:i], Reason: s[i+2 : len(s)-1]}
	}
	return Unpublished{Source: s}
}

// Document is the JSON report of `build --json` and `check --json`: the Report's fields, with its
// warnings, findings and unpublished pages as objects, and the run's errors. No field is ever null:
// an empty list is [] (SPEC §1). docs/reference/json-report.md documents every field and
// schema/report.schema.json describes them.
type Document struct {
	Command string  // build or check
	Version string  // robotsmith's version
	OK      bool    // the command exits 0
	Report  *Report // what was found; nil when the run stopped before the site was read
	Err     error   // every error, joined; nil for none
}

// MarshalJSON writes the document as one flat object.
func (d Document) MarshalJSON() ([]byte, error) {
	// Fields has Report's fields without its methods; the outer fields below replace the ones of the
	// same name. (Exported, so that emptyLists can set the embedded field.)
	type Fields Report
	var rep Fields
	if d.Report != nil {
		rep = Fields(*d.Report)
	}
	w, f := (*Report)(&rep).Messages()
	un := make([]Unpublished, 0, len(rep.Unpublished))
	for _, u := range rep.Unpublished {
		un = append(un, ParseUnpublished(u))
	}
	doc := struct {
		Command string `json:"command"`
		Version string `json:"version"`
		OK      bool   `json:"ok"`
		Fields
		Unpublished []Unpublished `json:"unpublished"`
		Errors      []Message     `json:"errors"`
		Warnings    []Message     `json:"warnings"`
		Findings    []Message     `json:"findings"`
	}{d.Command, d.Version, d.OK, rep, un, ErrorMessages(d.Err), w, f}
	return marshal(emptyLists(reflect.ValueOf(doc)).Interface())
}

// ExplainDocument is the JSON report of `explain --json`: one explanation for each path found, and
// the errors (unknown paths among them).
type ExplainDocument struct {
	Command string // explain
	Version string
	OK      bool
	Paths   []Explanation
	Err     error
}

// MarshalJSON writes the document as one object.
func (d ExplainDocument) MarshalJSON() ([]byte, error) {
	// Every field of an explanation is written, those empty too (Explanation leaves out an empty
	// alias_of and x_robots_tag).
	type Fields Explanation
	type path struct {
		Fields
		AliasOf string   `json:"alias_of"`
		Header  []string `json:"x_robots_tag"`
	}
	paths := make([]path, 0, len(d.Paths))
	for _, e := range d.Paths {
		paths = append(paths, path{Fields(e), e.AliasOf, e.Header})
	}
	doc := struct {
		Command string    `json:"command"`
		Version string    `json:"version"`
		OK      bool      `json:"ok"`
		Paths   []path    `json:"paths"`
		Errors  []Message `json:"errors"`
	}{d.Command, d.Version, d.OK, paths, ErrorMessages(d.Err)}
	return marshal(emptyLists(reflect.ValueOf(doc)).Interface())
}

// marshal is json.Marshal without HTML escaping: messages quote tags (`<meta name="robots">`), and a
// report is read by people and programs, never embedded in a page.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// emptyLists returns a copy of v in which every nil slice, at any depth of structs, slices and
// pointers, is an empty one, so that encoding/json writes [] and never null for a list. encoding/json
// has no option for this, and listing the slices by hand would miss the next field added.
func emptyLists(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(emptyLists(v.Index(i)))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if f := out.Field(i); f.CanSet() {
				f.Set(emptyLists(v.Field(i)))
			}
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(emptyLists(v.Elem()))
		return p
	}
	return v
}
