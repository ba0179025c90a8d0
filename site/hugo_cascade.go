package site

import (
	"slices"
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

// cascader applies the cascades of a site's branch pages and configuration to pages. It is only
// read once made, so pages are filled on many goroutines at once.
type cascader struct {
	h        *hugoConfig
	byBranch map[branchKey]*hugoSrc
	branches map[string][]*hugoSrc // dir -> its _index pages in every language
}

// cascader indexes the cascades the branch pages declare.
func (h *hugoConfig) cascader(branches []*hugoSrc) cascader {
	c := cascader{h: h, byBranch: map[branchKey]*hugoSrc{}, branches: map[string][]*hugoSrc{}}
	for _, p := range branches {
		c.byBranch[branchKey{p.lang, p.dir()}] = p
		c.branches[p.dir()] = append(c.branches[p.dir()], p)
	}
	return c
}

// apply fills the page's fields and inputs from the cascades that reach it, nearest first: the
// declaring branch page itself, then its ancestors, then the site config. Hugo fills a field from
// the nearest cascade that sets it. A cascade applies to pages of its branch page's language,
// unless its target names languages: then to pages of those languages, whichever language's
// branch page declares it (checked against Hugo 0.165). The page is a content page, or a list page
// Hugo makes without a content file.
func (c cascader) apply(p *hugoSrc) {
	if p.meta == nil {
		p.meta = map[string]any{}
	}
	dir := p.dir()
	if p.bundle {
		dir = parentDir(dir)
	}
	for {
		if b := c.byBranch[branchKey{p.lang, dir}]; b != nil {
			c.from(p, b.cascades, false)
		}
		for _, b := range c.branches[dir] {
			if b.lang != p.lang {
				c.from(p, b.cascades, true)
			}
		}
		if dir == "" {
			break
		}
		dir = parentDir(dir)
	}
	c.from(p, c.h.cascades, false)
}

func (c cascader) from(p *hugoSrc, cs []hugoCascade, otherLang bool) {
	for _, cc := range cs {
		if otherLang && !cc.langTargeted || !cc.matches(p, c.h.env) {
			continue
		}
		if len(p.inputs) == 0 {
			// The cascade's own inputs, shared by every page it reaches (clipped: a page that
			// takes more appends to a copy), so that a site's pages hold one slice per cascade
			// and the pipeline compiles it once.
			p.inputs = slices.Clip(cc.inputs)
		} else {
			p.inputs = append(p.inputs, cc.inputs...)
		}
		fill(p.meta, cc.values)
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
