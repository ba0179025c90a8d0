package rules

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	// doublestar has exactly the glob semantics SPEC §2 asks for: '*' stays
	// inside one path segment, '**' crosses segments and also matches none,
	// so "/drafts/**" matches "/drafts/" itself and "/**/404.html" matches
	// "/404.html". It is pure (Match does no I/O), well kept, and already in
	// go.mod. Its extra syntax (?, [abc], {a,b}, \ escapes) is a superset
	// users may find useful; nothing in SPEC conflicts with it. (The module
	// also has file-system Glob functions; rules calls only Match and
	// ValidatePattern, which are pure string functions.)
	"github.com/bmatcuk/doublestar/v4"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
)

// Style is how a public page's tags are written (SPEC §5).
type Style int

const (
	Three  Style = iota // robots + googlebot + bingbot (default)
	Single              // one merged robots tag (Yoast's current form)
)

// Input is one raw value from one source for one agent.
type Input struct {
	Agent  string // lower-case agent name; "robots" means all agents
	Value  string // as written: "noindex, NoFollow", "max-snippet:50", "unavailable_after: 2027-01-31"
	Source Source
	// ReplacedBy is set on an inherited value (a cascade's, front matter defaults') that the
	// generator does not give the page: a key of the same name that the page's own front matter,
	// or a nearer cascade or a defaults scope of precedence, sets replaces it (SPEC §3.3). It names
	// that key. Such an input is read (its problems are reported as any other's) but not merged:
	// Decision.Replaced lists it, for explain.
	ReplacedBy *Source
}

// Rule is one section rule from the config. It selects with Paths, Kinds and Langs: it needs at
// least one of them, and matches an item when every one it has matches (SPEC §2).
type Rule struct {
	Paths []string // globs over URL paths as served (SPEC §2)
	// Kinds are what the item is, in the generator's words (Item.Kinds: Hugo's home, section, page,
	// taxonomy, term; Jekyll's pages, posts, drafts, a collection's label), or KindFile and
	// KindHTML for any site; any case. Which names a site has is the caller's to check: rules
	// knows no generator.
	Kinds  []string
	Langs  []string // languages (Item.Lang), any case
	Values []Input  // one per agent key of the rule; Source.Kind == FromRule, File, Line, Rule set
	Source Source   // the rule itself (FromRule, File, Line of the rule, Rule number)
}

// The kinds every site has, whatever its generator: a rule's `kind: file` selects the non-HTML
// files (Item.Asset), `kind: html` the pages.
const (
	KindFile = "file"
	KindHTML = "html"
)

// Config is everything site-wide. The zero value is useful: built-in defaults, no rules,
// the default error pages (/404.html, /**/404.html, /50x.html), three tags.
type Config struct {
	Defaults   []Input // nil: the built-in defaults of SPEC §3.1; non-nil replaces them
	Rules      []Rule
	ErrorPages []string // nil: the default globs
	Style      Style
}

// builtinDefaults are SPEC §3.1.
func builtinDefaults() []Input {
	def := Source{Kind: FromDefault}
	return []Input{
		{Agent: "robots", Value: "index, follow", Source: def},
		{Agent: "googlebot", Value: "max-snippet:-1, max-image-preview:large, max-video-preview:-1", Source: def},
		{Agent: "bingbot", Value: "max-snippet:-1, max-image-preview:large, max-video-preview:-1", Source: def},
	}
}

// DefaultErrorPages are the error-page globs used when Config.ErrorPages is nil.
func DefaultErrorPages() []string { return []string{"/404.html", "/**/404.html", "/50x.html"} }

// parsed is one input after parsing: its agent and tokens.
type parsed struct {
	agent string
	toks  []tok
	src   Source
}

type compiledRule struct {
	num    int
	src    Source
	paths  []string
	kinds  []string // lower case
	langs  []string // lower case
	values []parsed
}

// Resolver decides pages and files. Safe for concurrent use: it is never
// changed after New.
type Resolver struct {
	style      Style
	defaults   []parsed
	rules      []compiledRule
	errorPages []string
	agents     []string // agents named by the config that IsAgent does not know
	warnings   []Warning
}

// New checks and compiles cfg. A bad glob or a malformed value in the defaults or a rule is an error
// naming its source (all such problems, errors.Join-ed). Unknown values in cfg are warnings, returned
// by Warnings().
func New(cfg Config) (r *Resolver, err error) {
	r = &Resolver{style: cfg.Style}
	var errs []error
	if cfg.Style != Three && cfg.Style != Single {
		errs = append(errs, fmt.Errorf("rules: unknown tag style %d", cfg.Style))
	}
	defs := cfg.Defaults
	if defs == nil {
		defs = builtinDefaults()
	}
	// named are the agents the config names; over reports a new one past MaxAgents.
	named, others := map[string]bool{}, 0
	over := func(agent string) bool {
		if !named[agent] && !knownAgent(agent) {
			others++
		}
		named[agent] = true
		return others > MaxAgents
	}
	for _, in := range defs {
		in.Source.Kind = FromDefault
		p, ws, err := parseInput(in)
		r.warnings = append(r.warnings, ws...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if over(p.agent) {
			return nil, errors.Join(append(errs, &Error{Source: in.Source, Err: errTooManyAgents, Code: problem.TooManyAgents})...)
		}
		r.defaults = append(r.defaults, p)
	}
	for i, rule := range cfg.Rules {
		src := rule.Source
		src.Kind = FromRule
		if src.Rule == 0 {
			src.Rule = i + 1
		}
		cr := compiledRule{num: src.Rule, src: src}
		if len(rule.Paths) == 0 && len(rule.Kinds) == 0 && len(rule.Langs) == 0 {
			errs = append(errs, &Error{Source: src, Err: errors.New("rule has no path, kind or lang"), Code: problem.RuleNoSelector})
		}
		var err error
		if cr.kinds, err = selectorValues("kind", rule.Kinds); err != nil {
			errs = append(errs, &Error{Source: src, Err: err, Code: problem.ConfigEmptyValue})
		}
		if cr.langs, err = selectorValues("lang", rule.Langs); err != nil {
			errs = append(errs, &Error{Source: src, Err: err, Code: problem.ConfigEmptyValue})
		}
		for _, g := range rule.Paths {
			if err := checkGlob(g); err != nil {
				errs = append(errs, &Error{Source: src, Value: g, Err: err, Code: problem.BadPathGlob})
				continue
			}
			cr.paths = append(cr.paths, g)
		}
		for _, in := range rule.Values {
			in.Source.Kind = FromRule
			if in.Source.Rule == 0 {
				in.Source.Rule = src.Rule
			}
			if in.Source.File == "" {
				in.Source.File, in.Source.Line = src.File, src.Line
			}
			p, ws, err := parseInput(in)
			r.warnings = append(r.warnings, ws...)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if over(p.agent) {
				return nil, errors.Join(append(errs, &Error{Source: in.Source, Err: errTooManyAgents, Code: problem.TooManyAgents})...)
			}
			cr.values = append(cr.values, p)
		}
		r.rules = append(r.rules, cr)
	}
	r.errorPages = cfg.ErrorPages
	if r.errorPages == nil {
		r.errorPages = DefaultErrorPages()
	}
	for _, g := range r.errorPages {
		if err := checkGlob(g); err != nil {
			errs = append(errs, fmt.Errorf("error_pages: %s: %w", excerpt.Quote(g), err))
		}
	}
	for a := range named {
		if !knownAgent(a) {
			r.agents = append(r.agents, a)
		}
	}
	sort.Strings(r.agents)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r, nil
}

// Warnings are the unknown or obsolete values found in the config, each
// naming its source.
func (r *Resolver) Warnings() []Warning { return append([]Warning(nil), r.warnings...) }

// parseInput normalises the agent name and parses the value. A robots tag
// already in the page (FromPage) is read leniently: what looks like a typo
// there is the theme's, not the user's, so it is a warning and dropped.
func parseInput(in Input) (parsed, []Warning, error) {
	agent := strings.ToLower(strings.TrimSpace(in.Agent))
	if agent == "" {
		agent = "robots"
	}
	if strings.ContainsAny(agent, " \t\r\n,:;\"'<>=") {
		return parsed{}, nil, &Error{Source: in.Source, Err: fmt.Errorf("%w: %s is not an agent name", ErrMalformed, excerpt.Quote(in.Agent)), Code: problem.InvalidAgentName}
	}
	lenient := in.Source.Kind == FromPage
	if err := checkAgent(agent); err != nil {
		if lenient {
			return parsed{}, []Warning{{Source: in.Source, Code: problem.MisspeltInPageTag, Msg: err.Error() + "; dropped"}}, nil
		}
		return parsed{}, nil, &Error{Source: in.Source, Err: err, Code: problem.MisspeltAgent}
	}
	toks, notes, one, err := parseValue(in.Value, lenient, true)
	var ws []Warning
	for _, n := range notes {
		ws = append(ws, Warning{Source: in.Source, Code: n.code, Msg: n.msg})
	}
	if err != nil {
		// The error quotes the value when it is one directive; of several, each error quotes its own.
		// Its code is the first problem's.
		e := &Error{Source: in.Source, Err: err, Code: problem.CodeOf(err)}
		if one {
			e.Value = in.Value
		}
		return parsed{}, ws, e
	}
	return parsed{agent: agent, toks: toks, src: in.Source}, ws, nil
}

// selectorValues trims and lower-cases a rule's kinds or languages; an empty one is an error.
func selectorValues(key string, vs []string) ([]string, error) {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" {
			return nil, fmt.Errorf("an empty %s", key)
		}
		out = append(out, v)
	}
	return out, nil
}

// The errors of a glob that is not one, each of code problem.BadPathGlob.
var (
	errGlobSlash error = problem.New(problem.BadPathGlob, problem.Position{}, "a path glob must start with /")
	errBadGlob   error = problem.New(problem.BadPathGlob, problem.Position{}, "bad glob")
)

func checkGlob(g string) error {
	if !strings.HasPrefix(g, "/") {
		return errGlobSlash
	}
	if !doublestar.ValidatePattern(g) {
		return errBadGlob
	}
	return nil
}

// Match reports whether a URL path matches a glob of SPEC §2: '*' matches
// within one segment, '**' across segments (and matches nothing too, so
// "/drafts/**" matches "/drafts/"). A page path ending in "/" also matches a
// glob written for its folder name: "/blog/*" matches "/blog/post/".
func Match(glob, path string) (bool, error) {
	if err := checkGlob(glob); err != nil {
		return false, err
	}
	return match(glob, path), nil
}

// match assumes a checked glob (checkGlob validated it, so it is not validated again for every
// path).
func match(glob, path string) bool {
	if doublestar.MatchUnvalidated(glob, path) {
		return true
	}
	if len(path) > 1 && strings.HasSuffix(path, "/") {
		return doublestar.MatchUnvalidated(glob, strings.TrimSuffix(path, "/"))
	}
	return false
}

// Matched is a rule that matches an item, and what each of its selectors matched with.
type Matched struct {
	Rule   int    // 1-based
	Source Source // the rule's: "rule 2 at robotsmith.yaml:14"
	Path   string // the first of its globs that matches the item's path; "" when it has none
	Kind   string // the kind of the rule that the item is ("taxonomy", "file"); "" when it has none
	Lang   string // the language of the rule that the item is in; "" when it has none
}

// String is what explain prints: "rule 2 at robotsmith.yaml:14 (kind: taxonomy, lang: fr)".
func (m Matched) String() string {
	var sel []string
	for _, s := range [...][2]string{{"path", m.Path}, {"kind", m.Kind}, {"lang", m.Lang}} {
		if s[1] != "" {
			sel = append(sel, s[0]+": "+s[1])
		}
	}
	return m.Source.String() + " (" + strings.Join(sel, ", ") + ")"
}

// Matching returns the rules that match it, in order, with what matched (for explain).
func (r *Resolver) Matching(it Item) []Matched {
	var out []Matched
	for _, cr := range r.rules {
		if m, ok := cr.match(it); ok {
			out = append(out, m)
		}
	}
	return out
}

// matches reports whether the rule matches it: every selector it has does.
func (cr compiledRule) matches(it Item) bool {
	_, ok := cr.match(it)
	return ok
}

// match is matches, saying what matched. The cheap selectors are tried first.
func (cr compiledRule) match(it Item) (Matched, bool) {
	m := Matched{Rule: cr.num, Source: cr.src}
	if len(cr.kinds) > 0 {
		i := slices.IndexFunc(cr.kinds, it.isKind)
		if i < 0 {
			return m, false
		}
		m.Kind = cr.kinds[i]
	}
	if len(cr.langs) > 0 {
		i := slices.IndexFunc(cr.langs, func(l string) bool { return strings.EqualFold(l, it.Lang) })
		if i < 0 {
			return m, false
		}
		m.Lang = cr.langs[i]
	}
	if len(cr.paths) > 0 {
		i := slices.IndexFunc(cr.paths, func(g string) bool { return match(g, it.Path) })
		if i < 0 {
			return m, false
		}
		m.Path = cr.paths[i]
	}
	return m, true
}

// isKind reports whether the item is of kind k (lower case): KindFile and KindHTML say what the
// file is, any other name what its page is.
func (it Item) isKind(k string) bool {
	switch k {
	case KindFile:
		return it.Asset
	case KindHTML:
		return !it.Asset
	}
	for _, ik := range it.Kinds {
		if strings.EqualFold(k, ik) {
			return true
		}
	}
	return false
}

// Item is one page or file to decide.
type Item struct {
	Path string // URL path as served: "/blog/post/", "/files/x.pdf", "/404.html"
	// Kinds are what the page the file belongs to is, in the generator's words: one kind
	// ("taxonomy", "posts"), or more where the generator counts a page as several (a Jekyll draft
	// is a post too); none for a file of no page. A pager page has its list page's, another output
	// format its page's.
	Kinds []string
	Lang  string // the language of the page the file belongs to ("fr"); "" for none
	// Compiled are the item's sources compiled once (Compile), read in order: its page's cascade
	// and front matter, the environment. nil entries are skipped.
	Compiled []*Compiled
	// Inputs are parsed for this item alone: the robots tags already in the page (any order).
	Inputs   []Input
	Redirect bool // the page is a redirect stub (meta refresh)
	Asset    bool // a non-HTML file (error-page globs do not apply)
}

// Decide resolves it: defaults, every matching rule in order, then it.Compiled, then it.Inputs
// (those replaced, Input.ReplacedBy, go to Decision.Replaced). Unknown/obsolete values in it.Inputs -> warnings (dropped); malformed values -> error (an *Error or
// errors.Join of them) naming the source. A malformed value spoils only itself: the Decision
// returned with the error holds everything else. (it.Compiled reported its own when compiled.)
func (r *Resolver) Decide(it Item) (d Decision, warns []Warning, err error) {
	tags, replaced, warns, err := parseSource(context.Background(), it.Inputs)
	d = r.merge(it, r.fixed(it), tags)
	d.Replaced = append(d.Replaced, replaced...)
	return d, warns, err
}

// parseInputs parses in, appending to dst; a malformed input spoils only itself. A replaced input
// (Input.ReplacedBy) is parsed for its problems and left out.
func parseInputs(dst []parsed, in []Input) ([]parsed, []Warning, error) {
	var (
		warns []Warning
		errs  []error
	)
	for _, x := range in {
		xs, sw := splitAgents(x)
		warns = append(warns, sw...)
		for _, x := range xs {
			p, ws, err := parseInput(x)
			warns = append(warns, ws...)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if x.ReplacedBy == nil {
				dst = append(dst, p)
			}
		}
	}
	return dst, warns, errors.Join(errs...)
}

// fixedClass is a class that the item's kind decides before its directives do.
type fixedClass byte

const (
	byDirectives fixedClass = iota // Public or NonPublic, as robots' index slot says
	fixedRedirect
	fixedErrorPage
)

func (r *Resolver) fixed(it Item) fixedClass {
	switch {
	case it.Redirect:
		return fixedRedirect
	case !it.Asset && r.ErrorPage(it.Path) != "":
		return fixedErrorPage
	}
	return byDirectives
}

// merge is the one merge of the package: defaults, the rules matching it in order, its compiled
// sources, then tags.
func (r *Resolver) merge(it Item, fixed fixedClass, tags []parsed) Decision {
	b := builder{own: map[string]*agentSets{}}
	for _, p := range r.defaults {
		b.add(p)
	}
	for _, cr := range r.rules {
		if cr.matches(it) {
			for _, p := range cr.values {
				b.add(p)
			}
		}
	}
	extra := append([]string(nil), r.agents...)
	var replaced []Replaced
	for _, c := range it.Compiled {
		if c == nil {
			continue
		}
		for i := range c.shape.inputs {
			b.add(c.parsedAt(i))
		}
		extra = append(extra, c.shape.agents...)
		if c.replaced != nil {
			replaced = append(replaced, *c.replaced...)
		}
	}
	for _, p := range tags {
		if !knownAgent(p.agent) {
			extra = append(extra, p.agent)
		}
		b.add(p)
	}
	d := b.decision(it.Path, r.style)
	d.extra = uniqSorted(extra)
	d.Replaced = replaced
	switch {
	case fixed == fixedRedirect:
		d.Class = Redirect
	case fixed == fixedErrorPage:
		d.Class = ErrorPage
	case d.robots()[slotIndex].has && d.robots()[slotIndex].tok.v == 1:
		d.Class = NonPublic
	default:
		d.Class = Public
	}
	return d
}

// ErrorPage is the error_pages glob that the page at path (a URL path as served) matches, "" for
// none. A page "/404.html" is served at "/404" too (Netlify, Cloudflare Pages and GitHub Pages
// serve a .html file at its URL without the extension, and Jekyll's permalink: /404 writes
// 404.html): a glob matches either URL.
func (r *Resolver) ErrorPage(path string) string {
	pretty, ok := strings.CutSuffix(path, ".html")
	for _, g := range r.errorPages {
		if match(g, path) || ok && match(g, pretty) {
			return g
		}
	}
	return ""
}

func uniqSorted(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// agentSets is what the inputs gave one agent. A set is a kilobyte and more, and a page may name
// tens of thousands of agents: defaults, which only the few agents the defaults name have, is made
// when one is given, and a Decision shares the builder's agentSets rather than copying them.
type agentSets struct {
	own        set  // every value the agent's own inputs gave
	defaults   *set // only those from the defaults; nil when they gave none
	nonDefault bool // a non-default source gave the agent a value
}

// builder merges parsed inputs; seq numbers the inputs in reading order.
type builder struct {
	own map[string]*agentSets
	seq int
}

func (b *builder) add(p parsed) {
	b.seq++
	a := b.own[p.agent]
	if a == nil {
		a = &agentSets{}
		b.own[p.agent] = a
	}
	for _, t := range p.toks {
		e := entry{has: true, tok: t, src: p.src, pri: priority{kind: p.src.Kind, seq: b.seq}}
		a.own.add(e)
		if p.src.Kind == FromDefault {
			if a.defaults == nil {
				a.defaults = &set{}
			}
			a.defaults.add(e)
		} else {
			a.nonDefault = true
		}
	}
}

func (b *builder) decision(path string, style Style) Decision {
	d := Decision{Path: path, style: style, sets: b.own}
	if _, ok := d.sets["robots"]; !ok {
		d.sets["robots"] = &agentSets{}
	}
	names := make([]string, 0, len(d.sets))
	for name := range d.sets {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return agentLess(names[i], names[j]) })
	robots := d.sets["robots"].own
	for _, name := range names {
		s := robots
		if name != "robots" {
			s = robots.merged(d.of(name).own)
		}
		d.Agents = append(d.Agents, Agent{Name: name, Values: s.values()})
	}
	return d
}

// agentRank puts robots first, then googlebot, then bingbot, then the rest.
func agentRank(name string) int {
	switch name {
	case "robots":
		return 0
	case "googlebot":
		return 1
	case "bingbot":
		return 2
	}
	return 3
}

func agentLess(a, b string) bool {
	if ra, rb := agentRank(a), agentRank(b); ra != rb {
		return ra < rb
	}
	return a < b
}
