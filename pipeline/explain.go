package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/robotsmith/robotsmith/site"
)

// ErrUnknownPath is returned (wrapped) by Explain for a path that is not in the output.
var ErrUnknownPath = errors.New("not in the output")

// Explanation is `robotsmith explain` for one path.
type Explanation struct {
	Query   string   `json:"query"`                  // as asked
	URL     string   `json:"url"`                    // URL path as served
	File    string   `json:"file"`                   // the output file
	Source  string   `json:"source"`                 // the source page, "" when none
	AliasOf string   `json:"alias_of,omitempty"`     // for an alias stub: the source page it redirects to
	Class   string   `json:"class"`                  // public, noindex, error page, redirect, file
	Rules   []string `json:"rules"`                  // matching config rules: "rule 2 at robotsmith.yaml:14"
	Agents  []Agent  `json:"agents"`                 // the effective directives per agent
	Tags    []Tag    `json:"tags"`                   // what the page gets (pages only)
	Header  []string `json:"x_robots_tag,omitempty"` // X-Robots-Tag lines in _headers (files; pages with headers.html)
}

// Agent is one agent's effective directives, each with where it came from.
type Agent struct {
	Name   string  `json:"name"`
	Values []Value `json:"values"`
}

// Value is one directive and its source.
type Value struct {
	Token  string `json:"token"`
	Source string `json:"source"`
}

// Tag is one meta tag a page gets.
type Tag struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// Explain resolves each of paths (a URL path such as /blog/post/, or an output file) without
// writing anything, through the same step as build and check. Unknown paths are reported with
// ErrUnknownPath; the others are still explained.
func Explain(ctx context.Context, opt Options, paths []string) ([]Explanation, error) {
	opt.Write, opt.RunCommand = false, false
	j, err := prepare(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer j.close()
	var (
		out  []Explanation
		errs []error
		w    worker
	)
	for _, q := range paths {
		f, ok, err := j.lookup(q)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %w %s", q, ErrUnknownPath, j.site.Output))
			continue
		}
		e, err := j.explain(&w, q, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, e)
	}
	return out, errors.Join(errs...)
}

// lookup finds the output file for a URL path or a file path. A file the walk leaves out (a FIFO,
// a link outside the output) is an error saying why.
func (j *job) lookup(q string) (record, bool, error) {
	var candidates []string
	if strings.HasPrefix(q, "/") {
		rel := strings.TrimPrefix(q, "/")
		candidates = append(candidates, rel)
		if rel == "" || strings.HasSuffix(rel, "/") {
			candidates = append(candidates, rel+"index.html")
		} else {
			candidates = append(candidates, rel+"/index.html", rel+".html")
		}
	}
	// An output file, relative to the working directory or to the output folder.
	if rel, err := filepath.Rel(j.site.Output, q); err == nil && !strings.HasPrefix(rel, "..") {
		candidates = append(candidates, filepath.ToSlash(rel))
	}
	candidates = append(candidates, filepath.ToSlash(q))
	for _, c := range candidates {
		c = path.Clean("/" + c)[1:]
		if c == "" {
			continue
		}
		fi, err := j.root.Lstat(c)
		if err != nil || fi.IsDir() {
			continue
		}
		fl, warning, ok := j.classify(c, fi.Mode().Type())
		if !ok {
			return record{}, false, errors.New(warning)
		}
		r := newRecord("/" + c)
		r.flags |= fl
		return r, true, nil
	}
	return record{}, false, nil
}

func (j *job) explain(w *worker, q string, f record) (Explanation, error) {
	e := Explanation{Query: q, URL: f.url(), File: j.outName(f.rel())}
	for _, n := range j.res.Matching(f.url()) {
		e.Rules = append(e.Rules, j.cfg.RuleList[n-1].Source.String())
	}
	o := j.step(w, &f, true)
	if o.err == nil {
		o.err = j.sources[o.src].err()
	}
	if o.err != nil {
		return e, o.err
	}
	if o.src != nil {
		e.Source = o.src.Source
	} else if a := j.pages.Owner(f.rel()); a.Role == site.RoleAlias {
		e.AliasOf = a.Page.Source
	}
	d := o.decision
	e.Class = d.Class.String()
	switch {
	case f.link():
		e.Class = "a link to another file of the output (left as a link; decided as a file)"
	case !f.html():
		e.Class = "file"
	case f.skipped():
		e.Class = "not an HTML document (left alone)"
	}
	// The lines build writes to _headers: pages too with `headers: {html: true}`.
	for _, l := range j.headerLines(&f) {
		e.Header = append(e.Header, l.String())
	}
	for _, a := range d.Agents {
		ea := Agent{Name: a.Name}
		for _, v := range a.Values {
			ea.Values = append(ea.Values, Value{Token: v.Token, Source: v.Source.String()})
		}
		e.Agents = append(e.Agents, ea)
	}
	if f.html() && !f.skipped() {
		for _, t := range f.verdict.Directives.Tags {
			e.Tags = append(e.Tags, Tag{Name: t.Name, Content: t.Content})
		}
	}
	return e, nil
}

// Text is the human form of an explanation.
func (e Explanation) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%s)\n", e.URL, e.File)
	if e.Source != "" {
		fmt.Fprintf(&b, "  source page: %s\n", e.Source)
	}
	if e.AliasOf != "" {
		fmt.Fprintf(&b, "  alias of: %s\n", e.AliasOf)
	}
	fmt.Fprintf(&b, "  class: %s\n", e.Class)
	if len(e.Rules) > 0 {
		fmt.Fprintf(&b, "  matching rules: %s\n", strings.Join(e.Rules, "; "))
	}
	for _, a := range e.Agents {
		var toks []string
		for _, v := range a.Values {
			toks = append(toks, v.Token)
		}
		fmt.Fprintf(&b, "  %s: %s\n", a.Name, strings.Join(toks, ", "))
		for _, v := range a.Values {
			fmt.Fprintf(&b, "    %-28s %s\n", v.Token, v.Source)
		}
	}
	if len(e.Tags) > 0 {
		b.WriteString("  tags written:\n")
		for _, t := range e.Tags {
			fmt.Fprintf(&b, "    <meta name=%q content=%q>\n", t.Name, t.Content)
		}
	} else if strings.HasPrefix(e.Class, "error") || e.Class == "redirect" {
		b.WriteString("  tags written: none (existing robots tags are removed)\n")
	}
	for _, h := range e.Header {
		fmt.Fprintf(&b, "  X-Robots-Tag: %s\n", h)
	}
	return b.String()
}
