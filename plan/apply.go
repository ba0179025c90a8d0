package plan

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
)

// An Applier applies a plan to output files one at a time, with the buffers it reuses from file to
// file: a run keeps a fixed number of them, one for each goroutine, so memory does not grow with
// the site's bytes. The zero value is ready to use.
type Applier struct {
	// Record also gives, in every Result, the decision with every value's source and the page's
	// links as written (Decision, Page): what the indexability record says of the file.
	Record bool

	proc   rewrite.Processor
	out    bytes.Buffer // the page rewritten, when it changes
	inputs []rules.Input
	links  []resolved // the page's canonical and hreflang links to URLs of the site
}

// Result is what applying the plan to a file found beyond the file's record.
type Result struct {
	// Out is the page's new content, to write in place of the file: nil when the page does not
	// change, and when it does but the source it takes its decision from has a malformed value
	// (Source.Err: fail closed, the page is left as it is). It is the Applier's buffer, good until
	// its next Apply.
	Out      []byte
	Warnings []problem.Problem
	// Err says why the file could not be decided (a malformed value of the page's own robots tags;
	// a page that could not be scanned): its record has no verdict, or the one decided without it.
	Err error
	// links are the page's links to URLs of the site, for the run's table (Links.Keep).
	links []resolved

	// With Explain, what explain shows besides: the decision with every value's source, the
	// configuration's rules that match the file, and, for an HTML document, its links and <base>
	// as written (explain shows every link, those to other sites too).
	Decision rules.Decision
	Matches  []rules.Matched
	Page     *rewrite.Page
}

// Apply is the one per-file step of every command: scan the page src once, decide it, splice the
// decision into it (rewrite's three calls). It fills in f's record (verdict, flags, the line of its
// noindex tag; never its path, which other goroutines read meanwhile), and returns the page's new
// content when it changes. files are the output's files, sorted by path, which the page's links
// name by index. A file that is not an HTML page (Record.Opened), a link to another file of the
// output among them, is decided by its path and page alone: src is not read. A page that is not
// an HTML document is decided as a file, and left byte-identical.
func (a *Applier) Apply(p *Plan, f *Record, src []byte, files []Record) Result {
	return a.apply(p, f, src, files, false)
}

// Explain is Apply, with the decision's every value and source, and the page's links, in the
// Result.
func (a *Applier) Explain(p *Plan, f *Record, src []byte, files []Record) Result {
	return a.apply(p, f, src, files, true)
}

func (a *Applier) apply(p *Plan, f *Record, src []byte, files []Record, full bool) (r Result) {
	var (
		kinds []string
		lang  string
		s     *Source
	)
	if pi := p.pageOf(f); pi != nil {
		kl := p.kindLangs[pi.kl]
		kinds, lang, s = kl.kinds, kl.lang, pi.src
	}
	// The third source, ai.meta's noai, is for HTML pages alone: cs[:2] decides files.
	cs := []*rules.Compiled{nil, p.env, p.aiMeta}
	if s != nil {
		cs[0] = s.inputs
	}
	// What the file is decided as; a page adds the tags it carries.
	file := rules.Item{Path: f.URL(), Kinds: kinds, Lang: lang, Compiled: cs[:2], Asset: true}
	if !f.Opened() {
		r.decide(p, f, file, full, a.Record)
		return r
	}
	name := p.OutName(f.Rel())
	pg, err := a.proc.Scan(src, func(meta string) bool { return p.res.IsAgent(meta, cs...) })
	if err != nil {
		// rewrite fails only on a broken invariant of its own.
		r.Err = problem.Wrap(problem.InternalError, problem.Position{File: name}, err)
		return r
	}
	if !pg.HTML {
		// Not an HTML document (a `layout: null` fragment): it cannot carry a tag, so it is
		// decided as a file, and its decision goes to _headers as X-Robots-Tag.
		f.flags |= isSkipped
		r.decide(p, f, file, full, a.Record)
		return r
	}
	a.links = p.pageLinks(a.links[:0], f, files, pg)
	f.tagLine = 0
	if !p.cfg.ReplaceExisting() {
		f.tagLine = noindexTagLine(pg.Tags)
	}
	if full || a.Record {
		r.Page = &rewrite.Page{Links: pg.Links, Base: pg.Base, Redirect: pg.Redirect}
	}
	it := file
	it.Compiled, it.Asset, it.Inputs, it.Redirect = cs, false, a.pageInputs(p, name, pg), pg.Redirect
	if !r.decide(p, f, it, full, a.Record) {
		return r
	}
	changed, err := a.proc.Splice(&a.out, f.verdict.Directives)
	if err != nil {
		r.Err = problem.Wrap(problem.InternalError, problem.Position{File: name}, err)
		return r
	}
	r.links = a.links
	if !changed {
		return r
	}
	f.flags |= isChanged
	if s.Err() == nil {
		// A malformed value of its source fails the run (SPEC: fail closed): the page is not
		// written. A build fails whole; watch mode writes the batch's other files.
		r.Out = a.out.Bytes()
	}
	return r
}

// decide records the verdict of it in f (and, with full, the whole decision and the rules that
// match in r; with sources, the whole decision), and reports whether the file may be rewritten:
// not when one of its values is malformed.
func (r *Result) decide(p *Plan, f *Record, it rules.Item, full, sources bool) bool {
	v, ws, err := p.memo.Verdict(it)
	for _, w := range ws {
		r.Warnings = append(r.Warnings, w.Problem())
	}
	f.verdict, r.Err = v, err
	if full || sources {
		r.Decision, _, _ = p.res.Decide(it)
	}
	if full {
		r.Matches = p.res.Matching(it)
	}
	return err == nil
}

// noindexTagLine is the line of the first of a page's robots tags that says noindex (or none),
// 0 when none does.
func noindexTagLine(tags []rewrite.Found) int32 {
	for _, t := range tags {
		for v := range strings.SplitSeq(t.Content, ",") {
			v = strings.ToLower(strings.TrimSpace(v))
			if v == "noindex" || v == "none" {
				return int32(t.Line)
			}
		}
	}
	return 0
}

// pageInputs are the robots tags the page already carries, as inputs (unless `existing: replace`).
func (a *Applier) pageInputs(p *Plan, file string, pg rewrite.Page) []rules.Input {
	a.inputs = a.inputs[:0]
	if p.cfg.ReplaceExisting() || len(pg.Tags) == 0 {
		return nil
	}
	for _, t := range pg.Tags {
		a.inputs = append(a.inputs, rules.Input{Agent: t.Name, Value: t.Content, Source: rules.Source{
			Kind: rules.FromPage, File: file, Line: t.Line, Key: t.Name,
		}})
	}
	return a.inputs
}

// OutName names the output file rel (a slash path relative to the output folder) the way messages
// show it: under the output folder as given, relative to the working directory.
func (p *Plan) OutName(rel string) string {
	return filepath.ToSlash(filepath.Join(p.site.Output, filepath.FromSlash(rel)))
}

// HeaderLines are the X-Robots-Tag lines _headers gives the file f once Apply decided it: none for
// a file whose lines mean what the defaults mean (a theme's `index, follow` needs no rule), for
// pages unless `headers: {html: true}`, and for error pages and redirect stubs.
func (p *Plan) HeaderLines(f *Record) []rules.HeaderLine {
	v := f.verdict
	switch {
	case v == nil:
		return nil
	case f.Skipped():
		// decided as a file: a fragment's noindex is sent as X-Robots-Tag
	case f.HTML() && !(p.cfg.Headers.HTML && (v.Class == rules.Public || v.Class == rules.NonPublic)):
		return nil
	}
	if slices.Equal(v.Lines, p.defaultLines) {
		return nil
	}
	return v.Lines
}

// NoindexBy is where a file's noindex comes from, as a finding names it: the source, and what it
// says of it ("rule 1 at robotsmith.yaml:3 (kind: posts)", a rule with the selectors that chose the
// file; else the source's own String).
type NoindexBy struct {
	rules.Source
	text string
}

func (b NoindexBy) String() string { return b.text }

// NoindexSource is where the file f's noindex for agent ("robots": every crawler) comes from, for
// the file's side of a finding: the rule, cascade, front matter or environment that says it
// (decided again from the compiled sources alone, which reads no file, with the file's kind and
// language as Apply decides it, so that a rule's kind and lang select it as they did), else the
// robots tag the page carries (its line, from Apply's scan), else the output file itself.
func (p *Plan) NoindexSource(f *Record, agent string) NoindexBy {
	it := rules.Item{Path: f.URL(), Compiled: []*rules.Compiled{nil, p.env}, Asset: !f.HTML() || f.Skipped()}
	if pi := p.pageOf(f); pi != nil {
		kl := p.kindLangs[pi.kl]
		it.Kinds, it.Lang = kl.kinds, kl.lang
		if pi.src != nil {
			it.Compiled[0] = pi.src.inputs
		}
	}
	d, _, _ := p.res.Decide(it)
	a, ok := d.Agent(agent)
	if !ok {
		a, ok = d.Agent("robots")
	}
	if ok {
		for _, v := range a.Values {
			if v.Token != "noindex" {
				continue
			}
			by := NoindexBy{v.Source, v.Source.String()}
			if v.Source.Kind == rules.FromRule && v.Source.Rule > 0 {
				for _, m := range p.res.Matching(it) {
					if m.Rule == v.Source.Rule {
						m.Source = v.Source // the value's own line, with the rule's selectors
						by.text = m.String()
						break
					}
				}
			}
			return by
		}
	}
	s := rules.Source{Kind: rules.FromPage, File: p.OutName(f.Rel()), Line: int(f.tagLine)}
	return NoindexBy{s, s.String()}
}
