// Package llmstxt reads, prunes and writes llms.txt files, as llmstxt.org
// defines them (and llms-full.txt, the same format at more length): an H1
// with the site's name, an optional blockquote summary, then H2 sections of
// link lists, `- [name](url): notes`.
//
// Parse finds every link of the file, in every form Markdown gives one:
// inline links and images (`[name](url)`, `[name](url "title")`,
// `[name](<url with spaces>)`, `![alt](src)`), reference links
// (`[name][label]`, `[label][]`, `[label]`) and the definitions they use
// (`[label]: url "title"`), autolinks (`<https://…>`) and bare URLs
// (`https://…`, `www.…`, which GitHub Flavored Markdown and the readers of
// llms.txt take as links), in lists, prose, headings and blockquotes,
// relative or absolute, in files with a byte order mark or CRLF line
// breaks. Text in code spans, code blocks and HTML is not a link. Each link
// carries its URL, text, title, notes, section and byte range.
//
// The Markdown is read by goldmark, the CommonMark parser robotsmith
// already uses, so that what counts as a link is what a Markdown reader
// takes for one (escapes, code spans, nesting, case-insensitive labels, the
// first of two definitions). goldmark gives where a link starts; where it
// ends is read from goldmark's own reader just after its link parsers
// consumed the link (the parsers are wrapped, not copied), and every link's
// bytes are checked (brackets, parenthesis, angle brackets) before Prune
// deletes anything.
//
// Prune removes the links whose URLs a caller drops (noindex pages, missing
// files, pages no AI crawler may fetch, pages whose preferences say no to
// AI input) and keeps every other byte: a list item whose links all go is
// removed whole, any other link is unlinked (its text stays), a definition
// is removed with its lines (see Prune for each case). Generate and Update
// write robotsmith's own llms.txt between HTML-comment markers
// (internal/markers' HTML style), keeping the owner's text around it.
//
// Usage:
//
//	f, err := llmstxt.Parse(src)
//	for _, l := range f.Links {
//		fmt.Println(l.Line, l.URL, l.Section) // 9 https://example.com/guide/ Docs
//	}
//	out, pruned, err := llmstxt.Prune(src, func(url string) (bool, string) {
//		if noindex(url) {
//			return true, "noindex for all crawlers"
//		}
//		return false, ""
//	})
//	out, err = llmstxt.Update(old, llmstxt.Info{Title: "My site"}, pages) // pages: []llmstxt.Page
//
// The package is pure: bytes in, bytes out; nothing reads or writes files.
package llmstxt
