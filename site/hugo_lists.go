package site

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/gobuffalo/flect"
)

// madeLists are the pages Hugo makes without a content file, in each language (checked against
// Hugo 0.165 by the integration test): the home; each top-level section a language has a
// content file in (a draft's too); each configured taxonomy, whether or not a page uses it; each
// term a page of that language uses; and the 404 page. A branch page with a content file is
// not made again. Their kind and language are Hugo's, so that rules can select them; their
// files, output formats and pager pages are worked out like a content page's. tops are the
// top-level folders that hold a page, by language; terms are the terms pages use, in the order
// first used.
func (h *hugoConfig) madeLists(tops map[branchKey]bool, terms []hugoTerm, sections map[sectionKey]*hugoSrc) []*hugoSrc {
	var out []*hugoSrc
	add := func(lang, kind, dir, p, title string) {
		if h.disableKinds[kind] || sections[sectionKey{lang, p}] != nil {
			return
		}
		out = append(out, &hugoSrc{hugoFile: h.madeFile(lang, dir), lang: lang,
			kind: kind, path: p, section: p, title: title})
	}
	for _, l := range h.langs {
		add(l.code, "home", "", "/", "")
		add(l.code, "404", "", "/404", "404 Page not found")
		for _, top := range sortedTops(tops, l.code) {
			if _, ok := h.taxonomiesOf(l.code)[h.normPath(top)]; !ok {
				add(l.code, "section", top, "/"+h.normPath(top), h.sectionTitle(top))
			}
		}
		for _, plural := range sortedKeys(h.taxonomiesOf(l.code)) {
			add(l.code, "taxonomy", plural, "/"+plural, plural)
		}
		for _, t := range terms {
			if t.lang == l.code {
				p := "/" + t.plural + "/" + h.normPath(t.term)
				add(l.code, "term", strings.TrimPrefix(p, "/"), p, t.term)
			}
		}
	}
	for _, p := range out {
		if p.kind == "404" {
			p.section = "/"
		}
	}
	return out
}

// hugoTerm is one term of a taxonomy that a page of a language uses.
type hugoTerm struct{ lang, plural, term string }

// sectionTitle is the title Hugo gives a section without a content file: its folder's name,
// pluralised unless pluralizeListTitles is off (with the inflection library Hugo uses).
func (h *hugoConfig) sectionTitle(dir string) string {
	title := path.Base(dir)
	if h.pluralizeTitles {
		title = flect.Pluralize(title)
	}
	return title
}

// sourceless is what Hugo writes for a page it made without a content file.
func (g hugoGen) sourceless(p *hugoSrc, sections map[sectionKey]*hugoSrc) (Page, bool, error) {
	h := g.s.hugo
	// Hugo fills a page it makes from the cascades that reach it, as any other (cascader.apply).
	pg := Page{Inputs: p.inputs}
	pg.SetClass(p.kind, p.lang, "")
	d, err := h.descriptor(p, sections)
	if err != nil {
		return pg, false, nil
	}
	formats, err := h.pageFormats(p.kind, p.meta)
	if err != nil {
		// It has no front matter: its outputs came from a cascade.
		return pg, false, fmt.Errorf("the %s pages Hugo makes without a content file: a cascade's %w", p.kind, err)
	}
	if p.kind == "404" {
		formats = []hugoFormat{h.formats["404"]}
	}
	h.place(&pg, d, formats)
	if p.kind == "404" {
		f := pg.Extra.Formats[0].File
		pg.Output, pg.URL, pg.Extra = f, "/"+f, nil
	}
	return pg, pg.Output != "" || pg.Extra != nil, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedTops(tops map[branchKey]bool, lang string) []string {
	var out []string
	for k := range tops {
		if k.lang == lang {
			out = append(out, k.dir)
		}
	}
	sort.Strings(out)
	return out
}
