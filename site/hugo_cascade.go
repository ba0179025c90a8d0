package site

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoCascade is one cascade entry, from a branch page's front matter or the site configuration,
// decoded by frontmatter's one cascade decoder: the values it fills and which pages it targets.
type hugoCascade struct {
	glob   string
	kind   string
	lang   string // a glob over language codes; "" for any
	env    string
	values map[string]any // lower-case keys, for filling the page's fields
	inputs []rules.Input  // its robots keys, read (and their problems reported) once
	// langTargeted says the entry names languages (sites.matrix.languages): it then reaches pages
	// of those languages from any language's branch page.
	langTargeted bool
}

func newHugoCascade(c frontmatter.Cascade) hugoCascade {
	vals, _ := c.Values.Any(true).(map[string]any)
	hc := hugoCascade{
		glob: c.Target.Path, kind: strings.ToLower(c.Target.Kind),
		lang: strings.ToLower(c.Target.Lang), env: strings.ToLower(c.Target.Environment),
		values: vals, inputs: c.Inputs,
	}
	// Hugo v0.150 replaced lang with sites.matrix.languages (a list of globs).
	if ls := c.Target.Languages; len(ls) > 0 {
		hc.lang = "{" + strings.ToLower(strings.Join(ls, ",")) + "}"
	}
	hc.langTargeted = hc.lang != ""
	return hc
}

// readCascades decodes the site configuration's cascade (key k of the file doc).
func (h *hugoConfig) readCascades(doc *frontmatter.Document, k frontmatter.Key) error {
	cs, err := doc.CascadesAt(k)
	for _, c := range cs {
		h.cascades = append(h.cascades, newHugoCascade(c))
	}
	h.warnings = append(h.warnings, doc.Warnings...)
	return err
}

func (c hugoCascade) matches(p *hugoSrc, env string) bool {
	if c.kind != "" && !globMatch(c.kind, p.kind) {
		return false
	}
	if c.lang != "" && !globMatch(c.lang, p.lang) {
		return false
	}
	if c.env != "" && !globMatch(c.env, env) {
		return false
	}
	if c.glob != "" && !globMatch(strings.ToLower(c.glob), p.path) {
		return false
	}
	return true
}

func globMatch(glob, s string) bool {
	ok, err := doublestar.Match(glob, s)
	return err == nil && ok
}

// branchKey names a branch page: its language and its folder under the content tree.
type branchKey struct{ lang, dir string }

// applyCascades fills each page's fields and inputs from the cascades that reach it, nearest
// first: the declaring branch page itself, then its ancestors, then the site config. Hugo fills a
// field from the nearest cascade that sets it. A cascade applies to pages of its branch page's
// language, unless its target names languages: then to pages of those languages, whichever
// language's branch page declares it (checked against Hugo 0.165). The cascades are those the
// branch pages of srcs declare; they are applied to targets (srcs themselves, or the list pages
// Hugo makes without a content file).
func (h *hugoConfig) applyCascades(srcs, targets []*hugoSrc) {
	byBranch := map[branchKey]*hugoSrc{}
	branches := map[string][]*hugoSrc{} // dir -> its _index pages in every language
	for _, p := range srcs {
		if p.base == "_index" {
			byBranch[branchKey{p.lang, p.dir}] = p
			branches[p.dir] = append(branches[p.dir], p)
		}
	}
	for _, p := range targets {
		p.meta = make(map[string]any, len(p.own))
		for k, v := range p.own {
			p.meta[k] = v
		}
		dir := p.dir
		if p.bundle {
			dir = parentDir(dir)
		}
		for {
			if b := byBranch[branchKey{p.lang, dir}]; b != nil {
				h.applyFrom(p, b.cascades, false)
			}
			for _, b := range branches[dir] {
				if b.lang != p.lang {
					h.applyFrom(p, b.cascades, true)
				}
			}
			if dir == "" {
				break
			}
			dir = parentDir(dir)
		}
		h.applyFrom(p, h.cascades, false)
	}
}

func (h *hugoConfig) applyFrom(p *hugoSrc, cs []hugoCascade, otherLang bool) {
	for _, c := range cs {
		if otherLang && !c.langTargeted || !c.matches(p, h.env) {
			continue
		}
		p.inputs = append(p.inputs, c.inputs...)
		fill(p.meta, c.values)
	}
}

// fill sets the keys of src that dst does not have.
func fill(dst, src map[string]any) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
}
