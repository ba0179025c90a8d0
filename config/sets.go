package config

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/problem"
)

// The configuration's closed sets of names and values: the keys of each of its maps, and the words
// of each key that takes one of a few. The parser reads with them, every error about a word
// outside one says the nearest member ("did you mean"), and TestSuggestions walks every member of
// every set, written misspelt where the set is written, so that no set or word added here can lack
// its suggestion.

// set is one closed set.
type set uint8

const (
	topKeys       set = iota // the configuration's own keys
	generators               // generator:
	tagStyles                // tags:
	existingUses             // existing:
	previewModes             // previews:
	sitemapModes             // sitemap:
	headersKeys              // headers' keys
	headerFormats            // headers.format:
	robotsTxtKeys            // robots_txt's keys
	groupKeys                // the keys of a robots_txt group
	aiKeys                   // ai's keys
	prefWords                // ai.train, ai.search, ai.input
	blockWords               // ai.block's categories
	placements               // ai.placement:
	llmsModes                // llms_txt:
	selectorKeys             // the keys a rule selects with (its other keys name crawlers)
	numSets
)

// closedSets holds each set's words, and where it is written: a path of keys from the top, "[]"
// for an item of a list; a set of keys is written as the keys of the map at its path.
var closedSets = [numSets]struct {
	at    string
	keys  bool
	words []string
}{
	topKeys: {"", true, []string{"generator", "content", "output", "command", "tags", "existing",
		"previews", "production_branch", "defaults", "rules", "error_pages", "headers", "sitemap",
		"robots_txt", "ai", "llms_txt"}},
	generators:    {"generator", false, []string{"hugo", "jekyll", "none"}},
	tagStyles:     {"tags", false, []string{"three", "single"}},
	existingUses:  {"existing", false, []string{"merge", "replace"}},
	previewModes:  {"previews", false, []string{"noindex", "off"}},
	sitemapModes:  {"sitemap", false, []string{"prune", "keep"}},
	headersKeys:   {"headers", true, []string{"format", "html", "nginx_include", "firebase_site"}},
	headerFormats: {"headers.format", false, []string{"netlify", "cloudflare", "vercel", "firebase", "apache", "nginx", "caddy", "none", "auto"}},
	robotsTxtKeys: {"robots_txt", true, []string{"groups", "sitemaps"}},
	groupKeys:     {"robots_txt.groups[]", true, []string{"agents", "disallow", "allow"}},
	aiKeys:        {"ai", true, []string{"train", "search", "input", "block", "meta", "placement", "reserve"}},
	prefWords:     {"ai.train", false, []string{"yes", "no"}},
	blockWords:    {"ai.block[]", false, strings.Split(aipref.Categories, ", ")},
	placements:    {"ai.placement", false, strings.Split(aipref.Placements, ", ")},
	llmsModes:     {"llms_txt", false, []string{"prune", "keep", "generate", "off"}},
	selectorKeys:  {"rules[]", true, []string{"path", "kind", "lang"}},
}

// words are the members of s.
func (s set) words() []string { return closedSets[s].words }

// list is the members of s, for a message: "three, single".
func (s set) list() string { return strings.Join(s.words(), ", ") }

// nearest is the member of s that w (in any case, blanks around it ignored) looks like a
// misspelling of, for "did you mean"; ok is false when there is none.
func (s set) nearest(w string) (string, bool) {
	return suggest.Resembles(strings.ToLower(strings.TrimSpace(w)), s.words())
}

// didYouMean is "; did you mean "x"?" for the member of s nearest w, "" when none is near.
func (s set) didYouMean(w string) string {
	if near, ok := s.nearest(w); ok {
		return fmt.Sprintf("; did you mean %s?", quote(near))
	}
	return ""
}

// unknownKey reports a key of a map that is not in keys: "headers: unknown key "formats" (known:
// format, html); did you mean "format"?". where is the map's name, "" at the top level; more, when
// given, says what the key is instead of a suggestion.
func (p *parser) unknownKey(where, name string, off int, keys set, more string) {
	msg := fmt.Sprintf("unknown key %s (known: %s)", quote(name), keys.list())
	if where != "" {
		msg = where + ": " + msg
	}
	if more != "" {
		msg += "; " + more
	} else {
		msg += keys.didYouMean(name)
	}
	p.errorAt(problem.ConfigUnknownKey, off, "%s", msg)
}
