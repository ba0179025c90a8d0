package site

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	// Hugo matches a cascade's target with gobwas/glob, through its hglob package (a
	// PageMatcher, resources/page/page_matcher.go): the same library, compiled the same way,
	// matches the same pages, where doublestar's rules differ (Hugo's "/blog**" reaches
	// "/blog/a", its "/blog/**" does not reach "/blog").
	"github.com/gobwas/glob"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoCascade is one cascade entry, from a branch page's front matter or the site configuration,
// decoded by frontmatter's one cascade decoder: the values it fills and which pages it targets.
type hugoCascade struct {
	path, kind, env glob.Glob   // its target's globs (hugoGlob); nil for none
	langs           []glob.Glob // the languages it targets, any of them; nil for any
	values          map[string]any
	// inputs are its robots keys, read (and their problems reported) once; a key that its params
	// set too is replaced by that (Hugo fills a page from a cascade's params first).
	inputs []rules.Input
	sets   []hugoSetter // the robots parameters it sets
	// langTargeted says the entry names languages (sites.matrix.languages): it then reaches pages
	// of those languages from any language's branch page.
	langTargeted bool
}

// hugoSetter is a robots parameter that a page's front matter or a cascade sets, and the key that
// sets it. Hugo gives a page each parameter once, from the nearest place that sets it (the page's
// own front matter, then the cascades that reach it, nearest first): a robots input of the same
// parameter from a farther place is replaced by this key (SPEC §3.3).
type hugoSetter struct {
	param hugoParams   // one parameter's bit
	src   rules.Source // the key: a cascade's robots map as a whole, not one of its agents
}

// hugoParams is a set of the page parameters that robots keys set, one bit each; a page keeps the
// set its front matter sets in a byte.
type hugoParams uint8

// hugoParamNames are the page parameters robots keys set (frontmatter's keys of Hugo's dialect),
// by bit.
var hugoParamNames = [...]string{"robots", "noindex", "nofollow", "unavailable_after", "expirydate", "unpublishdate"}

// hugoParam is the page parameter a robots key sets (frontmatter.RobotsKey's Key, or an input's):
// Hugo lower-cases keys and flattens a page's (and a cascade's) params into its other
// parameters, and a robots map is one parameter: "params.Robots.googlebot" sets robots. 0 for a
// key that is not a robots key.
func hugoParam(key string) hugoParams {
	if underParams(key) {
		key = key[len("params."):]
	}
	name, _, _ := strings.Cut(key, ".")
	for i, n := range hugoParamNames {
		if strings.EqualFold(name, n) {
			return 1 << i
		}
	}
	return 0
}

// underParams reports whether a robots key is one of params.
func underParams(key string) bool { return len(key) > 7 && strings.EqualFold(key[:7], "params.") }

// hugoSetters appends to out the robots parameters that the keys of one map (a page's front
// matter, a cascade entry) set, each once: from its params first, as Hugo fills a page from a
// cascade's params before its other keys (for a page's own front matter it does not matter: both
// are its own). A key that says nothing sets nothing: robotsmith reads `robots:` with no value as
// the author saying nothing, and the inherited value stays (where Hugo gives the page an empty
// one).
func hugoSetters(out []hugoSetter, keys []frontmatter.RobotsKey) []hugoSetter {
	for _, params := range []bool{true, false} {
		for _, k := range keys {
			if k.Empty || underParams(k.Source.Key) != params {
				continue
			}
			p := hugoParam(k.Source.Key)
			if slices.ContainsFunc(out, func(s hugoSetter) bool { return s.param == p }) {
				continue
			}
			src := k.Source
			if k.In.Key != "" {
				src = k.In
			}
			out = append(out, hugoSetter{p, src})
		}
	}
	return out
}

// hugoGlob compiles a target's glob as Hugo's hglob.GetGlob does: the pattern lower-cased, with
// '/' as the only separator, so that '*' and '?' stay within a segment and '**' crosses them.
// Hugo adds nothing to the pattern (a path without a leading slash matches no page) and lower-cases
// what it matches (matches).
func hugoGlob(pattern string) (glob.Glob, error) {
	if pattern == "" {
		return nil, nil
	}
	return glob.Compile(strings.ToLower(pattern), '/')
}

// newHugoCascade compiles the cascade entry c of doc (a branch page's front matter, or the site
// configuration). A glob of its target that does not compile is an error at the entry's line, as
// Hugo stops the build on it.
func newHugoCascade(doc *frontmatter.Document, c frontmatter.Cascade) (hugoCascade, error) {
	vals, _ := c.Values.Any(true).(map[string]any)
	hc := hugoCascade{values: vals, sets: hugoSetters(nil, doc.RobotsKeys(nil, c.Values, rules.FromCascade))}
	var err error
	for _, g := range []struct {
		name, pattern string
		dst           *glob.Glob
	}{{"path", c.Target.Path, &hc.path}, {"kind", c.Target.Kind, &hc.kind}, {"environment", c.Target.Environment, &hc.env}} {
		if *g.dst, err = hugoGlob(g.pattern); err != nil {
			return hc, &frontmatter.Error{File: doc.File, Line: c.Line, Code: problem.CascadeInvalid, Err: fmt.Errorf("cascade: target: %s: %w", g.name, err)}
		}
	}
	// Hugo v0.150 replaced lang with sites.matrix.languages, a list of globs over language codes
	// (with '.' as the separator: hglob.GetGlobDot).
	langs := c.Target.Languages
	if c.Target.Lang != "" {
		langs = append(langs, c.Target.Lang)
	}
	for _, l := range langs {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		// Hugo also reads "! fr" (every language but fr) and ranges by weight ("> en"). A page they
		// select could be given a value robotsmith did not see: it stops, as on any cascade it
		// cannot read whole.
		for _, op := range []string{"! ", ">= ", "<= ", "== ", "!= ", "> ", "< "} {
			if strings.HasPrefix(l, op) {
				return hc, &frontmatter.Error{File: doc.File, Line: c.Line, Code: problem.CascadeTargetUnsupported, Err: fmt.Errorf("cascade: target: sites.matrix.languages: robotsmith does not read %q (a negation or a range): name the languages", strings.TrimSpace(op))}
			}
		}
		g, err := glob.Compile(strings.ToLower(l), '.')
		if err != nil {
			return hc, &frontmatter.Error{File: doc.File, Line: c.Line, Code: problem.CascadeInvalid, Err: fmt.Errorf("cascade: target: sites.matrix.languages: %w", err)}
		}
		hc.langs = append(hc.langs, g)
	}
	hc.langTargeted = len(hc.langs) > 0
	hc.inputs = c.Inputs
	for i, in := range c.Inputs {
		k := slices.IndexFunc(hc.sets, func(s hugoSetter) bool { return s.param == hugoParam(in.Source.Key) })
		if k >= 0 && underParams(hc.sets[k].src.Key) != underParams(in.Source.Key) {
			if &hc.inputs[0] == &c.Inputs[0] {
				hc.inputs = slices.Clone(c.Inputs)
			}
			hc.inputs[i].ReplacedBy = &hc.sets[k].src
		}
	}
	return hc, nil
}

// readCascades decodes the site configuration's cascade (key k of the file doc).
func (h *hugoConfig) readCascades(doc *frontmatter.Document, k frontmatter.Key) error {
	cs, err := doc.CascadesAt(k)
	errs := []error{err}
	for _, c := range cs {
		hc, err := newHugoCascade(doc, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		h.cascades = append(h.cascades, hc)
	}
	h.warnings = append(h.warnings, doc.Warnings...)
	return errors.Join(errs...)
}

// matches reports whether the cascade's target selects the page, as Hugo's PageMatcher.Match does:
// the page's path lower-cased, with a leading slash.
func (c hugoCascade) matches(p *hugoSrc, env string) bool {
	if c.kind != nil && !c.kind.Match(strings.ToLower(p.kind)) {
		return false
	}
	if c.langs != nil && !slices.ContainsFunc(c.langs, func(g glob.Glob) bool { return g.Match(strings.ToLower(p.lang)) }) {
		return false
	}
	if c.env != nil && !c.env.Match(strings.ToLower(env)) {
		return false
	}
	if c.path != nil {
		path := strings.ToLower(p.path)
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		if !c.path.Match(path) {
			return false
		}
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
// the nearest cascade that sets it, and so a robots parameter (inherit). A cascade applies to pages
// of its branch page's language, unless its target names languages: then to pages of those
// languages, whichever language's branch page declares it (checked against Hugo 0.165). The page is
// a content page, or a list page Hugo makes without a content file.
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
	for i := range cs {
		cc := &cs[i]
		if otherLang && !cc.langTargeted || !cc.matches(p, c.h.env) {
			continue
		}
		p.inherit(cc)
		fill(p.meta, cc.values)
	}
}

// inherit takes the robots inputs of a cascade that reaches the page, the nearer ones first: an
// input of a parameter that the page's own front matter or a nearer cascade sets is replaced by
// that key, as Hugo gives the page that one. The pages a cascade reaches share its inputs (clipped:
// a page that takes more appends to a copy), so that a site's pages hold one slice per cascade and
// the pipeline compiles it once; a page on which one of them is replaced has a copy of its own.
func (p *hugoSrc) inherit(cc *hugoCascade) {
	in := cc.inputs
	for i := range in {
		if in[i].ReplacedBy != nil {
			continue
		}
		if by := p.setter(hugoParam(in[i].Source.Key)); by != nil {
			if &in[0] == &cc.inputs[0] {
				in = slices.Clone(in)
			}
			in[i].ReplacedBy = by
		}
	}
	if len(p.inputs) == 0 {
		p.inputs = slices.Clip(in)
	} else {
		p.inputs = append(p.inputs, in...)
	}
	for i := range cc.sets {
		if p.setter(cc.sets[i].param) != nil {
			continue
		}
		if j := slices.Index(p.set[:], nil); j >= 0 {
			p.set[j] = &cc.sets[i]
		}
	}
}

// setter is the key that gives the page the robots parameter param: its own front matter's (its
// first input of it, or the key that gives none), else the nearest cascade's that reached it so
// far; nil for none.
func (p *hugoSrc) setter(param hugoParams) *rules.Source {
	if p.params&param != 0 {
		for i := range p.ownIn {
			if hugoParam(p.ownIn[i].Source.Key) == param {
				return &p.ownIn[i].Source
			}
		}
		for i := range p.silent {
			if p.silent[i].param == param {
				return &p.silent[i].src
			}
		}
	}
	for _, s := range p.set {
		if s == nil {
			break
		}
		if s.param == param {
			return &s.src
		}
	}
	return nil
}

// fill sets the keys of src that dst does not have.
func fill(dst, src map[string]any) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
}
