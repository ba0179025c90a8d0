// Package config reads robotsmith's configuration file (SPEC §2): robotsmith.yaml, .yml, .toml or
// .json in the site's root. Every key is optional, and the zero Config is the built-in behaviour.
//
// Usage:
//
//	cfg, err := config.Load("my-site", "")   // finds my-site/robotsmith.yaml (or .yml, .toml, .json)
//	if err != nil {
//		return err                           // *config.Error: "robotsmith.yaml:7: rules[2]: ..."
//	}
//	r, err := rules.New(cfg.Rules())
//	s, err := site.Open("my-site", site.Options{Generator: cfg.Generator})
//	err = cfg.CheckSite(config.Site{Generator: s.Generator, Kinds: s.Kinds(), Langs: s.Langs()})
//
// The file is read by robotsmith's one reader of sources (package frontmatter), which gives every
// value its offset in the file in every format. An unknown key or a bad value is an *Error naming
// the file and line, carrying its problem.Code (config-unknown-key, config-wrong-type, ...). The
// robots_txt and ai keys are checked here too (robots.go), and the caller hands them to robotsblock
// to render, unchecked again. Directive values are checked
// by rules.New, whose errors name the same file and line through rules.Source. A rule's `kind` and
// `lang` values depend on the site's generator and its configuration, read after robotsmith's own:
// CheckSite checks them, naming their lines too. A rule's key that looks like a misspelt selector
// (paht, kinds, language) is an error rather than a crawler's name.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// Names are the file names Load looks for, in order.
var names = [...]string{"robotsmith.yaml", "robotsmith.yml", "robotsmith.toml", "robotsmith.json"}

// Names returns the file names Load looks for, in order (watch mode watches for them).
func Names() []string { return names[:] }

// Config is robotsmith.yaml. The zero value is the built-in behaviour of SPEC §2–§8.
type Config struct {
	File      string // the file read; "" when the site has none
	Generator string // "hugo", "jekyll", "none"; "" detects
	Content   string // source pages' folder, relative to the site root; "" for the generator's
	Output    string // the generated site, relative to the site root; "" for the generator's
	Command   string // run before every build; "" for none
	Tags      rules.Style
	Existing  string // "merge" (default) or "replace"
	Previews  string // "noindex" makes preview deploys noindex; "" (or "off") does nothing
	// ProductionBranch is the Cloudflare Pages production branch (default "main"): a build whose
	// CF_PAGES_BRANCH differs is a preview.
	ProductionBranch string
	Defaults         []rules.Input // nil: the built-in defaults
	RuleList         []rules.Rule
	ErrorPages       []string // nil: the built-in globs
	Headers          Headers
	Sitemap          string        // "prune" (default) or "keep"
	RobotsTxt        RobotsTxt     // robotsmith's block of robots.txt (robots.go)
	AI               aipref.Policy // the AI preferences (robots.go)
	// LLMsTxt is what a build does with llms.txt: "prune", "keep", "generate" or "off"; "" is the
	// default, prune where the output has an llms.txt or llms-full.txt (LLMsTxtMode).
	LLMsTxt     string
	LLMsTxtLine int // where llms_txt is written; 0 when it is not

	selectors []selector // the rules' kind and lang values with their lines, for CheckSite
	// outputLine and contentLine are where output and content are written, for CheckInside.
	outputLine, contentLine int
}

// Headers is the `headers:` key.
type Headers struct {
	// Formats are the hosts whose files robotsmith writes, each once, in the order given: netlify,
	// cloudflare, vercel, firebase, apache, nginx, caddy; or ["none"] (no host file), or ["auto"]
	// (picked from the host files the site has, plan.Open). nil: the default, netlify.
	Formats []string
	// FormatsLine is the line of headers.format, for the errors about what auto picks.
	FormatsLine int
	HTML        bool // also write rules for pages
	// NginxInclude is the file of the site's own add_header lines that each of robotsmith's nginx
	// locations includes (nginx sends a location's own add_header lines only), as the server
	// sees it; "" for none.
	NginxInclude string
	// FirebaseSite names the entry of firebase.json's hosting list robotsmith writes to (its site
	// or target), when it lists several; "" for the only one.
	FirebaseSite string
}

// Format is the one format of a configuration that names one ("netlify" when it names none), ""
// when it names several.
func (h Headers) Format() string {
	switch len(h.Formats) {
	case 0:
		return "netlify"
	case 1:
		return h.Formats[0]
	}
	return ""
}

// Rules returns the part of the configuration that package rules decides with.
func (c *Config) Rules() rules.Config {
	return rules.Config{Defaults: c.Defaults, Rules: c.RuleList, ErrorPages: c.ErrorPages, Style: c.Tags}
}

// ReplaceExisting reports whether robots tags already in generated pages are ignored (existing: replace).
func (c *Config) ReplaceExisting() bool { return c.Existing == "replace" }

// KeepSitemaps reports whether sitemaps are left as they are, their entries for noindex URLs and
// URLs without a file reported instead of pruned (sitemap: keep).
func (c *Config) KeepSitemaps() bool { return c.Sitemap == "keep" }

// LLMsTxtMode is what the run does with llms.txt and llms-full.txt (SPEC §9): "prune" (the default,
// which does nothing where the output has neither file), "keep" (leave them, each link to a URL
// that is not to be listed a finding), "generate" (write robotsmith's llms.txt, between its
// markers) or "off" (leave both files alone and say nothing about them).
func (c *Config) LLMsTxtMode() string {
	if c.LLMsTxt == "" {
		return "prune"
	}
	return c.LLMsTxt
}

// Error is a problem in the configuration file.
type Error struct {
	File string
	Line int // 0 when the problem is the whole file
	// Col is the column, counted in characters from 1, of a syntax error the reader placed
	// exactly; 0 for the others, which name the line of the key or value.
	Col int
	Err error
	// Code is what the problem is (problem.ConfigUnknownKey, problem.ConfigWrongType, ...); 0 takes
	// the code of the first problem Err holds.
	Code problem.Code
	// Related is the other side, where the problem has two (a key's first write, the ai.block
	// that also blocks a crawler); the message names it too.
	Related []problem.Related
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Problem is the error as a problem.Problem; its Error() is Error().
func (e *Error) Problem() problem.Problem {
	pos := problem.Position{File: e.File, Line: e.Line, Col: e.Col}
	if e.Line == 0 {
		pos.Col = 0
	}
	return problem.Wrapping(e.Code, pos, fmt.Sprint(e.Err), e.Related, e.Err)
}

// ErrNotFound is returned by Load when an explicitly named file does not exist. It is of code
// problem.ConfigNotFound.
var ErrNotFound error = problem.New(problem.ConfigNotFound, problem.Position{}, "config file not found")

// ErrTwo is returned (in an *Error) by Load when the site has more than one
// configuration file: robotsmith reads one, and using either silently could
// ignore the rules the user meant. It is of code problem.ConfigTwoFiles.
var ErrTwo error = problem.New(problem.ConfigTwoFiles, problem.Position{}, "more than one configuration file")

// Load reads the configuration of the site at root. With file empty it looks for the names above in
// root and returns the zero Config (File "") when there is none; two of them are an error naming
// both. A relative file is taken as given (relative to the working directory), like any
// command-line path. Only a regular file of at most MaxSize bytes is read.
func Load(root, file string) (*Config, error) {
	if file == "" {
		var found []string
		for _, n := range names {
			p := filepath.Join(root, n)
			if _, err := os.Lstat(p); err == nil {
				found = append(found, p)
			}
		}
		switch len(found) {
		case 0:
			return &Config{}, nil
		case 1:
			file = found[0]
		default:
			return nil, &Error{File: found[0], Err: fmt.Errorf("%w: %s is there too; robotsmith reads one, so remove one of them (or name the one to read with --config)", ErrTwo, filepath.Base(found[1]))}
		}
	}
	src, err := safefs.ReadFile(file, MaxSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", file, ErrNotFound)
	case errors.Is(err, safefs.ErrTooLarge):
		return nil, &Error{File: file, Err: errTooLarge}
	case err != nil:
		return nil, err
	}
	return Parse(file, src)
}

// Parse reads a configuration from src; file names it in errors and its extension picks the format
// (.toml is TOML, .json JSON, anything else YAML).
func Parse(file string, src []byte) (*Config, error) {
	if len(src) > MaxSize {
		return nil, &Error{File: file, Err: errTooLarge}
	}
	p := &parser{file: file}
	root, err := p.read(src)
	if err != nil {
		return nil, err
	}
	c := p.config(root)
	p.checkRobots(c)
	if len(p.errs) > 0 {
		return nil, errors.Join(limitErrors(file, p.errs)...)
	}
	c.File = file
	c.selectors = p.sel
	return c, nil
}

// node is a configuration value, as the reader gives it, with its offset in the file.
type node = frontmatter.Node

// parser collects every problem in one file rather than stopping at the first.
type parser struct {
	file string
	doc  *frontmatter.Document // turns offsets into lines
	errs []error
	sel  []selector // the rules' kind and lang values read so far
}

// line is the line of the file n is written on.
func (p *parser) line(n *node) int { return p.doc.Line(n.Off) }

// errorf reports a problem of code at the line of value n.
func (p *parser) errorf(code problem.Code, n *node, format string, args ...any) {
	p.errorAt(code, n.Off, format, args...)
}

// errorAt reports a problem of code at the line of offset off (a key's, where the key is the
// problem).
func (p *parser) errorAt(code problem.Code, off int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: p.doc.Line(off), Code: code, Err: fmt.Errorf(format, args...)})
}

// duplicates reports every key of map n written twice, compared without case as every key here is
// read: the later one would silently win, and a second `rules:` block would drop the first.
func (p *parser) duplicates(n *node) {
	var first map[string]int // lower-case key -> offset of its first write, for keys differing in case
	if len(n.Keys) > 1 {
		first = make(map[string]int, len(n.Keys))
	}
	for _, k := range n.Keys {
		if off, ok := k.Repeat(); ok {
			p.repeated(k, off)
		}
		if first == nil {
			continue
		}
		lk := strings.ToLower(k.Name)
		if off, ok := first[lk]; ok {
			p.repeated(k, off)
			continue
		}
		first[lk] = k.Off
		if off, ok := k.Repeat(); ok {
			first[lk] = off
		}
	}
}

// repeated reports key k, written before at off.
func (p *parser) repeated(k frontmatter.Key, off int) {
	p.errorAt(problem.ConfigRepeatedKey, k.Off, "key %s is written twice (first at line %d)", quote(k.Name), p.doc.Line(off))
	e := p.errs[len(p.errs)-1].(*Error)
	e.Related = []problem.Related{{Position: problem.Position{File: p.file, Line: p.doc.Line(off)}, Msg: "first written here"}}
}

// what says what a value is, for a message that wants something else.
func what(n *node) string {
	switch n.Kind {
	case frontmatter.KindMap:
		return "a map"
	case frontmatter.KindList:
		return "a list"
	case frontmatter.KindNull:
		return "an empty value"
	}
	return "a value"
}

func (p *parser) config(root *node) *Config {
	c := &Config{}
	for _, k := range root.Keys {
		key, v := k.Name, k.Value
		switch strings.ToLower(key) {
		case "generator":
			c.Generator = p.oneOf(v, key, generators)
		case "content":
			c.Content, c.contentLine = p.str(v, key), p.line(v)
		case "output":
			c.Output, c.outputLine = p.str(v, key), p.line(v)
		case "command":
			c.Command = p.str(v, key)
		case "tags":
			if p.oneOf(v, key, tagStyles) == "single" {
				c.Tags = rules.Single
			}
		case "existing":
			c.Existing = p.oneOf(v, key, existingUses)
		case "previews":
			c.Previews = p.oneOf(v, key, previewModes)
			if c.Previews == "off" {
				c.Previews = ""
			}
		case "production_branch":
			c.ProductionBranch = p.str(v, key)
		case "defaults":
			c.Defaults = p.agentValues(v, key, rules.Source{Kind: rules.FromDefault, File: p.file})
			if c.Defaults == nil {
				c.Defaults = []rules.Input{}
			}
		case "rules":
			c.RuleList = p.rules(v)
		case "error_pages":
			c.ErrorPages = p.globs(v, key)
			if c.ErrorPages == nil {
				c.ErrorPages = []string{}
			}
		case "headers":
			c.Headers = p.headers(v)
		case "sitemap":
			c.Sitemap = p.oneOf(v, key, sitemapModes)
		case "robots_txt":
			c.RobotsTxt = p.robotsTxt(v)
		case "ai":
			c.AI = p.ai(v)
		case "llms_txt":
			c.LLMsTxt, c.LLMsTxtLine = p.oneOf(v, key, llmsModes), p.line(v)
		default:
			p.unknownKey("", key, k.Off, topKeys, "")
		}
	}
	return c
}

// text is a string value.
func text(n *node) (string, bool) {
	if n.Kind == frontmatter.KindString {
		return n.Text, true
	}
	return "", false
}

func (p *parser) str(n *node, key string) string {
	s, ok := text(n)
	switch {
	case ok:
		return s
	case n.Kind == frontmatter.KindMap || n.Kind == frontmatter.KindList || n.Kind == frontmatter.KindNull:
		p.errorf(problem.ConfigWrongType, n, "%s: want a string, not %s", key, what(n))
	default:
		p.errorf(problem.ConfigWrongType, n, "%s: want a string, not %s", key, short(n.String()))
	}
	return ""
}

// oneOf reads a word of the closed set words, in any case.
func (p *parser) oneOf(n *node, key string, words set) string {
	v, ok := text(n)
	if !ok {
		p.str(n, key) // reports what it is instead of a string
		return ""
	}
	s := strings.ToLower(strings.TrimSpace(v))
	if !slices.Contains(words.words(), s) {
		p.errorf(problem.ConfigUnknownValue, n, "%s: %s is not one of %s%s", key, quote(s), words.list(), words.didYouMean(s))
		return ""
	}
	return s
}

// strings reads a string or a list of strings.
func (p *parser) strings(n *node, key string) []string {
	if n.Kind == frontmatter.KindList {
		var out []string
		for _, it := range n.List {
			if s := p.str(it, key); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if s := p.str(n, key); s != "" {
		return []string{s}
	}
	return nil
}

// items are the values of a value that may be one or a list of them.
func items(n *node) []*node {
	if n.Kind == frontmatter.KindList {
		return n.List
	}
	return []*node{n}
}

// globs reads a glob or a list of globs; a bad one is reported at its own line.
func (p *parser) globs(n *node, key string) []string {
	var gs []string
	for _, it := range items(n) {
		s := p.str(it, key)
		if s == "" {
			continue
		}
		if !strings.HasPrefix(s, "/") {
			p.errorf(problem.BadPathGlob, it, "%s: %s must be a URL path starting with /", key, quote(s))
		}
		gs = append(gs, s)
	}
	return gs
}

var agentRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// maxAgent bounds an agent name; the longest real one is about 20 bytes.
const maxAgent = 64

// agentValues reads a map of agent name to directives (a string or a list of strings).
func (p *parser) agentValues(n *node, key string, src rules.Source) []rules.Input {
	if n.Kind != frontmatter.KindMap {
		p.errorf(problem.ConfigWrongType, n, "%s: want a map of agent names to directives, not %s", key, what(n))
		return nil
	}
	var out []rules.Input
	for _, k := range n.Keys {
		out = append(out, p.agentValue(k.Value, k.Name, src)...)
	}
	return out
}

func (p *parser) agentValue(v *node, agent string, src rules.Source) []rules.Input {
	name := strings.ToLower(strings.TrimSpace(agent))
	if len(name) > maxAgent || !agentRe.MatchString(name) {
		p.errorf(problem.InvalidAgentName, v, "%s is not an agent name (robots, googlebot, bingbot, googlebot-news, ...)", quote(agent))
		return nil
	}
	vals := p.strings(v, name)
	if len(vals) == 0 {
		p.errorf(problem.RuleNoDirectives, v, "%s: no directives given", name)
		return nil
	}
	src.Line = p.line(v)
	src.Key = name
	return []rules.Input{{Agent: name, Value: strings.Join(vals, ", "), Source: src}}
}

func (p *parser) rules(n *node) []rules.Rule {
	if n.Kind != frontmatter.KindList {
		p.errorf(problem.ConfigWrongType, n, "rules: want a list of rules, not %s", what(n))
		return nil
	}
	var out []rules.Rule
	for i, it := range n.List {
		num := i + 1
		src := rules.Source{Kind: rules.FromRule, File: p.file, Line: p.line(it), Rule: num}
		if it.Kind != frontmatter.KindMap {
			p.errorf(problem.ConfigWrongType, it, "rules[%d]: want a map with path and directives, not %s", num, what(it))
			continue
		}
		r := rules.Rule{Source: src}
		misspelt := false
		for _, k := range it.Keys {
			v := k.Value
			switch lk := strings.ToLower(strings.TrimSpace(k.Name)); lk {
			case "path":
				r.Paths = p.globs(v, fmt.Sprintf("rules[%d]: path", num))
			case "kind":
				r.Kinds = p.selectorValues(v, num, lk)
			case "lang":
				r.Langs = p.selectorValues(v, num, lk)
			default:
				if sel, ok := misspeltSelector(lk); ok {
					p.errorf(problem.ConfigUnknownKey, v, "rules[%d]: unknown key %s (did you mean %s?); a rule selects with path, kind and lang, and its other keys name crawlers", num, quote(k.Name), quote(sel))
					misspelt = true
					continue
				}
				r.Values = append(r.Values, p.agentValue(v, k.Name, src)...)
			}
		}
		if len(r.Paths) == 0 && len(r.Kinds) == 0 && len(r.Langs) == 0 && !misspelt {
			p.errorf(problem.RuleNoSelector, it, "rules[%d]: no path, kind or lang given (path: /tags/**, kind: [taxonomy, term], lang: fr)", num)
		}
		if len(r.Values) == 0 {
			p.errorf(problem.RuleNoDirectives, it, "rules[%d]: no directives given (for example robots: noindex)", num)
		}
		out = append(out, r)
	}
	return out
}

func (p *parser) headers(n *node) Headers {
	var h Headers
	if n.Kind != frontmatter.KindMap {
		p.errorf(problem.ConfigWrongType, n, "headers: want a map (format, html), not %s", what(n))
		return h
	}
	for _, k := range n.Keys {
		v := k.Value
		switch strings.ToLower(k.Name) {
		case "format":
			h.Formats = p.headerFormats(v)
			h.FormatsLine = p.line(v)
		case "html":
			h.HTML = p.boolean(v, "headers: html")
		case "nginx_include":
			h.NginxInclude = p.str(v, "headers: nginx_include")
		case "firebase_site":
			h.FirebaseSite = p.str(v, "headers: firebase_site")
		default:
			p.unknownKey("headers", k.Name, k.Off, headersKeys, "")
		}
	}
	return h
}

// headerFormats reads headers.format: one format or a list of them. none and auto stand alone, and
// netlify and cloudflare both write _headers, each in its own dialect, so never both; a format
// listed twice is written once.
func (p *parser) headerFormats(n *node) []string {
	const key = "headers: format"
	if n.Kind == frontmatter.KindList && len(n.List) == 0 {
		p.errorf(problem.ConfigWrongType, n, "%s: an empty list; name a format, or none", key)
		return nil
	}
	var out []string
	for _, it := range items(n) {
		w := p.oneOf(it, key, headerFormats)
		if w == "" || slices.Contains(out, w) {
			continue
		}
		switch {
		case (w == "none" || w == "auto") && len(items(n)) > 1:
			p.errorf(problem.HeaderFormatsConflict, it, "%s: %s stands alone; it cannot be listed with other formats", key, quote(w))
			continue
		case w == "netlify" && slices.Contains(out, "cloudflare") || w == "cloudflare" && slices.Contains(out, "netlify"):
			p.errorf(problem.HeaderFormatsConflict, it, "%s: netlify and cloudflare both read _headers, each in its own dialect; list the one the site is deployed to", key)
			continue
		}
		out = append(out, w)
	}
	return out
}
