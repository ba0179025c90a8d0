package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/robotsmith/robotsmith/rewrite"
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
// writing anything. Unknown paths are reported with ErrUnknownPath; the others are still explained.
func Explain(ctx context.Context, opt Options, paths []string) ([]Explanation, error) {
	opt.Write, opt.RunCommand = false, false
	j, err := prepare(ctx, opt)
	if err != nil {
		return nil, err
	}
	var (
		out  []Explanation
		errs []error
	)
	for _, q := range paths {
		f, ok := j.lookup(q)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %w %s", q, ErrUnknownPath, j.site.Output))
			continue
		}
		e, err := j.explain(q, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, e)
	}
	return out, errors.Join(errs...)
}

// lookup finds the output file for a URL path or a file path.
func (j *job) lookup(q string) (file, bool) {
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
		if fi, err := os.Stat(filepath.Join(j.site.Output, filepath.FromSlash(c))); err == nil && !fi.IsDir() {
			return newFile(c), true
		}
	}
	return file{}, false
}

func (j *job) explain(q string, f file) (Explanation, error) {
	e := Explanation{Query: q, URL: f.url, File: j.outName(f.rel)}
	for _, n := range j.res.Matching(f.url) {
		e.Rules = append(e.Rules, j.cfg.RuleList[n-1].Source.String())
	}
	if p := j.sourcePage(f); p != nil {
		e.Source = p.Source
	} else if o := j.pages.Owner(f.rel); o.Role == site.RoleAlias {
		e.AliasOf = o.Page.Source
	}
	var pg rewrite.Page
	if f.html {
		src, err := os.ReadFile(filepath.Join(j.site.Output, filepath.FromSlash(f.rel)))
		if err != nil {
			return e, err
		}
		if pg, err = rewrite.Scan(bytes.NewReader(src), j.agents); err != nil {
			return e, err
		}
	}
	d, _, err := j.res.Decide(j.item(f, pg))
	if err != nil {
		return e, err
	}
	e.Class = d.Class.String()
	r := result{f: f, decision: d}
	if !f.html {
		e.Class = "file"
	} else if !pg.HTML {
		e.Class = "not an HTML document (left alone)"
		r.skipped = true
	}
	// The lines build writes to _headers: pages too with `headers: {html: true}`.
	e.Header = j.headerLines(&r)
	for _, a := range d.Agents {
		ea := Agent{Name: a.Name}
		for _, v := range a.Values {
			ea.Values = append(ea.Values, Value{Token: v.Token, Source: v.Source.String()})
		}
		e.Agents = append(e.Agents, ea)
	}
	if f.html && pg.HTML {
		for _, t := range d.Directives().Tags {
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
