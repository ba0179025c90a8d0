package headers

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
	"regexp"
	"strings"
)

// How the JSON hosts match a request's path with the user's own entries, for the findings about
// them (and, in the tests, for proving robotsmith's entries against the hosts' documented
// examples): Vercel compiles a source with path-to-regexp 6.1.0, Firebase reads a glob (the
// emulator uses minimatch) or an RE2 expression. Both compare the path as the request sent it
// (vercel dev and superstatic read url.parse(req.url).pathname), so a file is tested by its path
// percent-encoded as a browser sends it (EncodePath).

// errNotModelled: a pattern that robotsmith cannot tell the matches of.
var errNotModelled = errors.New("robotsmith cannot tell which paths it matches")

// vercelSourceRegexp compiles a vercel.json source as Vercel does: path-to-regexp 6.1.0's parse
// and tokensToRegexp with strict (no optional trailing '/'), sensitive (case-sensitive) and '/'
// as the delimiter. A custom pattern is a JavaScript expression; one that Go's RE2 cannot compile
// (a look-ahead, a back-reference) is errNotModelled.
func vercelSourceRegexp(source string) (*regexp.Regexp, error) {
	toks, err := p2rLex(source)
	if err != nil {
		return nil, err
	}
	const defaultPattern = `[^\/]+?`
	var b strings.Builder
	b.WriteString("^")
	i := 0
	try := func(kind byte) (string, bool) {
		if i < len(toks) && toks[i].kind == kind {
			i++
			return toks[i-1].val, true
		}
		return "", false
	}
	text := func() string {
		var s strings.Builder
		for {
			if v, ok := try('c'); ok {
				s.WriteString(v)
			} else if v, ok := try('e'); ok {
				s.WriteString(v)
			} else {
				return s.String()
			}
		}
	}
	path := ""
	key := func(prefix, suffix, pattern, modifier string) {
		prefix, suffix = p2rEscape(prefix), p2rEscape(suffix)
		switch {
		case pattern == "":
			b.WriteString("(?:" + prefix + suffix + ")" + modifier)
		case prefix == "" && suffix == "":
			b.WriteString("(" + pattern + ")" + modifier)
		case modifier == "+" || modifier == "*":
			mod := ""
			if modifier == "*" {
				mod = "?"
			}
			b.WriteString("(?:" + prefix + "((?:" + pattern + ")(?:" + suffix + prefix + "(?:" + pattern + "))*)" + suffix + ")" + mod)
		default:
			b.WriteString("(?:" + prefix + "(" + pattern + ")" + suffix + ")" + modifier)
		}
	}
	for i < len(toks) {
		char, _ := try('c')
		name, hasName := try('n')
		pattern, hasPattern := try('p')
		if hasName || hasPattern {
			prefix := char
			if prefix != "." && prefix != "/" {
				path += prefix
				prefix = ""
			}
			if path != "" {
				b.WriteString(p2rEscape(path))
				path = ""
			}
			if !hasPattern {
				pattern = defaultPattern
			}
			_ = name
			mod, _ := try('m')
			key(prefix, "", pattern, mod)
			continue
		}
		if char != "" {
			path += char
			continue
		}
		if v, ok := try('e'); ok {
			path += v
			continue
		}
		if path != "" {
			b.WriteString(p2rEscape(path))
			path = ""
		}
		if _, ok := try('{'); ok {
			prefix := text()
			name, hasName := try('n')
			pattern, hasPattern := try('p')
			suffix := text()
			if _, ok := try('}'); !ok {
				return nil, fmt.Errorf("source %s: expected }", excerpt.Quote(source))
			}
			if hasName && !hasPattern {
				pattern = defaultPattern
			}
			_ = name
			mod, _ := try('m')
			key(prefix, suffix, pattern, mod)
			continue
		}
		if _, ok := try('$'); !ok {
			return nil, fmt.Errorf("source %s: unexpected %q", excerpt.Quote(source), toks[i].val)
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("source %s: %w (%v)", excerpt.Quote(source), errNotModelled, err)
	}
	return re, nil
}

// p2rToken is a token of path-to-regexp's lexer: c a character, e an escaped character, n a
// parameter's name, p a custom pattern, m a modifier, { and } a group, $ the end.
type p2rToken struct {
	kind byte
	val  string
}

func p2rLex(s string) ([]p2rToken, error) {
	var toks []p2rToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '*' || c == '+' || c == '?':
			toks = append(toks, p2rToken{'m', s[i : i+1]})
			i++
		case c == '\\' && i+1 < len(s):
			toks = append(toks, p2rToken{'e', s[i+1 : i+2]})
			i += 2
		case c == '{' || c == '}':
			toks = append(toks, p2rToken{c, s[i : i+1]})
			i++
		case c == ':':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] == '_') {
				j++
			}
			if j == i+1 {
				return nil, fmt.Errorf("source %s: missing parameter name at %d", excerpt.Quote(s), i)
			}
			toks = append(toks, p2rToken{'n', s[i+1 : j]})
			i = j
		case c == '(':
			count, j := 1, i+1
			if j < len(s) && s[j] == '?' {
				return nil, fmt.Errorf("source %s: pattern cannot start with \"?\" at %d", excerpt.Quote(s), j)
			}
			var pat strings.Builder
			for j < len(s) {
				if s[j] == '\\' && j+1 < len(s) {
					pat.WriteString(s[j : j+2])
					j += 2
					continue
				}
				if s[j] == ')' {
					count--
					if count == 0 {
						j++
						break
					}
				} else if s[j] == '(' {
					count++
					if j+1 >= len(s) || s[j+1] != '?' {
						return nil, fmt.Errorf("source %s: capturing groups are not allowed at %d", excerpt.Quote(s), j)
					}
				}
				pat.WriteByte(s[j])
				j++
			}
			if count != 0 {
				return nil, fmt.Errorf("source %s: unbalanced pattern at %d", excerpt.Quote(s), i)
			}
			if pat.Len() == 0 {
				return nil, fmt.Errorf("source %s: missing pattern at %d", excerpt.Quote(s), i)
			}
			toks = append(toks, p2rToken{'p', pat.String()})
			i = j
		default:
			toks = append(toks, p2rToken{'c', s[i : i+1]})
			i++
		}
	}
	return append(toks, p2rToken{kind: '$'}), nil
}

// p2rEscape is path-to-regexp's escapeString: a backslash before each of .+*?=^!:${}()[]|/\ .
func p2rEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`.+*?=^!:${}()[]|/\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// firebaseGlobRegexp compiles a firebase.json glob as the Firebase emulator reads it: the glob is
// made to start with '/', its backslashes turned into '/' and runs of '/' merged (superstatic's
// slasher), then matched by minimatch against the whole path: '*' and '?' within a segment, '**'
// as a whole segment for any number of segments, [classes], {a,b} and the extglobs @(a|b),
// ?(a|b), *(a|b), +(a|b). minimatch's !(...) and its rule that * skips names starting with '.'
// are not modelled: !(...) is errNotModelled, and a '.' name matches (a finding too many, never
// one too few).
func firebaseGlobRegexp(glob string) (*regexp.Regexp, error) {
	g := strings.ReplaceAll(glob, `\`, "/")
	if !strings.HasPrefix(g, "/") {
		g = "/" + g
	}
	for strings.Contains(g, "//") {
		g = strings.ReplaceAll(g, "//", "/")
	}
	segs := strings.Split(g, "/")
	var b strings.Builder
	b.WriteString("^")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if last {
				b.WriteString(".*")
			} else {
				b.WriteString("(?:[^/]*/)*")
			}
			continue
		}
		s, err := globSegment(seg)
		if err != nil {
			return nil, fmt.Errorf("glob %s: %w", excerpt.Quote(glob), err)
		}
		b.WriteString(s)
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob %s: %w (%v)", excerpt.Quote(glob), errNotModelled, err)
	}
	return re, nil
}

// globSegment converts one segment of a glob (no '/' outside braces and extglobs).
func globSegment(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("@?*+!", c) >= 0 && i+1 < len(s) && s[i+1] == '(':
			end := matchingClose(s, i+1, '(', ')')
			if end < 0 {
				return "", fmt.Errorf("%w: an unclosed %c(", errNotModelled, c)
			}
			if c == '!' {
				return "", fmt.Errorf("%w: !(...)", errNotModelled)
			}
			alts, err := globAlternatives(s[i+2:end], '|')
			if err != nil {
				return "", err
			}
			mod := map[byte]string{'@': "", '?': "?", '*': "*", '+': "+"}[c]
			b.WriteString("(?:" + alts + ")" + mod)
			i = end
		case c == '{':
			end := matchingClose(s, i, '{', '}')
			if end < 0 || !strings.Contains(s[i:end], ",") {
				b.WriteString(regexp.QuoteMeta("{"))
				continue
			}
			alts, err := globAlternatives(s[i+1:end], ',')
			if err != nil {
				return "", err
			}
			b.WriteString("(?:" + alts + ")")
			i = end
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(s[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := s[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += 1 + end
		default:
			b.WriteString(regexp.QuoteMeta(s[i : i+1]))
		}
	}
	return b.String(), nil
}

// globAlternatives converts the alternatives of a brace or extglob, split at sep outside nested
// parentheses and braces.
func globAlternatives(s string, sep byte) (string, error) {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, s[start:])
	for i, p := range parts {
		var err error
		if strings.Contains(p, "/") {
			parts[i], err = globPath(p)
		} else {
			parts[i], err = globSegment(p)
		}
		if err != nil {
			return "", err
		}
	}
	return strings.Join(parts, "|"), nil
}

// globPath converts an alternative that spans segments.
func globPath(p string) (string, error) {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		var err error
		if segs[i], err = globSegment(s); err != nil {
			return "", err
		}
	}
	return strings.Join(segs, "/"), nil
}

// matchingClose is the index of the close that ends the open at s[i], or -1.
func matchingClose(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// entryMatcher returns the test of a request's path (percent-encoded) that a host applies for
// one of its entries, decoded as a generic JSON object, and the entry's pattern for a message.
type entryMatcher func(entry map[string]any) (func(string) bool, string, error)

// vercelMatcher is entryMatcher for vercel.json (an entry with has or missing applies only to
// some requests; it is taken to apply to all).
func vercelMatcher(entry map[string]any) (func(string) bool, string, error) {
	src, _ := entry["source"].(string)
	re, err := vercelSourceRegexp(src)
	if err != nil {
		return nil, "source " + excerpt.Quote(src), err
	}
	return re.MatchString, "source " + excerpt.Quote(src), nil
}

// firebaseMatcher is entryMatcher for firebase.json: regex (found anywhere in the path, as the
// emulator does), else glob or source.
func firebaseMatcher(entry map[string]any) (func(string) bool, string, error) {
	if r, ok := entry["regex"].(string); ok {
		re, err := regexp.Compile(r)
		if err != nil {
			return nil, "regex " + excerpt.Quote(r), fmt.Errorf("%w (%v)", errNotModelled, err)
		}
		return re.MatchString, "regex " + excerpt.Quote(r), nil
	}
	g, ok := entry["glob"].(string)
	if !ok {
		g, _ = entry["source"].(string)
	}
	re, err := firebaseGlobRegexp(g)
	if err != nil {
		return nil, "glob " + excerpt.Quote(g), err
	}
	return re.MatchString, "glob " + excerpt.Quote(g), nil
}

// lintJSONEntries reports the user's entries of arr (those mine does not mark) that set
// X-Robots-Tag for a path robotsmith covers, or Content-Usage when robotsmith sends it, saying
// which one the host sends: the later entry's value replaces the earlier one's.
func lintJSONEntries(data []byte, arr *jsonValue, mine []bool, paths []served, usage bool, file string, match entryMatcher) []Finding {
	if arr == nil {
		return nil
	}
	host := strings.TrimSuffix(file, ".json")
	at := len(arr.elems) // where robotsmith's entries are
	for i, m := range mine {
		if m {
			at = i
			break
		}
	}
	var out []Finding
	lines := newLineIndex(data)
	for i, e := range arr.elems {
		if mine[i] {
			continue
		}
		var entry map[string]any
		if json.Unmarshal(withoutComments(data[e.val.start:e.val.end]), &entry) != nil {
			continue
		}
		list, _ := entry["headers"].([]any)
		var robots, content bool
		for _, h := range list {
			kv, _ := h.(map[string]any)
			k, _ := kv["key"].(string)
			robots = robots || strings.EqualFold(k, headerName)
			content = content || strings.EqualFold(k, usageHeader)
		}
		order := fmt.Sprintf("robotsmith's entries come later, so %s sends robotsmith's value instead", host)
		if i > at {
			order = fmt.Sprintf("this entry comes after robotsmith's entries, so %s sends its value instead of robotsmith's", host)
		}
		line := lines.line(e.val.start)
		if robots {
			test, what, err := match(entry)
			switch {
			case err != nil:
				why := "robotsmith cannot tell which paths it matches"
				if !errors.Is(err, errNotModelled) {
					why = "the host would not read its pattern"
				}
				out = append(out, Finding{File: file, Line: line, Code: problem.HeaderRuleUnmodelled, Msg: fmt.Sprintf("the entry with %s sets X-Robots-Tag, and %s; for the files robotsmith covers that it matches, %s", what, why, order)})
			default:
				var hits []string
				for _, p := range paths {
					if test(EncodePath(p.path)) {
						hits = append(hits, p.path)
					}
				}
				if len(hits) > 0 {
					msg := fmt.Sprintf("the entry with %s also sets X-Robots-Tag for a file robotsmith covers; %s", what, order)
					if len(hits) > 1 {
						msg += fmt.Sprintf(" (and %d more files)", len(hits)-1)
					}
					out = append(out, Finding{File: file, Line: line, Path: hits[0], Code: problem.HeaderRuleOverlaps, Msg: msg})
				}
			}
		}
		if content && usage {
			out = append(out, Finding{File: file, Line: line, Code: problem.ContentUsageOverlaps, Msg: fmt.Sprintf("the entry also sets Content-Usage, which robotsmith sends for every path from the ai policy in its config; for the paths it matches, %s", order)})
		}
	}
	return out
}
