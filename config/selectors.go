package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// A rule's `kind` and `lang` (SPEC §2). Which kinds and languages there are depends on the site's
// generator and its configuration, which are read after robotsmith's own: Parse reads the values
// with their lines, and CheckSite checks them once the site is open, naming the same lines.

// selector is one kind or lang value of a rule, where it was written.
type selector struct {
	rule  int    // 1-based
	key   string // "kind" or "lang"
	value string // as written, trimmed
	line  int
}

// selectorValues reads a rule's kind or lang: a string or a list of strings, none of them empty.
func (p *parser) selectorValues(n *node, rule int, key string) []string {
	what := fmt.Sprintf("rules[%d]: %s", rule, key)
	if n.Kind == frontmatter.KindList && len(n.List) == 0 {
		p.errorf(problem.ConfigEmptyValue, n, "%s: an empty list", what)
	}
	var out []string
	for _, it := range items(n) {
		var s string
		switch it.Kind {
		case frontmatter.KindInt: // kind: 404, Hugo's kind of its 404 pages, is a number to YAML and TOML
			s = strconv.FormatInt(it.Int, 10)
		case frontmatter.KindString:
			if s = strings.TrimSpace(it.Text); s == "" {
				p.errorf(problem.ConfigEmptyValue, it, "%s: an empty value", what)
				continue
			}
		default:
			p.str(it, what) // says what it is instead of a string
			continue
		}
		out = append(out, s)
		p.sel = append(p.sel, selector{rule: rule, key: key, value: s, line: p.line(it)})
	}
	return out
}

// selectorWords are the words people write for the keys a rule selects with (Jekyll's defaults
// scope says `type` for what the page is), each with the selector it means.
var selectorWords = [...][2]string{{"language", "lang"}, {"type", "kind"}, {"glob", "path"}}

// misspeltSelector reports the selector that a rule's key (lower case) looks like a misspelling
// of (paht, kinds, langs, language, type), so that it is not taken for a crawler's name and
// silently left out of the rule's selection. A well-known crawler's name is a crawler's name.
func misspeltSelector(key string) (string, bool) {
	if rules.IsAgent(key) {
		return "", false
	}
	words := slices.Clone(selectorKeys.words())
	means := slices.Clone(words)
	for _, w := range selectorWords {
		if key == w[0] {
			return w[1], true
		}
		words, means = append(words, w[0]), append(means, w[1])
	}
	near, ok := suggest.Resembles(key, words)
	if !ok {
		return "", false
	}
	return means[slices.Index(words, near)], true
}

// Site is what the site's generator defines that rules select by, for CheckSite.
type Site struct {
	Generator string   // "hugo", "jekyll" or "none"
	Kinds     []string // the generator's page kinds, in its words (rules.KindFile and KindHTML are added)
	Langs     []string // the languages its configuration defines; none for Jekyll and a plain folder
}

// CheckSite checks the rules' kind and lang values against the site: a kind the generator does not
// have or a language its configuration does not define is an *Error at the value's line, with the
// nearest valid one where there is one. Case does not count. All problems are returned together.
func (c *Config) CheckSite(s Site) error {
	kinds := append(slices.Clone(s.Kinds), rules.KindHTML, rules.KindFile)
	lower := func(vs []string) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = strings.ToLower(v)
		}
		return out
	}
	lkinds, llangs := lower(kinds), lower(s.Langs)
	gen := generatorName(s.Generator)
	var errs []error
	fail := func(sel selector, format string, args ...any) {
		code := problem.UnknownKind
		if sel.key == "lang" {
			code = problem.UnknownLang
		}
		errs = append(errs, &Error{File: c.File, Line: sel.line, Code: code,
			Err: fmt.Errorf("rules[%d]: %s: "+format, append([]any{sel.rule, sel.key}, args...)...)})
	}
	for _, sel := range c.selectors {
		v := strings.ToLower(sel.value)
		switch {
		case sel.key == "kind" && !slices.Contains(lkinds, v):
			msg := fmt.Sprintf("%s has no kind %s", gen, quote(sel.value))
			if near, ok := resemblesKind(v, lkinds); ok {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(kinds[slices.Index(lkinds, near)]))
			}
			if len(s.Kinds) == 0 {
				fail(sel, "%s; it has only the kinds of any site, html and file", msg)
			} else {
				fail(sel, "%s; its kinds are %s, and any site's html and file", msg, strings.Join(s.Kinds, ", "))
			}
		case sel.key == "lang" && len(s.Langs) == 0:
			fail(sel, "%s defines no languages (lang selects Hugo's languages); select a language's pages by path instead (path: /%s/**)", gen, sel.value)
		case sel.key == "lang" && !slices.Contains(llangs, v):
			msg := fmt.Sprintf("%s is not a language of the site", quote(sel.value))
			if near, ok := suggest.Resembles(v, llangs); ok {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(s.Langs[slices.Index(llangs, near)]))
			}
			fail(sel, "%s; its configuration defines %s", msg, strings.Join(s.Langs, ", "))
		}
	}
	return errors.Join(errs...)
}

// resemblesKind is suggest.Resembles, trying a plural's singular too (taxonomies, terms), since
// Hugo's kinds are singular words and Jekyll's plural ones.
func resemblesKind(v string, kinds []string) (string, bool) {
	if near, ok := suggest.Resembles(v, kinds); ok {
		return near, true
	}
	for _, end := range [...][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if w, ok := strings.CutSuffix(v, end[0]); ok {
			w += end[1]
			if slices.Contains(kinds, w) {
				return w, true
			}
			if near, ok := suggest.Resembles(w, kinds); ok {
				return near, true
			}
		}
	}
	return "", false
}

// generatorName names a site by its generator, for messages: "a Hugo site".
func generatorName(g string) string {
	switch g {
	case "hugo":
		return "a Hugo site"
	case "jekyll":
		return "a Jekyll site"
	}
	return "a site without a generator"
}
