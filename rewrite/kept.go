package rewrite

import (
	"cmp"
	"html"
	"slices"
	"strconv"
	"strings"
)

// A robotsmith block records the robots tags it took from the page, one comment each:
//
//	<!-- robotsmith: from the page, line 7: robots="noindex, nofollow" -->
//
// The page's own tags are one more source of directives (SPEC §5), and Rewrite removes them. Without
// a record a second run over the same output would no longer see them: a theme's noindex would be
// merged by the first run and lost by the second. Scan reports the records as Found with Kept set,
// and Rewrite carries them into the new block, so that running it twice equals running it once.
// The line is the tag's line in the page as the generator wrote it.

const keptPrefix = "robotsmith: from the page, line "

// kept is one record of a page's tag.
type kept struct {
	name, content string
	line          int
	span
}

// parseKept reads a record comment's trimmed text.
func parseKept(text string) (kept, bool) {
	rest, ok := strings.CutPrefix(text, keptPrefix)
	if !ok {
		return kept{}, false
	}
	num, rest, ok := strings.Cut(rest, ": ")
	if !ok {
		return kept{}, false
	}
	line, err := strconv.Atoi(num)
	if err != nil || line < 1 {
		return kept{}, false
	}
	// The name is escaped like the content (keptText), so the first `="` ends it.
	name, rest, ok := strings.Cut(rest, `="`)
	if !ok || name == "" || strings.ContainsAny(name, "\"<>") || !strings.HasSuffix(rest, `"`) {
		return kept{}, false
	}
	content := strings.TrimSuffix(rest, `"`)
	if strings.Contains(content, `"`) {
		return kept{}, false
	}
	return kept{name: strings.ToLower(html.UnescapeString(name)), content: html.UnescapeString(content), line: line}, true
}

// keptText is the comment that records k. The name and the content are escaped, so neither can end
// the comment nor hold a quote (names come from the caller's agents too, and may hold anything).
func keptText(k kept) string {
	var b strings.Builder
	b.Grow(keptSize(k))
	writeKept(&b, k)
	return b.String()
}

// writeKept writes keptText(k) to b.
func writeKept(b *strings.Builder, k kept) {
	var num [20]byte
	b.WriteString("<!-- " + keptPrefix)
	b.Write(strconv.AppendInt(num[:0], int64(k.line), 10))
	b.WriteString(": ")
	b.WriteString(html.EscapeString(k.name))
	b.WriteString(`="`)
	b.WriteString(html.EscapeString(k.content))
	b.WriteString(`" -->`)
}

// keptSize is the length of keptText(k) when nothing in it needs escaping.
func keptSize(k kept) int {
	digits := 1
	for n := k.line; n >= 10; n /= 10 {
		digits++
	}
	return len("<!-- "+keptPrefix+`: ="" -->`) + digits + len(k.name) + len(k.content)
}

// records lists what a new block records: the old blocks' records and the tags it removes, each once,
// ordered by line, name and content so that the order does not depend on where they stood.
func records(src []byte, res scanResult) []kept {
	out := make([]kept, 0, len(res.kept)+len(res.tags))
	out = append(out, res.kept...)
	line, at := 1, 0
	for _, t := range res.tags {
		line += lineBreaks(src[at:t.start])
		at = t.start
		out = append(out, kept{name: t.name, content: t.content, line: line})
	}
	slices.SortFunc(out, func(a, b kept) int {
		return cmp.Or(cmp.Compare(a.line, b.line), strings.Compare(a.name, b.name), strings.Compare(a.content, b.content))
	})
	uniq := out[:0]
	for i, k := range out {
		if i > 0 {
			p := out[i-1]
			if p.line == k.line && p.name == k.name && p.content == k.content {
				continue
			}
		}
		uniq = append(uniq, k)
	}
	return uniq
}
