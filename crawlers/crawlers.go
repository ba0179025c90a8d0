package crawlers

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/robotsmith/robotsmith/internal/suggest"
)

// Purpose is what a crawler fetches for.
type Purpose int

// The purposes, in the order categories and messages list them.
const (
	// Training: collects content to train AI models.
	Training Purpose = iota + 1
	// AISearch: builds the index of an AI search or answer engine that links back.
	AISearch
	// AIInput: fetches content as input to an AI answer (grounding,
	// retrieval, a fetch a user asked for).
	AIInput
	// SearchEngine: a search engine's crawler. Never blocked by a category.
	SearchEngine
	// LinkPreview: fetches a shared link's preview. Never blocked by a category.
	LinkPreview
	// Other: anything else (archiving, ads checks, research crawls).
	Other
)

var purposeNames = [...]string{Training: "training", AISearch: "ai-search", AIInput: "ai-input",
	SearchEngine: "search-engine", LinkPreview: "link-preview", Other: "other"}

// String returns the name the catalogue and the config write: "training", "ai-search", ...
func (p Purpose) String() string {
	if p > 0 && int(p) < len(purposeNames) {
		return purposeNames[p]
	}
	return fmt.Sprintf("Purpose(%d)", int(p))
}

// IsAI reports whether p is one of the AI purposes a category can block.
func (p Purpose) IsAI() bool { return p == Training || p == AISearch || p == AIInput }

// ParsePurpose reads a purpose name as String writes it (any case).
func ParsePurpose(s string) (Purpose, error) {
	for p, n := range purposeNames {
		if p > 0 && strings.EqualFold(strings.TrimSpace(s), n) {
			return Purpose(p), nil
		}
	}
	return 0, fmt.Errorf("unknown purpose %q (known: %s)", s, strings.Join(purposeNames[1:], ", "))
}

// Source is where a fact about a crawler comes from.
type Source struct {
	Key   string // the catalogue's name for it: "openai", "ai-robots-txt"
	Title string
	URL   string
}

// Crawler is one entry of the catalogue.
type Crawler struct {
	// Tokens are the robots.txt product tokens the crawler obeys, as its
	// operator writes them; the first is its name.
	Tokens   []string
	Operator string
	Purposes []Purpose
	// RobotsTxtOnly marks a token no crawler sends (Google-Extended,
	// Applebot-Extended): it is read from robots.txt alone, to decide what
	// content another crawler fetched may be used for.
	RobotsTxtOnly bool
	// Generic marks a name so general that it names no one crawler (Spider,
	// Code): never blocked by a category, never a typo target.
	Generic bool
	Note    string
	Sources []Source
}

// Name is the crawler's first token.
func (c Crawler) Name() string { return c.Tokens[0] }

// Has reports whether the crawler fetches for p.
func (c Crawler) Has(p Purpose) bool { return slices.Contains(c.Purposes, p) }

// Blockable reports whether a category may block the crawler: not a
// search engine, not a link-preview fetcher, not a generic name. Those are
// blocked only by naming them in robots_txt.groups, because blocking them
// by category would take a site out of search results (Googlebot, Bingbot,
// Applebot) or break its link previews (facebookexternalhit, Twitterbot,
// Slackbot), which no AI preference asks for.
func (c Crawler) Blockable() bool {
	return !c.Generic && !c.Has(SearchEngine) && !c.Has(LinkPreview)
}

// BlockedBy reports whether a block of the AI category p disallows the crawler.
func (c Crawler) BlockedBy(p Purpose) bool { return p.IsAI() && c.Blockable() && c.Has(p) }

func (c Crawler) clone() Crawler {
	c.Tokens = slices.Clone(c.Tokens)
	c.Purposes = slices.Clone(c.Purposes)
	c.Sources = slices.Clone(c.Sources)
	return c
}

// Catalogue is a parsed crawler catalogue. It is never changed after Parse,
// and every method returns copies, so one Catalogue can be shared.
type Catalogue struct {
	version  int
	date     string
	crawlers []Crawler
	index    map[string]int // lower-case token → crawlers index
	// tokens is every token, sorted without case (Tokens). targets are the lower-case tokens of
	// the crawlers that are not Generic, in the same order, and names the same tokens as written:
	// what Resembles compares a name with. Both are worked out once, by Parse: a front matter or
	// a config may name tens of thousands of agents, each checked by Resembles.
	tokens, targets, names []string
}

// Version is the catalogue's version, raised with every change.
func (c *Catalogue) Version() int { return c.version }

// Date is the day the catalogue was last changed, as YYYY-MM-DD.
func (c *Catalogue) Date() string { return c.date }

// Crawlers returns every crawler in catalogue order.
func (c *Catalogue) Crawlers() []Crawler {
	out := make([]Crawler, len(c.crawlers))
	for i, cr := range c.crawlers {
		out[i] = cr.clone()
	}
	return out
}

// Lookup finds the crawler that obeys token, compared without case.
func (c *Catalogue) Lookup(token string) (Crawler, bool) {
	i, ok := c.index[strings.ToLower(strings.TrimSpace(token))]
	if !ok {
		return Crawler{}, false
	}
	return c.crawlers[i].clone(), true
}

// Tokens returns every token of the catalogue, sorted without case: the
// list of well-known crawler tokens.
func (c *Catalogue) Tokens() []string { return slices.Clone(c.tokens) }

// sortTokens sets c.tokens, c.targets and c.names from c.crawlers.
func (c *Catalogue) sortTokens() {
	type tok struct{ token, lower string }
	var all []tok
	for _, cr := range c.crawlers {
		for _, t := range cr.Tokens {
			all = append(all, tok{t, strings.ToLower(t)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].lower < all[j].lower })
	for _, t := range all {
		c.tokens = append(c.tokens, t.token)
		if !c.crawlers[c.index[t.lower]].Generic {
			c.targets, c.names = append(c.targets, t.lower), append(c.names, t.token)
		}
	}
}

// Block returns the crawlers that blocks of the AI categories ps disallow,
// each once, in catalogue order. Purposes that are not AI purposes select
// nothing.
func (c *Catalogue) Block(ps ...Purpose) []Crawler {
	var out []Crawler
	for _, cr := range c.crawlers {
		if slices.ContainsFunc(ps, cr.BlockedBy) {
			out = append(out, cr.clone())
		}
	}
	return out
}

// Resembles reports the well-known token that name looks like a misspelling
// of: within two edits of it (compared without case) but equal to no token.
// A token of six characters or fewer allows one edit, a swap of two
// neighbouring letters counting as one: two edits would make half of all
// short names typos ("mybot" is two edits from both CCBot and msnbot).
// Generic names are never compared. Of several candidates the nearest wins,
// then the first in Tokens order.
func (c *Catalogue) Resembles(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if _, ok := c.index[n]; ok || n == "" {
		return "", false
	}
	near, ok := suggest.Resembles(n, c.targets)
	if !ok {
		return "", false
	}
	return c.names[slices.Index(c.targets, near)], true
}

//go:embed catalogue.yaml
var embedded string

// defaultCatalogue parses the embedded catalogue once. The file is part of
// the source tree and TestCatalogue parses it, so a bad file fails the
// tests, never a user's build.
var defaultCatalogue = sync.OnceValue(func() *Catalogue {
	c, err := Parse([]byte(embedded))
	if err != nil {
		panic("crawlers: the embedded catalogue.yaml is invalid: " + err.Error())
	}
	return c
})

// Default returns the catalogue that ships with robotsmith.
func Default() *Catalogue { return defaultCatalogue() }

// The file's shape. Unknown fields are errors, so a misspelt key in the
// catalogue cannot silently drop a fact.
type fileSource struct {
	Title string `yaml:"title"`
	URL   string `yaml:"url"`
}

type fileCrawler struct {
	Tokens        []string `yaml:"tokens"`
	Operator      string   `yaml:"operator"`
	Purposes      []string `yaml:"purposes"`
	RobotsTxtOnly bool     `yaml:"robots_txt_only"`
	Generic       bool     `yaml:"generic"`
	Note          string   `yaml:"note"`
	Sources       []string `yaml:"sources"`
}

type file struct {
	Version  int                   `yaml:"version"`
	Date     string                `yaml:"date"`
	Sources  map[string]fileSource `yaml:"sources"`
	Crawlers []fileCrawler         `yaml:"crawlers"`
}

// tokenRe is what a token may hold: RFC 9309's product-token characters
// (letters, '-', '_') plus the digits and dots that real crawlers use
// (archive.org_bot, AI2Bot). No spaces: a token with a space is read
// differently by every parser.
var tokenRe = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// ValidToken reports whether s may be written as a User-agent token: one
// or more letters, digits, '.', '-' or '_'. (Google's parser reads only the
// leading letters, '-' and '_' of a token; crawlers with digits or dots in
// their names match themselves by their own rules.)
func ValidToken(s string) bool { return tokenRe.MatchString(s) }

// Parse reads a catalogue in the format of catalogue.yaml and checks it:
// every token valid and unique without case, every crawler with an
// operator, a known purpose, a note and a source that the file lists, and
// every listed source used. All problems are returned, joined.
func Parse(data []byte) (*Catalogue, error) {
	var f file
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("crawlers: %w", err)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("crawlers: "+format, args...)) }
	if f.Version < 1 {
		bad("version must be a positive number")
	}
	if _, err := time.Parse(time.DateOnly, f.Date); err != nil {
		bad("date %q is not a YYYY-MM-DD date", f.Date)
	}
	keys := make([]string, 0, len(f.Sources))
	for key := range f.Sources {
		keys = append(keys, key)
	}
	sort.Strings(keys) // map order is random; messages come in a stable order
	for _, key := range keys {
		if s := f.Sources[key]; s.Title == "" || !strings.HasPrefix(s.URL, "https://") {
			bad("source %q needs a title and an https URL", key)
		}
	}
	c := &Catalogue{version: f.Version, date: f.Date, index: map[string]int{}}
	used := map[string]bool{}
	for i, fc := range f.Crawlers {
		name := fmt.Sprintf("crawler %d", i+1)
		if len(fc.Tokens) > 0 {
			name = fmt.Sprintf("crawler %d (%s)", i+1, fc.Tokens[0])
		} else {
			bad("%s: no tokens", name)
		}
		cr := Crawler{Tokens: fc.Tokens, Operator: strings.TrimSpace(fc.Operator), RobotsTxtOnly: fc.RobotsTxtOnly,
			Generic: fc.Generic, Note: strings.TrimSpace(fc.Note)}
		for _, t := range fc.Tokens {
			lt := strings.ToLower(t)
			switch j, dup := c.index[lt]; {
			case !ValidToken(t):
				bad("%s: token %q may hold only letters, digits, '.', '-' and '_'", name, t)
			case dup:
				bad("%s: token %q is also crawler %d's (%s); tokens are compared without case", name, t, j+1, c.crawlers[j].Tokens[0])
			default:
				c.index[lt] = len(c.crawlers)
			}
		}
		if cr.Operator == "" {
			bad("%s: no operator", name)
		}
		if cr.Note == "" {
			bad("%s: no note", name)
		}
		if len(fc.Purposes) == 0 {
			bad("%s: no purpose", name)
		}
		for _, s := range fc.Purposes {
			p, err := ParsePurpose(s)
			switch {
			case err != nil:
				bad("%s: %v", name, err)
			case cr.Has(p):
				bad("%s: purpose %s is listed twice", name, p)
			default:
				cr.Purposes = append(cr.Purposes, p)
			}
		}
		if len(fc.Sources) == 0 {
			bad("%s: no source: say where its facts come from", name)
		}
		for _, key := range fc.Sources {
			s, ok := f.Sources[key]
			if !ok {
				bad("%s: source %q is not listed under sources", name, key)
				continue
			}
			used[key] = true
			cr.Sources = append(cr.Sources, Source{Key: key, Title: s.Title, URL: s.URL})
		}
		c.crawlers = append(c.crawlers, cr)
	}
	for _, key := range keys {
		if !used[key] {
			bad("source %q is listed but no crawler uses it", key)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.sortTokens()
	return c, nil
}
