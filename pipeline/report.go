package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
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
	// headerFiles names the host files the rules went to, for the summary: "" for _headers alone,
	// "vercel.json, robotsmith.nginx.conf", or why no host sends them.
	headerFiles string

	Changed      int      `json:"changed"`       // files written (build) or that build would write (check)
	ChangedFiles []string `json:"changed_files"` // their paths, relative to the output folder
	Wrote        bool     `json:"wrote"`         // build wrote files

	// Warnings are unknown or obsolete values, each naming its source, and the warnings among the
	// findings: problems of severity problem.Warning.
	Warnings []problem.Problem `json:"warnings"`
	// Findings are the contradictions of the site's signals (SPEC §7) and the other problems of
	// severity problem.Finding (with --strict, the warnings too, raised): check exits 1 on any.
	Findings []problem.Problem `json:"findings"`
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
		rep.Findings = append(rep.Findings, *problem.Newf(problem.PageOutputMissing, problem.Position{File: m.Source},
			"no output found (expected %s)", p.OutName(m.File)))
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
// Warnings and findings are printed unindented, in the form editors jump to, with their code and
// name (problem.Problem.Text).
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
	in := "_headers"
	if rep.headerFiles != "" {
		in = rep.headerFiles
	}
	fmt.Fprintf(&b, "\n%s, %d with an X-Robots-Tag rule in %s\n", Plural(rep.Files, "other file"), rep.HeaderRules, in)
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
			fmt.Fprintf(&b, "%s\n", w.Text())
		}
	}
	if n := len(rep.Findings); n > 0 {
		fmt.Fprintf(&b, "%s:\n", Plural(n, "finding"))
		for _, f := range rep.Findings {
			fmt.Fprintf(&b, "%s\n", f.Text())
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

// Message is a problem as the JSON report gives it (docs/reference/json-report.md): its code and
// name, severity, place, message, and the other side where there is one. A GitHub Actions
// workflow command and a SARIF result are renderings of the same problem.
type Message struct {
	Code     string `json:"code"`     // RS0103
	Name     string `json:"name"`     // noindex-blocked-by-robots-txt
	Severity string `json:"severity"` // error, finding or warning
	File     string `json:"file"`     // the file it is about, as printed; "" when none
	Line     int    `json:"line"`     // 1-based; 0 when not known
	Col      int    `json:"col"`      // 1-based; 0 when not known
	Message  string `json:"message"`  // what is wrong and what to do, without its place or code
	// Related are the other side, where the problem has two: the robots.txt line that disallows a
	// noindex page, the first of two lines that say the same.
	Related []RelatedMessage `json:"related"`
}

// RelatedMessage is the other side of a problem: a place and what is there.
type RelatedMessage struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// MessageOf is p as the JSON report gives it.
func MessageOf(p problem.Problem) Message {
	m := Message{Code: p.Code.String(), Name: p.Code.Name(), Severity: p.Severity.String(),
		File: p.File, Line: p.Line, Col: p.Col, Message: p.Msg, Related: []RelatedMessage{}}
	for _, r := range p.Related {
		m.Related = append(m.Related, RelatedMessage{File: r.File, Line: r.Line, Col: r.Col, Message: r.Msg})
	}
	return m
}

// Messages are ps as the JSON report gives them; [] for none.
func Messages(ps []problem.Problem) []Message {
	out := make([]Message, 0, len(ps))
	for _, p := range ps {
		out = append(out, MessageOf(p))
	}
	return out
}

// Problems are the problems err holds, one for each error a run joined (problem.List), each with
// its code: an error of none of its own (the system's, ctx's) is of code problem.Interrupted,
// problem.IOError or problem.InternalError (coded).
func Problems(err error) []problem.Problem { return problem.List(coded(err)) }

// coded is err with a code on every error it joins, as a command reports it: those with none of
// their own are wrapped (problem.Wrap) with the code of what they are, so that errors.Is and
// errors.As still see what they wrap. Run, Explain and watch mode return their errors coded.
func coded(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(problem.Lister); !ok {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			parts := j.Unwrap()
			out := make([]error, len(parts))
			for i, e := range parts {
				out[i] = coded(e)
			}
			return errors.Join(out...)
		}
	}
	if problem.CodeOf(err) != 0 {
		return err
	}
	var (
		pe *fs.PathError
		le *os.LinkError
		se *os.SyscallError
		no syscall.Errno
	)
	code := problem.InternalError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		code = problem.Interrupted
	case errors.As(err, &pe), errors.As(err, &le), errors.As(err, &se), errors.As(err, &no):
		code = problem.IOError
	}
	return problem.Wrap(code, problem.Position{}, err)
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
	}{d.Command, d.Version, d.OK, rep, un, Messages(Problems(d.Err)), Messages(rep.Warnings), Messages(rep.Findings)}
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
	}{d.Command, d.Version, d.OK, paths, Messages(Problems(d.Err))}
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
